import { useQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import type { Member } from '@divan/core';
import { Alert } from '@/components/ui/alert';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { NoAccess } from '@/components/ui/no-access';
import { PageHeading } from '@/components/ui/page-heading';
import { PageSpinner } from '@/components/ui/spinner';
import { useAbility } from '@/lib/ability';
import { api } from '@/lib/api-client';
import { formatDate, formatTime } from '@/lib/format';
import { workspaceKey } from '@/lib/workspace-keys';
import { isRealWorkspace, useCurrentWorkspace } from '@/stores/workspaces-store';
import { useAuditEvents } from '../api/workspaces-api';
import { describeAuditEvent } from '../utils/audit-labels';
import { usePageTitle } from '@/lib/use-page-title';

/** Who changed what in the workspace: roles, members, invitations, plan. For administrators. */
export function WorkspaceActivityRoute() {
  usePageTitle('Registro de actividad');
  const ws = useCurrentWorkspace();
  const ability = useAbility();
  const allowed = isRealWorkspace(ws.id) && ability.can('manage', 'roles');
  const events = useAuditEvents(ws.id, allowed);
  // Some events store a member's id: the member list turns it into a name.
  const members = useQuery({
    queryKey: workspaceKey(ws.id, 'members'),
    queryFn: ({ signal }) => api<Member[]>(`/workspaces/${ws.id}/members`, { signal }),
    enabled: allowed,
  });

  if (!isRealWorkspace(ws.id)) return <PageSpinner />;
  if (!allowed)
    return (
      <NoAccess title="Sin acceso al registro de actividad">
        El registro de actividad es para quienes administran los roles del espacio.
      </NoAccess>
    );

  const nameOf = (userId: string) => {
    const m = members.data?.find((x) => x.userId === userId);
    return m ? [m.firstName, m.lastName].filter(Boolean).join(' ') || m.email : null;
  };
  const list = events.data?.pages.flat() ?? [];

  return (
    <div className="grid gap-6">
      <PageHeading title="Registro de actividad" workspace={ws.name}>
        Cambios en miembros, invitaciones, roles y plan, del más reciente al más antiguo.
      </PageHeading>
      {events.isPending ? (
        <PageSpinner />
      ) : events.isError ? (
        <Alert variant="error">{events.error.message}</Alert>
      ) : list.length === 0 ? (
        <Card className="grid justify-items-center gap-2 p-10 text-center">
          <History className="size-6 text-muted-foreground" aria-hidden />
          <p className="text-sm text-muted-foreground">Todavía no hay actividad registrada.</p>
        </Card>
      ) : (
        <Card>
          <ol className="divide-y">
            {list.map((e) => (
              <li key={e.id} className="flex items-start gap-3 px-4 py-3 sm:px-5">
                <Avatar name={e.actor.name} className="mt-0.5 size-8 text-xs" />
                <div className="grid min-w-0 flex-1 gap-0.5">
                  <p className="text-sm">
                    <span className="font-medium">{e.actor.name}</span>
                    <span className="text-muted-foreground"> · </span>
                    {describeAuditEvent(e, nameOf)}
                  </p>
                  <p className="text-[0.8125rem] text-muted-foreground">
                    <time dateTime={e.createdAt}>
                      {formatDate(e.createdAt)} a las {formatTime(e.createdAt)}
                    </time>
                  </p>
                </div>
              </li>
            ))}
          </ol>
          {events.hasNextPage ? (
            <div className="border-t p-3 text-center">
              <Button variant="ghost" onClick={() => void events.fetchNextPage()} loading={events.isFetchingNextPage}>
                Cargar más
              </Button>
            </div>
          ) : null}
        </Card>
      )}
    </div>
  );
}

export { WorkspaceActivityRoute as Component };
