import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ComponentType } from 'react';
import { PageSpinner } from '@/components/ui/spinner';
import { SignInRoute } from '@/features/auth/routes/sign-in';
import { AuthNavContext, type AuthNav } from '@/features/auth/utils/auth-nav';
import { safeRedirect } from '@/lib/safe-redirect';
import { useAuthStore } from '@/stores/auth-store';
import { AuthFrame } from '../layouts/auth-frame';
import { GuestErrorBoundary } from './guest-error-boundary';
import { guestPath, type GuestPath } from './guest-paths';

const SignUpRoute = lazy(() => import('@/features/auth/routes/sign-up').then((m) => ({ default: m.SignUpRoute })));
const ForgotPasswordRoute = lazy(() => import('@/features/auth/routes/forgot-password').then((m) => ({ default: m.ForgotPasswordRoute })));

const SCREENS: Record<GuestPath, ComponentType> = {
  '/sign-in': SignInRoute,
  '/sign-up': SignUpRoute,
  '/forgot-password': ForgotPasswordRoute,
};

type Place = { pathname: string; search: string };
const here = (): Place => ({ pathname: window.location.pathname, search: window.location.search });

/** The browser's address as state: links push it in place, Back and Forward come back as `popstate`. */
function useAddress(): [Place, (href: string) => void] {
  const [place, setPlace] = useState(here);
  useEffect(() => {
    const moved = () => setPlace(here());
    window.addEventListener('popstate', moved);
    return () => window.removeEventListener('popstate', moved);
  }, []);
  const go = useCallback((href: string) => {
    window.history.pushState(null, '', href);
    setPlace(here());
    window.scrollTo(0, 0);
  }, []);
  return [place, go];
}

/**
 * Sign-in, sign-up and forgot-password for a signed-out visitor, without React Router (the guest
 * entry). Signed in (here or in another tab), or sent to any other page, it hands over to the app:
 * `leave()` loads the router and draws the app in the same root, at `redirect` after a sign-in.
 */
export function GuestApp({ leave }: { leave: () => void }) {
  const [place, go] = useAddress();
  const loggedIn = useAuthStore((s) => s.loggedIn);
  const path = guestPath(place.pathname);
  const leaving = loggedIn || !path;
  useEffect(() => {
    if (!leaving) return;
    if (loggedIn) window.history.replaceState(null, '', safeRedirect(new URLSearchParams(window.location.search).get('redirect')));
    leave();
  }, [leaving, loggedIn, leave]);
  const nav = useMemo<AuthNav>(() => ({ search: place.search, go }), [place.search, go]);
  if (leaving) return <PageSpinner />;
  const Screen = SCREENS[path];
  return (
    <AuthFrame>
      <AuthNavContext value={nav}>
        <GuestErrorBoundary>
          <Suspense fallback={null}>
            <Screen key={path} />
          </Suspense>
        </GuestErrorBoundary>
      </AuthNavContext>
    </AuthFrame>
  );
}
