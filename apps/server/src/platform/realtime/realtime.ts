import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import {
  REALTIME_PATH,
  SOCKET_HEARTBEAT_MS,
  SOCKET_MAX_PER_USER,
  type DisconnectCode,
  type RealtimeFrame,
  type RealtimeOutEvent,
} from '@divan/core';
import type { TokenService } from '../auth/tokens';
import type { Broker, BrokerMessage } from './broker';

type Client = { socket: WebSocket; userId?: string; sessionId?: string; lastSeen: number };

/**
 * The key of a patient account's sockets (realm `patients`): what `toUser` takes to reach them, and
 * the `userId` hooks and client events see for them.
 */
export const patientSocketKey = (patientAccountId: string) => `patient:${patientAccountId}`;
export const isPatientSocketKey = (key: string) => key.startsWith('patient:');

/** Greets a socket just authenticated as `userId`; `send` writes to that socket only. */
export type AuthenticatedHook = (userId: string, send: (event: RealtimeOutEvent, data?: unknown) => void) => void | Promise<void>;

export type RealtimeOptions = { heartbeatMs?: number; authTimeoutMs?: number; maxPerUser?: number };

/**
 * The websocket of spec §4/§7. Features publish through `toUser`/`endSession`; the broker carries
 * each message to every server process, and each delivers it to the sockets it holds.
 */
export class Realtime {
  private readonly byUser = new Map<string, Set<Client>>();
  private readonly clients = new Set<Client>();
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly heartbeatMs: number;
  private readonly authTimeoutMs: number;
  private readonly maxPerUser: number;
  private readonly listeners: ((userId: string, event: string, data: unknown) => void)[] = [];
  private readonly serverListeners = new Map<string, ((key: string) => void)[]>();
  private readonly relayListeners = new Map<string, ((data: unknown) => void)[]>();
  private readonly onAuth: AuthenticatedHook[] = [];
  private readonly clientListeners = new Map<string, ((userId: string, data: unknown) => void)[]>();

  constructor(
    private readonly broker: Broker,
    private readonly tokens: TokenService,
    opts: RealtimeOptions = {},
  ) {
    this.heartbeatMs = opts.heartbeatMs ?? SOCKET_HEARTBEAT_MS;
    this.authTimeoutMs = opts.authTimeoutMs ?? 30_000;
    this.maxPerUser = opts.maxPerUser ?? SOCKET_MAX_PER_USER;
  }

  async start() {
    await this.broker.subscribe((m) => this.deliver(m));
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  async stop() {
    clearInterval(this.heartbeat);
    for (const c of this.clients) c.socket.close(1001, 'server shutting down');
    await this.broker.close();
  }

  /** Server-side listeners of user events from any process (e.g. to drop a cache entry). */
  onUserEvent(fn: (userId: string, event: string, data: unknown) => void) {
    this.listeners.push(fn);
  }

  /** A note to every server process, this one included (e.g. "workspace X's patients changed"). */
  toServers(topic: string, key: string) {
    return this.broker.publish({ kind: 'server', topic, key });
  }

  onServerEvent(topic: string, fn: (key: string) => void) {
    this.serverListeners.set(topic, [...(this.serverListeners.get(topic) ?? []), fn]);
  }

  /**
   * A feature's message to its listeners on `channel` in every server process, this one included
   * (e.g. the video room relaying one peer's offer to the process holding the other peer's socket).
   */
  relay(channel: string, data: unknown) {
    return this.broker.publish({ kind: 'relay', channel, data });
  }

  onRelay(channel: string, fn: (data: unknown) => void) {
    this.relayListeners.set(channel, [...(this.relayListeners.get(channel) ?? []), fn]);
  }

  /**
   * Features that greet a socket once it is authenticated (e.g. the chat's unread counters): `send`
   * writes to that socket only. A failing hook is logged by its feature, never breaks the socket.
   */
  onAuthenticated(fn: AuthenticatedHook) {
    this.onAuth.push(fn);
  }

  /** A feature's handler of an event an authenticated socket sends (e.g. `chat-typing`), in the process holding it. */
  onClientEvent(event: string, fn: (userId: string, data: unknown) => void) {
    this.clientListeners.set(event, [...(this.clientListeners.get(event) ?? []), fn]);
  }

  toUser(userId: string, event: RealtimeOutEvent, data?: unknown) {
    return this.broker.publish({ kind: 'user', userId, event, data });
  }

  endSession(sessionId: string, code: DisconnectCode) {
    return this.broker.publish({ kind: 'session-ended', sessionId, code });
  }

  get connectionCount() {
    return this.clients.size;
  }

  register(app: FastifyInstance) {
    app.get(REALTIME_PATH, { websocket: true, config: { access: 'public' }, schema: { hide: true } }, (socket) =>
      this.accept(socket),
    );
  }

  private accept(socket: WebSocket) {
    const client: Client = { socket, lastSeen: Date.now() };
    this.clients.add(client);
    const authTimer = setTimeout(() => {
      if (!client.userId) this.disconnect(client, 'timeout');
    }, this.authTimeoutMs);
    socket.on('message', (raw) => {
      client.lastSeen = Date.now();
      let frame: RealtimeFrame;
      try {
        frame = JSON.parse(String(raw)) as RealtimeFrame;
      } catch {
        return;
      }
      if (frame.event === 'ping') send(socket, 'pong');
      else if (frame.event === 'authenticate') this.authenticate(client, frame.data);
      else if (client.userId) this.fromClient(client.userId, frame);
    });
    socket.on('close', () => {
      clearTimeout(authTimer);
      this.clients.delete(client);
      if (client.userId) {
        const set = this.byUser.get(client.userId);
        set?.delete(client);
        if (set?.size === 0) this.byUser.delete(client.userId);
      }
    });
    socket.on('error', () => socket.terminate());
  }

  private authenticate(client: Client, data: unknown) {
    const { token, realm } = (data ?? {}) as { token?: unknown; realm?: unknown };
    const claims = typeof token === 'string' && (realm === 'therapists' || realm === 'patients') ? this.tokens.verifyAccess(token, realm) : null;
    if (!claims) return this.disconnect(client, 'invalid_access_token');
    // A patient's sockets have their own key space: a patient account's id never reaches a member's events.
    const userId = claims.realm === 'patients' ? patientSocketKey(claims.sub) : claims.sub;
    const set = this.byUser.get(userId) ?? new Set<Client>();
    if (!set.has(client) && set.size >= this.maxPerUser) return this.disconnect(client, 'max_sessions_reached');
    client.userId = userId;
    client.sessionId = claims.sid;
    set.add(client);
    this.byUser.set(userId, set);
    send(client.socket, 'authenticated');
    for (const fn of this.onAuth) void (async () => fn(userId, (event, data) => send(client.socket, event, data)))().catch(() => undefined);
  }

  /** A feature's client event: its handler's failure is the feature's, never the socket's nor the process's. */
  private fromClient(userId: string, frame: RealtimeFrame) {
    for (const fn of this.clientListeners.get(frame.event) ?? []) {
      try {
        fn(userId, frame.data);
      } catch {
        // ignored: see above
      }
    }
  }

  private disconnect(client: Client, code: DisconnectCode) {
    send(client.socket, 'disconnect', { code });
    client.socket.close(4000, code);
  }

  private deliver(m: BrokerMessage) {
    if (m.kind === 'user') {
      for (const fn of this.listeners) fn(m.userId, m.event, m.data);
      for (const c of this.byUser.get(m.userId) ?? []) send(c.socket, m.event, m.data);
    } else if (m.kind === 'server') {
      for (const fn of this.serverListeners.get(m.topic) ?? []) fn(m.key);
    } else if (m.kind === 'session-ended') {
      for (const c of this.clients) if (c.sessionId === m.sessionId) this.disconnect(c, m.code as DisconnectCode);
    } else if (m.kind === 'relay') {
      for (const fn of this.relayListeners.get(m.channel) ?? []) fn(m.data);
    } // 'event': for the EventBus, which subscribes to the same broker.
  }

  /** Server heartbeat: a ping to every socket; one silent for two beats is gone. */
  private beat() {
    const deadline = Date.now() - 2 * this.heartbeatMs;
    for (const c of this.clients) {
      if (!c.userId) continue; // governed by the authentication timeout
      if (c.lastSeen < deadline) c.socket.terminate();
      else send(c.socket, 'ping');
    }
  }
}

function send(socket: WebSocket, event: string, data?: unknown) {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(data === undefined ? { event } : { event, data }));
}
