import { useMemo } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { AuthNavContext, type AuthNav } from '@/features/auth/utils/auth-nav';
import { AuthFrame } from './auth-frame';

/** The signed-out screens inside the router (once the app is loaded): their links move the router. */
export function AuthLayout() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const nav = useMemo<AuthNav>(() => ({ search, go: (href) => void navigate(href) }), [search, navigate]);
  return (
    <AuthFrame>
      <AuthNavContext value={nav}>
        <Outlet />
      </AuthNavContext>
    </AuthFrame>
  );
}

export { AuthLayout as Component };
