import { createBrowserRouter, Navigate, Outlet, RouterProvider, type LazyRouteFunction, type RouteObject } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { RouteErrorBoundary, ServerErrorRoute } from '@/features/errors/routes/server-error';
import { RequireAuth, RequireGuest } from './guards';
import type { screens as Screens } from './screens';

/** A signed-in screen, loaded through ./screens (one small chunk first, then the screen). */
const screen = (name: keyof typeof Screens) =>
  (() => import('./screens').then((m): Promise<object> => m.screens[name]())) as LazyRouteFunction<RouteObject>;

/**
 * Every screen is a lazy chunk, so the sign-in page does not download the shell and vice versa.
 * The error boundary is eager: it must render even when a chunk fails to load. A section's bare path
 * (/settings, /patients/:id) renders a <Navigate> to its first tab: a leaf with only a redirecting loader
 * has no element, and React Router warns on every first load of it.
 */
export const router = createBrowserRouter([
  {
    path: '/',
    element: <Outlet />,
    errorElement: <RouteErrorBoundary />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      {
        element: <RequireGuest />,
        children: [
          {
            lazy: () => import('./layouts/auth-layout'),
            children: [
              { path: 'sign-in', lazy: () => import('@/features/auth/routes/sign-in') },
              { path: 'sign-up', lazy: () => import('@/features/auth/routes/sign-up') },
              { path: 'forgot-password', lazy: () => import('@/features/auth/routes/forgot-password') },
            ],
          },
        ],
      },
      {
        lazy: () => import('./layouts/auth-layout'),
        children: [
          { path: 'verify-email/:token', lazy: () => import('@/features/auth/routes/verify-email') },
          { path: 'reset-password/:token', lazy: () => import('@/features/auth/routes/reset-password') },
        ],
      },
      // The video room: the patient's link works signed out; without its token the page asks a member to sign in.
      { path: 'meet/:sessionId', lazy: () => import('@/features/meet/meet-route') },
      // A mailed payment link (save a card, pay an invoice): the patient has no account.
      { path: 'pago/:token', lazy: () => import('@/features/billing/payments/routes/public-payment-route') },
      // A mailed consent signing link (spec §2 `consents/sign/{token}`): the signer has no account.
      { path: 'consents/sign/:token', lazy: () => import('@/features/consents/sign/consent-sign-route') },
      // A gift's link (spec §2 `/gift/{code}`): what it holds, signed out or in; redeemed once signed in.
      { path: 'gift/:code', lazy: () => import('@/features/gift/routes/gift-code-route') },
      {
        element: <RequireAuth />,
        children: [
          // One task outside the shell: create a workspace, or join one from an invitation (spec §2).
          { path: 'workspaces/*', lazy: screen('focusLayout') },
          // Back from paying a plan (Checkout's success URL): waits for the payment to be confirmed, outside the shell.
          { path: 'plans/payment-success', lazy: screen('paymentSuccess') },
          // Back from paying a gift: waits for the payment, then shows its code once, outside the shell.
          { path: 'gift/purchased', lazy: screen('giftPurchased') },
          {
            lazy: screen('shellLayout'),
            children: [
              { index: true, lazy: screen('dashboard') },
              {
                path: 'patients',
                lazy: screen('patientsRoot'),
                children: [
                  { index: true, lazy: screen('patientsList') },
                  {
                    path: ':patientId',
                    lazy: screen('patientLayout'),
                    children: [
                      { index: true, element: <Navigate to="overview" replace /> },
                      { path: 'overview', lazy: screen('patientOverview') },
                      { path: 'info', lazy: screen('patientInfo') },
                      { path: 'sessions', lazy: screen('patientSessions') },
                      { path: 'history', lazy: screen('patientHistory') },
                      { path: 'chat', lazy: screen('patientChat') },
                      { path: 'documents', lazy: screen('patientDocuments') },
                      { path: 'consents', lazy: screen('patientConsents') },
                      { path: 'billing', lazy: screen('patientBilling') },
                      { path: 'settings', lazy: screen('patientSettings') },
                    ],
                  },
                ],
              },
              {
                path: 'chats',
                lazy: screen('chatsLayout'),
                children: [
                  { index: true, lazy: screen('chatsIndex') },
                  { path: ':patientFileId', lazy: screen('chatConversation') },
                ],
              },
              {
                path: 'calendar',
                children: [
                  { index: true, lazy: screen('calendar') },
                  { path: 'services', lazy: screen('bookingServices') },
                ],
              },
              {
                path: 'billing',
                children: [
                  { index: true, lazy: screen('billingList') },
                  { path: 'editor/:id?', lazy: screen('invoiceEditor') },
                  { path: 'batch', lazy: screen('invoiceBatch') },
                  { path: 'fee-balance', lazy: screen('feeBalance') },
                ],
              },
              { path: 'plans', lazy: screen('plans') },
              { path: 'analytics', lazy: screen('analytics') },
              { path: 'gift', lazy: screen('gift') },
              {
                path: 'consents',
                children: [
                  { index: true, lazy: screen('consentTemplates') },
                  { path: 'editor/:id?', lazy: screen('consentEditor') },
                ],
              },
              {
                path: 'settings',
                lazy: screen('settingsLayout'),
                children: [
                  { index: true, element: <Navigate to="profile" replace /> },
                  { path: 'profile', lazy: screen('profileSettings') },
                  { path: 'security', lazy: screen('securitySettings') },
                  { path: 'appearance', lazy: screen('appearanceSettings') },
                  { path: 'notifications', lazy: screen('notificationSettings') },
                  { path: 'integrations', lazy: screen('integrationsSettings') },
                  { path: 'billing/*', lazy: screen('billingSettings') },
                  { path: 'payments', lazy: screen('paymentsSettings') },
                  { path: 'invite', lazy: screen('inviteSettings') },
                  { path: 'help', lazy: screen('helpSettings') },
                  { path: 'workspace/*', lazy: screen('workspaceSettings') },
                ],
              },
            ],
          },
        ],
      },
      { path: '404', lazy: () => import('@/features/errors/routes/not-found') },
      { path: '500', Component: ServerErrorRoute },
      { path: '503', lazy: () => import('@/features/errors/routes/unavailable') },
      { path: '*', lazy: () => import('@/features/errors/routes/not-found') },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
