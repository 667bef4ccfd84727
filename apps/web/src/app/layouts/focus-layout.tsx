import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { Link, useRoutes } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { Logo } from '@/components/ui/logo';
import { PageSpinner } from '@/components/ui/spinner';
import { useWorkspacesSync } from '@/features/workspaces/api/workspaces-api';
import { queryClient } from '@/lib/query-client';
import { preloadToaster } from '@/lib/toast';
import { ThemeMenu } from '../components/theme-menu';

const page = (load: () => Promise<{ Component: ComponentType }>) => lazy(() => load().then((m) => ({ default: m.Component })));
const Create = page(() => import('@/features/workspaces/routes/create-workspace'));
const Created = page(() => import('@/features/workspaces/routes/create-workspace-success'));
const Join = page(() => import('@/features/workspaces/routes/join-workspace'));
const NotFound = page(() => import('@/features/errors/routes/not-found'));

/**
 * /workspaces/*: signed-in screens outside the shell (create a workspace, join one): one task, no
 * sidebar, so the user finishes it before choosing where to go next. Descendant routes keep their
 * chunk lists out of the app's entry (see bundle-budget.md).
 */
export function FocusLayout() {
  useEffect(preloadToaster, []);
  return (
    <QueryClientProvider client={queryClient}>
      <Focus>
        <Suspense fallback={<PageSpinner />}>
          <FlowRoutes />
        </Suspense>
      </Focus>
    </QueryClientProvider>
  );
}

function FlowRoutes() {
  return useRoutes([
    { path: 'create', element: <Create /> },
    { path: 'create/success', element: <Created /> },
    { path: 'join/:id', element: <Join /> },
    { path: '*', element: <NotFound /> },
  ]);
}

function Focus({ children }: { children: ReactNode }) {
  useWorkspacesSync();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex h-16 items-center justify-between gap-3 px-4 sm:px-8">
        <Link to="/" aria-label="Diván: ir al inicio" className="rounded-lg">
          <Logo />
        </Link>
        <ThemeMenu />
      </header>
      <main id="main" className="flex flex-1 justify-center px-4 pb-12 pt-4 sm:px-8 sm:pt-10">
        <div className="w-full max-w-2xl">{children}</div>
      </main>
    </div>
  );
}

export { FocusLayout as Component };
