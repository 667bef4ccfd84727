import type { DomainEventName } from './events';

/**
 * The domain events that reach other members' screens, and what each makes them refetch: the one list
 * the server's socket bridge sends (a `workspace-event` frame to every member of the event's workspace,
 * ids only) and the web's realtime hook reads. A query key here is the part after the workspace's in
 * `['workspace', workspaceId, …]`. An event missing from this list never leaves the server.
 */
export const SOCKET_EVENTS = {
  'patient.created': 'patients',
  'patient.updated': 'patients',
  'patient.assigned': 'patients',
  'patient.blocked': 'patients',
  'patient.erased': 'patients',
  'patients.imported': 'patients',
  'session.created': 'sessions',
  'session.updated': 'sessions',
  'session.canceled': 'sessions',
  'session.completed': 'sessions',
  'session.deleted': 'sessions',
  'workspace.access_changed': 'members',
  'invoice.paid': 'invoices',
} as const satisfies Partial<Record<DomainEventName, string>>;

/** A domain event bridged to the members' sockets. */
export type SocketEventName = keyof typeof SOCKET_EVENTS;
/** The workspace query a bridged event makes stale. */
export type SocketEventQuery = (typeof SOCKET_EVENTS)[SocketEventName];

export const SOCKET_EVENT_NAMES = Object.keys(SOCKET_EVENTS) as SocketEventName[];

/** The query key a `workspace-event` frame's event refreshes; undefined for a name not on the list. */
export const socketEventQuery = (name: string): SocketEventQuery | undefined =>
  Object.hasOwn(SOCKET_EVENTS, name) ? SOCKET_EVENTS[name as SocketEventName] : undefined;
