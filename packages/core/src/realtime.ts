/** Websocket frames of spec §4/§7: `{event, data}` JSON both ways, on `/api/v1/notifications`. */
export const REALTIME_PATH = '/api/v1/notifications';
export type RealtimeInEvent = 'authenticate' | 'ping' | 'pong' | 'chat-typing';
export type RealtimeOutEvent =
  | 'authenticated'
  | 'disconnect'
  | 'ping'
  | 'pong'
  | 'profile-updated'
  /** The member's roles or membership of a workspace changed: refetch workspaces and permissions. */
  | 'workspace-updated'
  /** A domain event of a workspace the user belongs to ({name, workspaceId, …ids}): refetch what shows it. */
  | 'workspace-event'
  | 'chat-message'
  | 'chat-notification-counters'
  | 'chat-notification-counter'
  /** The other side of a conversation is typing ({patientFileId, senderKind}). */
  | 'chat-typing';
export type DisconnectCode = 'invalid_access_token' | 'max_sessions_reached' | 'session_not_found' | 'timeout';
export type RealtimeFrame<E extends string = string, D = unknown> = { event: E; data?: D };
