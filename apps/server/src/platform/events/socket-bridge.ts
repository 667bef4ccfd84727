import type { DomainEventName, SocketEventName } from '@divan/core';
import type { Realtime } from '../realtime/realtime';
import type { EventBus, EventLog } from './event-bus';

/** The ids of a domain event that a screen needs to refresh: its name, workspace and every `…Id` (never other facts). */
export type WorkspaceEventFrame = { name: DomainEventName; workspaceId: string } & Record<string, string | null>;

/**
 * Domain events that other members' screens show live (core's SOCKET_EVENTS, each claimed by the module
 * that emits it in its entry's `sockets`; the web refreshes by the same list): each becomes a `workspace-event` frame on the
 * sockets of the workspace's members (every process's sockets, through the realtime broker), so a list
 * another member changed refreshes itself. Only ids travel: what a member may read is still decided by
 * the API when the screen refetches. Sent after the handler returns, so the write never waits for it.
 */
export function bridgeToSockets(
  events: EventBus,
  realtime: Realtime,
  memberUserIds: (workspaceId: string) => Promise<string[]>,
  names: readonly SocketEventName[],
  log: EventLog,
) {
  for (const name of names)
    events.on(
      name,
      (payload) => {
        const p = payload as Record<string, unknown> & { workspaceId: string };
        const frame: Record<string, unknown> = { name, workspaceId: p.workspaceId };
        for (const [k, v] of Object.entries(p)) if (k.endsWith('Id') && (typeof v === 'string' || v === null)) frame[k] = v;
        void memberUserIds(p.workspaceId)
          .then((ids) => Promise.all(ids.map((id) => realtime.toUser(id, 'workspace-event', frame))))
          .catch((err: unknown) => log.error({ err, event: name }, 'events: socket bridge failed'));
      },
      { scope: 'once' },
    );
}
