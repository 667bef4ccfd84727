import { createBrowserRouter, Navigate, Outlet, RouterProvider, type LazyRouteFunction, type RouteObject } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { RouteErrorBoundary, ServerErrorRoute } from '@/features/errors/routes/server-error';
import { RequireAuth, RequireGuest } from './guards';
import type { ShellScreen } from './layouts/shell-layout';
import type { moreScreens as MoreScreens } from './more-screens';
import type { screens as Screens } from './screens';

type Lazy = LazyRouteFunction<RouteObject>;
/** A signed-in screen, loaded through ./screens (one small chunk first, then the screen). */
const first = (name: keyof typeof Screens) => (() => import('./screens').then((m): Promise<object> => m.screens[name]())) as Lazy;
/**
 * The screens inside the shell, imported by the shell layout's module (after it, as the shell always draws
 * around them): Rollup then knows the shell's modules are loaded already and keeps them in the shell's own
 * chunk rather than in ~80 small shared files (docs/bundle-budget.md, 08/12/2026).
 */
const inShell = (name: ShellScreen) =>
  (() => import('./screens').then((m) => m.screens.shellLayout()).then((m): Promise<object> => m.shellScreen(name))) as Lazy;
const later = (name: keyof typeof MoreScreens) => inShell(name);

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
          // Back from Google or Apple (signing in, signing up, or linking from Ajustes › Seguridad: signed in or out).
          { path: 'auth/:provider/callback', lazy: () => import('@/features/auth/routes/social-callback') },
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
          // «Segundo factor obligatorio» (issue 32): a member still to set up a second factor sees only this.
          { path: 'second-factor', lazy: () => import('@/features/auth/routes/second-factor-enrol') },
          // One task outside the shell: create a workspace, or join one from an invitation (spec §2).
          { path: 'workspaces/*', lazy: first('focusLayout') },
          // Back from paying a plan (Checkout's success URL): waits for the payment to be confirmed, outside the shell.
          { path: 'plans/payment-success', lazy: first('paymentSuccess') },
          // Back from paying a gift: waits for the payment, then shows its code once, outside the shell.
          { path: 'gift/purchased', lazy: first('giftPurchased') },
          {
            lazy: first('shellLayout'),
            children: [
              { index: true, lazy: inShell('dashboard') },
              {
                path: 'patients',
                lazy: later('patientsRoot'),
                children: [
                  { index: true, lazy: later('patientsList') },
                  {
                    path: ':patientId',
                    lazy: later('patientLayout'),
                    children: [
                      { index: true, element: <Navigate to="overview" replace /> },
                      { path: 'overview', lazy: later('patientOverview') },
                      { path: 'info', lazy: later('patientInfo') },
                      { path: 'sessions', lazy: later('patientSessions') },
                      { path: 'history', lazy: later('patientHistory') },
                      { path: 'measures', lazy: later('patientMeasures') },
                      { path: 'chat', lazy: later('patientChat') },
                      { path: 'documents', lazy: later('patientDocuments') },
                      { path: 'consents', lazy: later('patientConsents') },
                      { path: 'billing', lazy: later('patientBilling') },
                      { path: 'settings', lazy: later('patientSettings') },
                    ],
                  },
                ],
              },
              {
                path: 'chats',
                lazy: later('chatsLayout'),
                children: [
                  { index: true, lazy: later('chatsIndex') },
                  { path: ':patientFileId', lazy: later('chatConversation') },
                ],
              },
              {
                path: 'calendar',
                children: [
                  { index: true, lazy: later('calendar') },
                  { path: 'services', lazy: later('bookingServices') },
                ],
              },
              {
                path: 'billing',
                children: [
                  { index: true, lazy: later('billingList') },
                  { path: 'editor/:id?', lazy: later('invoiceEditor') },
                  { path: 'batch', lazy: later('invoiceBatch') },
                  { path: 'fee-balance', lazy: later('feeBalance') },
                ],
              },
              { path: 'plans', lazy: later('plans') },
              { path: 'analytics', lazy: later('analytics') },
              { path: 'gift', lazy: later('gift') },
              // The training library (spec §2): its pages are descendant routes of one chunk (app/routes/learning.tsx).
              { path: 'learn/*', lazy: later('learning') },
              {
                path: 'consents',
                children: [
                  { index: true, lazy: later('consentTemplates') },
                  { path: 'editor/:id?', lazy: later('consentEditor') },
                ],
              },
              {
                path: 'settings',
                lazy: later('settingsLayout'),
                children: [
                  { index: true, element: <Navigate to="profile" replace /> },
                  { path: 'profile', lazy: later('profileSettings') },
                  { path: 'security', lazy: later('securitySettings') },
                  { path: 'appearance', lazy: later('appearanceSettings') },
                  { path: 'notifications', lazy: later('notificationSettings') },
                  { path: 'integrations', lazy: later('integrationsSettings') },
                  // Back from Google's consent page (Google Calendar's connection).
                  { path: 'integrations/google/callback', lazy: later('googleCalendarCallback') },
                  { path: 'billing/*', lazy: later('billingSettings') },
                  { path: 'payments', lazy: later('paymentsSettings') },
                  { path: 'invite', lazy: later('inviteSettings') },
                  { path: 'help', lazy: later('helpSettings') },
                  { path: 'workspace/*', lazy: later('workspaceSettings') },
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
