import { createBrowserRouter, Outlet, redirect, RouterProvider } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { RouteErrorBoundary, ServerErrorRoute } from '@/features/errors/routes/server-error';
import { RequireAuth, RequireGuest } from './guards';

/**
 * Every screen is a lazy chunk, so the sign-in page does not download the shell and vice versa.
 * The error boundary is eager: it must render even when a chunk fails to load.
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
      {
        element: <RequireAuth />,
        children: [
          // One task outside the shell: create a workspace, or join one from an invitation (spec §2).
          { path: 'workspaces/*', lazy: () => import('./layouts/focus-layout') },
          {
            lazy: () => import('./layouts/shell-layout'),
            children: [
              { index: true, lazy: () => import('./routes/dashboard') },
              {
                path: 'patients',
                lazy: () => import('@/features/patients/patients-root'),
                children: [
                  { index: true, lazy: () => import('@/features/patients/list/patients-list-route') },
                  {
                    path: ':patientId',
                    lazy: () => import('@/features/patients/detail/patient-layout'),
                    children: [
                      { index: true, loader: ({ params }) => redirect(`/patients/${params.patientId}/overview`) },
                      { path: 'overview', lazy: () => import('./routes/patient-overview') },
                      { path: 'info', lazy: () => import('@/features/patients/detail/info-tab') },
                      { path: 'sessions', lazy: () => import('./routes/patient-sessions') },
                      { path: 'history', lazy: () => import('@/features/patients/history/history-tab') },
                      { path: 'documents', lazy: () => import('@/features/patients/documents/documents-tab') },
                      { path: 'settings', lazy: () => import('@/features/patients/detail/settings-tab') },
                    ],
                  },
                ],
              },
              { path: 'calendar', lazy: () => import('@/features/calendar/calendar-route') },
              {
                path: 'settings',
                lazy: () => import('./routes/settings-layout'),
                children: [
                  { index: true, loader: () => redirect('/settings/profile') },
                  { path: 'profile', lazy: () => import('@/features/profile/routes/profile-settings') },
                  { path: 'security', lazy: () => import('@/features/auth/routes/security-settings') },
                  { path: 'appearance', lazy: () => import('@/features/appearance/routes/appearance-settings') },
                  { path: 'notifications', lazy: () => import('@/features/notifications/routes/notification-settings') },
                  { path: 'integrations', lazy: () => import('./routes/integrations-settings') },
                  { path: 'workspace/*', lazy: () => import('./routes/workspace-settings') },
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
