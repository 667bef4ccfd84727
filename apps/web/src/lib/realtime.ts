import {
  REALTIME_PATH,
  SOCKET_HEARTBEAT_MS,
  SOCKET_PING_TIMEOUT_MS,
  SOCKET_RECONNECT_DELAY_MS,
  type DisconnectCode,
  type RealtimeFrame,
} from '@divan/core';

export type RealtimeDeps = {
  url: string;
  /** A valid access token (refreshed by the caller when it is about to expire). */
  getAccessToken: () => Promise<string>;
  /** Forces a token refresh after the server refused ours. */
  refreshToken: () => Promise<unknown>;
  onSessionLost: () => void;
  onMaxSessions: () => void;
  onEvent: (frame: RealtimeFrame) => void;
  onStatus?: (status: RealtimeStatus) => void;
  createSocket?: (url: string) => WebSocket;
};

export type RealtimeStatus = 'connecting' | 'connected' | 'closed' | 'stopped';

/** Silence longer than the server's heartbeat plus our margin means the link is dead. */
export const DEAD_AFTER_MS = SOCKET_PING_TIMEOUT_MS + SOCKET_HEARTBEAT_MS;

export function realtimeUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${REALTIME_PATH}`;
}

/** The notifications socket (spec §4/§7): authenticate, answer pings, reconnect, obey disconnect codes. */
export class RealtimeClient {
  private socket: WebSocket | null = null;
  private stopped = true;
  private refreshBeforeReconnect = false;
  private deadTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: RealtimeDeps) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.deadTimer);
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
    this.deps.onStatus?.('stopped');
  }

  /** Sends an event of a feature (e.g. `chat-typing`) on the open socket; dropped while disconnected. */
  emit(event: string, data?: unknown): void {
    if (this.socket) this.send(this.socket, { event, data } as RealtimeFrame);
  }

  private connect(): void {
    if (this.stopped) return;
    this.deps.onStatus?.('connecting');
    const socket = this.deps.createSocket ? this.deps.createSocket(this.deps.url) : new WebSocket(this.deps.url);
    this.socket = socket;
    socket.onopen = () => {
      this.armDeadTimer();
      this.deps
        .getAccessToken()
        .then((token) => this.send(socket, { event: 'authenticate', data: { token, realm: 'therapists' } }))
        .catch(() => socket.close());
    };
    socket.onmessage = (message) => {
      this.armDeadTimer();
      let frame: RealtimeFrame;
      try {
        frame = JSON.parse(String(message.data)) as RealtimeFrame;
      } catch {
        return;
      }
      this.handle(socket, frame);
    };
    socket.onclose = () => {
      clearTimeout(this.deadTimer);
      if (this.socket === socket) this.socket = null;
      if (this.stopped) return;
      this.deps.onStatus?.('closed');
      this.reconnectTimer = setTimeout(() => void this.reconnect(), SOCKET_RECONNECT_DELAY_MS);
    };
  }

  private async reconnect(): Promise<void> {
    if (this.refreshBeforeReconnect) {
      this.refreshBeforeReconnect = false;
      try {
        await this.deps.refreshToken();
      } catch {
        // A lost session is handled by the refresher (it signs out); anything else: just try again.
      }
    }
    this.connect();
  }

  private handle(socket: WebSocket, frame: RealtimeFrame): void {
    switch (frame.event) {
      case 'authenticated':
        this.deps.onStatus?.('connected');
        return;
      case 'ping':
        this.send(socket, { event: 'pong' });
        return;
      case 'pong':
        return;
      // A frame of ours the server refused ({code, message}): a bug of this client, nothing a feature can act on.
      case 'error':
        return;
      case 'disconnect':
        this.onDisconnect((frame.data as { code?: DisconnectCode } | undefined)?.code);
        return;
      default:
        this.deps.onEvent(frame);
    }
  }

  private onDisconnect(code: DisconnectCode | undefined): void {
    if (code === 'invalid_access_token') this.refreshBeforeReconnect = true;
    else if (code === 'max_sessions_reached') {
      this.stop();
      this.deps.onMaxSessions();
    } else if (code === 'session_not_found') {
      this.stop();
      this.deps.onSessionLost();
    }
    // 'timeout' and anything unknown: the server closes the socket and we simply reconnect.
  }

  private armDeadTimer(): void {
    clearTimeout(this.deadTimer);
    const socket = this.socket;
    this.deadTimer = setTimeout(() => socket?.close(), DEAD_AFTER_MS);
  }

  private send(socket: WebSocket, frame: RealtimeFrame): void {
    if (socket.readyState === 1) socket.send(JSON.stringify(frame));
  }
}
