import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { safeRedirect } from '@/lib/safe-redirect';
import { mustEnrolSecondFactor } from '@/lib/jwt';
import { useAuthStore } from '@/stores/auth-store';

/** Where a member sets up the second factor their workspace requires (issue 32): all the app shows until then. */
export const ENROL_PATH = '/second-factor';

/** Protected routes: signed-out visitors go to sign-in, and come back here afterwards. */
export function RequireAuth() {
  const hydrated = useAuthStore((s) => s.hydrated);
  const loggedIn = useAuthStore((s) => s.loggedIn);
  const lastSignOut = useAuthStore((s) => s.lastSignOut);
  const mustEnrol = useAuthStore((s) => mustEnrolSecondFactor(s.accessToken));
  const location = useLocation();
  if (!hydrated) return null;
  if (!loggedIn) {
    const here = location.pathname + location.search;
    // Someone who chose to sign out starts afresh; an expired session resumes where it was.
    const to = lastSignOut === 'user' || here === '/' ? '/sign-in' : `/sign-in?redirect=${encodeURIComponent(here)}`;
    return <Navigate to={to} replace />;
  }
  if (mustEnrol && location.pathname !== ENROL_PATH) return <Navigate to={ENROL_PATH} replace />;
  return <Outlet />;
}

/** Sign-in, sign-up, forgot-password: for signed-out visitors only. */
export function RequireGuest() {
  const hydrated = useAuthStore((s) => s.hydrated);
  const loggedIn = useAuthStore((s) => s.loggedIn);
  const [params] = useSearchParams();
  if (!hydrated) return null;
  if (loggedIn) return <Navigate to={safeRedirect(params.get('redirect'))} replace />;
  return <Outlet />;
}
