/**
 * The signed-in screens, imported from here and not from the route table: each `import()` carries the
 * list of files to preload with it, and this chunk's lists are downloaded only by someone signed in
 * (the sign-in page stays within its budget, apps/web/docs/bundle-budget.md).
 */
export const screens = {
  focusLayout: () => import('./layouts/focus-layout'),
  shellLayout: () => import('./layouts/shell-layout'),
  dashboard: () => import('./routes/dashboard'),
  patientsRoot: () => import('@/features/patients/patients-root'),
  patientsList: () => import('@/features/patients/list/patients-list-route'),
  patientLayout: () => import('@/features/patients/detail/patient-layout'),
  patientOverview: () => import('./routes/patient-overview'),
  patientInfo: () => import('@/features/patients/detail/info-tab'),
  patientSessions: () => import('./routes/patient-sessions'),
  patientBilling: () => import('./routes/patient-billing'),
  patientHistory: () => import('@/features/patients/history/history-tab'),
  patientDocuments: () => import('@/features/patients/documents/documents-tab'),
  patientConsents: () => import('./routes/patient-consents'),
  patientChat: () => import('./routes/patient-chat'),
  patientSettings: () => import('@/features/patients/detail/settings-tab'),
  chatsLayout: () => import('@/features/chat/routes/chats-layout'),
  chatsIndex: () => import('@/features/chat/routes/chats-index'),
  chatConversation: () => import('@/features/chat/routes/chat-route'),
  /** Not a screen: the dashboard's «Mensajes sin leer», here so its preload list joins the others (the dashboard's chunk stays small). */
  unreadChatsCard: () => import('@/features/chat/components/unread-chats-card'),
  /** Not a screen either: the dashboard's «Sesiones por cerrar», loaded only while some past session is still pending. */
  sessionsToCloseCard: () => import('@/features/agenda/components/sessions-to-close-card'),
  calendar: () => import('@/features/calendar/calendar-route'),
  bookingServices: () => import('@/features/booking/booking-services-route'),
  billingList: () => import('@/features/billing/list/billing-list-route'),
  invoiceEditor: () => import('@/features/billing/editor/invoice-editor-route'),
  invoiceBatch: () => import('@/features/billing/batch/batch-route'),
  feeBalance: () => import('@/features/billing/fee-balance/fee-balance-route'),
  consentTemplates: () => import('@/features/consents/list/consents-route'),
  consentEditor: () => import('@/features/consents/editor/consent-editor-route'),
  plans: () => import('@/features/plans/routes/plans-route'),
  paymentSuccess: () => import('@/features/plans/routes/payment-success-route'),
  settingsLayout: () => import('./routes/settings-layout'),
  profileSettings: () => import('@/features/profile/routes/profile-settings'),
  securitySettings: () => import('@/features/auth/routes/security-settings'),
  appearanceSettings: () => import('@/features/appearance/routes/appearance-settings'),
  notificationSettings: () => import('./routes/notification-settings'),
  integrationsSettings: () => import('./routes/integrations-settings'),
  billingSettings: () => import('@/features/billing/settings/billing-settings-route'),
  paymentsSettings: () => import('@/features/plans/routes/payments-settings-route'),
  helpSettings: () => import('@/features/help/routes/help-settings'),
  workspaceSettings: () => import('./routes/workspace-settings'),
} satisfies Record<string, () => Promise<object>>;
