import { lazy, Suspense } from 'react';
import { Alert } from '@/components/ui/alert';
import { PageSpinner } from '@/components/ui/spinner';
import { DashboardView } from '@/features/dashboard/components/dashboard-view';
import { useMe } from '@/features/profile/api/profile-api';
import { TasksCard } from '@/features/tasks/components/tasks-card';
import { TodaySessionsCard } from '@/features/agenda/components/today-sessions-card';
import { useSessionsToClose } from '@/features/agenda/api/agenda-api';
import { useChatUnreadTotal } from '@/features/chat/api/use-chat-live';
import { useMeasureFlags } from '@/features/measures/api/measures-api';
import { usePermits } from '@/lib/permits';
import { useAuthStore } from '@/stores/auth-store';
import { usePageTitle } from '@/lib/use-page-title';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';

// Its own chunk, loaded only while something is unread: the shell stays within its budget. Imported from here,
// not from screens.ts: loaded after the shell, their shared modules stay in the shell's chunks (router.tsx `inShell`).
const UnreadChatsCard = lazy(() => import('@/features/chat/components/unread-chats-card').then((m) => ({ default: m.UnreadChatsCard })));
// Likewise, only while some past session is still «Pendiente».
const SessionsToCloseCard = lazy(() =>
  import('@/features/agenda/components/sessions-to-close-card').then((m) => ({ default: m.SessionsToCloseCard })),
);
// The month's money and its 30-day chart: Recharts comes with it, after the shell.
const RevenueCard = lazy(() => import('@/features/analytics/components/revenue-card').then((m) => ({ default: m.RevenueCard })));
// «Continuar viendo» and «Vídeos populares»: the library's own chunk, drawn only when it has something.
const LearningDashboard = lazy(() =>
  import('@/features/learning/components/learning-dashboard').then((m) => ({ default: m.LearningDashboard })),
);

// Unreviewed risk answers of the member's patients: its own chunk, loaded only when there are some.
const RiskFlagsCard = lazy(() => import('@/features/measures/components/risk-flags-card').then((m) => ({ default: m.RiskFlagsCard })));

export function DashboardRoute() {
  usePageTitle('Inicio');
  const me = useMe();
  const workspace = useCurrentWorkspace();
  const ability = usePermits();
  const userId = useAuthStore((s) => s.userId) ?? '';
  const real = isRealWorkspace(workspace.id);
  // The sidebar's count (0 for who does not read chats): the card shows only when there is something to read.
  const unreadChats = useChatUnreadTotal();
  // Each card is keyed by its workspace (a switch starts it afresh) and its own name: siblings sharing a
  // key made React keep the previous workspace's «Sesiones de hoy» beside the new one's until a reload.
  const tasks = real ? <TasksCard key={`tasks:${workspace.id}`} workspaceId={workspace.id} /> : null;
  const readsSessions = real && ability.can('read', 'sessions');
  const sessions = readsSessions ? (
    <TodaySessionsCard
      key={`today:${workspace.id}`}
      workspaceId={workspace.id}
      userId={userId}
      canCreate={ability.can('create', 'sessions')}
      canWriteNotes={ability.can('create', 'patient_histories')}
    />
  ) : null;
  const toClose = useSessionsToClose(workspace.id, readsSessions);
  const closing =
    readsSessions && toClose.data?.length ? (
      <Suspense key={`to-close:${workspace.id}`} fallback={null}>
        <SessionsToCloseCard
          workspaceId={workspace.id}
          sessions={toClose.data}
          userId={userId}
          canClose={(s) => ability.canOn('update', 'sessions', { ownerId: s.therapist.id })}
        />
      </Suspense>
    ) : null;
  const chats =
    real && unreadChats > 0 ? (
      <Suspense fallback={null}>
        <UnreadChatsCard key={`chats:${workspace.id}`} workspaceId={workspace.id} />
      </Suspense>
    ) : null;
  const revenue =
    real && (ability.can('read', 'invoices') || ability.can('read', 'workspace_invoices')) ? (
      <Suspense key={`revenue:${workspace.id}`} fallback={<div className="h-72 rounded-xl border bg-card" aria-hidden />}>
        <RevenueCard workspaceId={workspace.id} />
      </Suspense>
    ) : null;
  // Fetched here, the card's chunk loaded only when there is a flag (the shell's budget counts what «/» loads).
  const riskFlags = useMeasureFlags(workspace.id, real && ability.can('read', 'patient_histories'));
  const flags = riskFlags.data?.length ? (
    <Suspense key={`flags:${workspace.id}`} fallback={null}>
      <RiskFlagsCard flags={riskFlags.data} />
    </Suspense>
  ) : null;
  // The person's own, not the workspace's: the same whichever workspace is open.
  const learning = (
    <Suspense fallback={null}>
      <LearningDashboard />
    </Suspense>
  );
  if (me.data)
    return (
      <DashboardView
        profile={me.data}
        revenue={revenue}
        flags={flags}
        tasks={tasks}
        sessions={sessions}
        toClose={closing}
        chats={chats}
        learning={learning}
      />
    );
  if (me.isError) return <Alert variant="error">{me.error.message}</Alert>;
  return <PageSpinner />;
}

export { DashboardRoute as Component };
