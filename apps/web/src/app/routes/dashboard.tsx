import { Alert } from '@/components/ui/alert';
import { PageSpinner } from '@/components/ui/spinner';
import { DashboardView } from '@/features/dashboard/components/dashboard-view';
import { useMe } from '@/features/profile/api/profile-api';
import { TasksCard } from '@/features/tasks/components/tasks-card';
import { usePageTitle } from '@/lib/use-page-title';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';

export function DashboardRoute() {
  usePageTitle('Inicio');
  const me = useMe();
  const workspace = useCurrentWorkspace();
  const tasks = isRealWorkspace(workspace.id) ? <TasksCard key={workspace.id} workspaceId={workspace.id} /> : null;
  if (me.data) return <DashboardView profile={me.data} tasks={tasks} />;
  if (me.isError) return <Alert variant="error">{me.error.message}</Alert>;
  return <PageSpinner />;
}

export { DashboardRoute as Component };
