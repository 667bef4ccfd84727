import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, useRoutes } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';

const page = (load: () => Promise<{ Component: ComponentType }>) => lazy(() => load().then((m) => ({ default: m.Component })));

const General = page(() => import('@/features/workspaces/routes/workspace-general'));
const Members = page(() => import('@/features/members/routes/workspace-members'));
const Roles = page(() => import('@/features/roles/routes/workspace-roles'));
const RoleEditor = page(() => import('@/features/roles/routes/role-editor'));
const Billing = page(() => import('./workspace-billing'));
const Plan = page(() => import('@/features/plans/routes/workspace-plan-route'));
const Activity = page(() => import('@/features/workspaces/routes/workspace-activity'));
const NotFound = page(() => import('@/features/errors/routes/not-found'));

/**
 * /settings/workspace/*: the workspace group of settings (spec §2), as descendant routes. Each page is
 * still its own chunk; declaring them here rather than in the app's route table keeps their chunk
 * lists out of the entry every screen downloads, the sign-in page included (bundle-budget.md).
 */
export function WorkspaceSettingsRoutes() {
  // useRoutes, not <Routes>: the app already ships it, while <Routes> would add ~0.6 KB to the framework chunk.
  const element = useRoutes([
    { index: true, element: <Navigate to="general" replace /> },
    { path: 'general', element: <General /> },
    { path: 'members', element: <Members /> },
    { path: 'roles', element: <Roles /> },
    { path: 'roles/new', element: <RoleEditor /> },
    { path: 'roles/:roleId', element: <RoleEditor /> },
    { path: 'billing', element: <Billing /> },
    { path: 'plan', element: <Plan /> },
    { path: 'activity', element: <Activity /> },
    { path: '*', element: <NotFound /> },
  ]);
  return <Suspense fallback={<PageSpinner />}>{element}</Suspense>;
}

export { WorkspaceSettingsRoutes as Component };
