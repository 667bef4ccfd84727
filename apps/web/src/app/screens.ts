/**
 * The first signed-in screens (the shell, the dashboard and its cards, the pages outside the shell),
 * imported from here and not from the route table: each `import()` carries the list of files to preload
 * with it, and this chunk's lists are downloaded only by someone signed in (the sign-in page stays
 * within its budget, apps/web/docs/bundle-budget.md). The others are in more-screens.ts.
 */
export const screens = {
  focusLayout: () => import('./layouts/focus-layout'),
  shellLayout: () => import('./layouts/shell-layout'),
  dashboard: () => import('./routes/dashboard'),
  /** Not a screen: the dashboard's «Mensajes sin leer», here so its preload list joins the others (the dashboard's chunk stays small). */
  unreadChatsCard: () => import('@/features/chat/components/unread-chats-card'),
  /** Not a screen either: the dashboard's «Sesiones por cerrar», loaded only while some past session is still pending. */
  sessionsToCloseCard: () => import('@/features/agenda/components/sessions-to-close-card'),
  /** Not a screen: the dashboard's «Ingresos del mes» with its chart (Recharts loads with it, never in the shell). */
  revenueCard: () => import('@/features/analytics/components/revenue-card'),
  /** Not a screen: the dashboard's «Continuar viendo» and «Vídeos populares» (the training library). */
  learningCards: () => import('@/features/learning/components/learning-dashboard'),
  paymentSuccess: () => import('@/features/plans/routes/payment-success-route'),
  giftPurchased: () => import('@/features/gift/routes/gift-purchased-route'),
} satisfies Record<string, () => Promise<object>>;
