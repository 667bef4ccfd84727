/**
 * Websocket frames of spec §4/§7: `{event, data}` JSON both ways, on `/api/v1/notifications`. What a
 * client may send is a Zod contract in realtime-frames.ts (the server validates every frame with it; its
 * types, RealtimeClientFrame and RealtimeInEvent, live there too);
 * this module stays free of Zod so the web shell can load it. Decision 0009 describes the contract.
 */
export const REALTIME_PATH = '/api/v1/notifications';
/** The app socket takes no frame longer than this (its longest is an access token): longer ones are refused. */
export const REALTIME_FRAME_MAX_BYTES = 16 * 1024;
/** Invalid frames one socket may send in a minute (either socket); one more and it is closed. */
export const SOCKET_INVALID_FRAME_LIMIT = 20;

export type RealtimeOutEvent =
  | 'authenticated'
  | 'disconnect'
  | 'ping'
  | 'pong'
  /** A frame the server refused ({code, message}, `SocketRefusal`); the socket stays open. */
  | 'error'
  | 'profile-updated'
  /** The member's roles or membership of a workspace changed: refetch workspaces and permissions. */
  | 'workspace-updated'
  /** A domain event of a workspace the user belongs to ({name, workspaceId, …ids}): refetch what shows it. */
  | 'workspace-event'
  /** The user's busy times from their Google calendars changed in a workspace ({workspaceId}): refetch them. */
  | 'google-busy-changed'
  | 'chat-message'
  | 'chat-notification-counters'
  | 'chat-notification-counter'
  /** The other side of a conversation is typing ({patientFileId, senderKind}). */
  | 'chat-typing';
export type DisconnectCode =
  'invalid_access_token' | 'max_sessions_reached' | 'session_not_found' | 'timeout' | 'socket_too_many_invalid_frames';
export type RealtimeFrame<E extends string = string, D = unknown> = { event: E; data?: D };

/**
 * Why a socket (the app's or the video room's) refused a frame, sent as `{event: 'error', data: {code,
 * message}}` with the catalogue's Spanish message: not a text frame, too long, not `{event, data}` JSON
 * or not the data its event takes, an event the socket does not know, or one that needs the socket
 * authenticated (joined, in the video room) first.
 */
export type SocketRefusalCode =
  'socket_frame_binary' | 'socket_frame_too_large' | 'socket_frame_invalid' | 'socket_event_unknown' | 'socket_not_authenticated';
export type SocketRefusal = { code: SocketRefusalCode | 'internal_server_error'; message: string };
