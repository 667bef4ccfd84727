import { Alert } from '@/components/ui/alert';
import { PageSpinner } from '@/components/ui/spinner';
import { DashboardView } from '@/features/dashboard/components/dashboard-view';
import { useMe } from '@/features/profile/api/profile-api';
import { TasksCard } from '@/features/tasks/components/tasks-card';
import { TodaySessionsCard } from '@/features/agenda/components/today-sessions-card';
import { useAbility } from '@/lib/ability';
import { useAuthStore } from '@/stores/auth-store';
import { usePageTitle } from '@/lib/use-page-title';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';

export function DashboardRoute() {
  usePageTitle('Inicio');
  const me = useMe();
  const workspace = useCurrentWorkspace();
  const ability = useAbility();
  const userId = useAuthStore((s) => s.userId) ?? '';
  const real = isRealWorkspace(workspace.id);
  const tasks = real ? <TasksCard key={workspace.id} workspaceId={workspace.id} /> : null;
  const sessions =
    real && ability.can('read', 'sessions') ? (
      <TodaySessionsCard key={workspace.id} workspaceId={workspace.id} userId={userId} canCreate={ability.can('create', 'sessions')} canWriteNotes={ability.can('create', 'patient_histories')} />
    ) : null;
  if (me.data) return <DashboardView profile={me.data} tasks={tasks} sessions={sessions} />;
  if (me.isError) return <Alert variant="error">{me.error.message}</Alert>;
  return <PageSpinner />;
}

export { DashboardRoute as Component };
