import type { FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import {
  REALTIME_FRAME_MAX_BYTES,
  REALTIME_PATH,
  SOCKET_HEARTBEAT_MS,
  SOCKET_MAX_PER_USER,
  realtimeClientFrames,
  type DisconnectCode,
  type RealtimeClientFrame,
  type RealtimeOutEvent,
  type SocketRefusal,
} from '@divan/core';
import type { TokenService } from '../auth/tokens';
import { guard, type BoundaryLog } from '../boundary';
import type { Broker, BrokerMessage } from './broker';
import { InvalidFrames, readFrame, refuseFrame, sendFrame as send } from './socket-frames';

type Client = { socket: WebSocket; userId?: string; sessionId?: string; lastSeen: number; invalid: InvalidFrames; ended?: boolean };

/** The frames a feature handles (the rest are the socket's own: authenticate, ping, pong). */
type ClientEventFrame = Exclude<RealtimeClientFrame, { event: 'authenticate' | 'ping' | 'pong' }>;
export type ClientEventName = ClientEventFrame['event'];
export type ClientEventData<E extends ClientEventName> = Extract<ClientEventFrame, { event: E }>['data'];
type ClientListener = (userId: string, data: never) => unknown;

/**
 * The key of a patient account's sockets (realm `patients`): what `toUser` takes to reach them, and
 * the `userId` hooks and client events see for them.
 */
export const patientSocketKey = (patientAccountId: string) => `patient:${patientAccountId}`;
export const isPatientSocketKey = (key: string) => key.startsWith('patient:');

/** Greets a socket just authenticated as `userId`; `send` writes to that socket only. */
export type AuthenticatedHook = (userId: string, send: (event: RealtimeOutEvent, data?: unknown) => void) => void | Promise<void>;

export type RealtimeOptions = { heartbeatMs?: number; authTimeoutMs?: number; maxPerUser?: number; invalidFrameLimit?: number };

/**
 * The websocket of spec §4/§7. Features publish through `toUser`/`endSession`; the broker carries
 * each message to every server process, and each delivers it to the sockets it holds. Every frame a
 * client sends is checked against core's contract (realtime-frames.ts) before anything acts on it; a
 * bad one gets a refusal and the socket stays open. No handler's failure (the frame's, a feature's
 * client event, a greeting, a broker listener) leaves this class: each is logged (platform/boundary).
 */
export class Realtime {
  private readonly byUser = new Map<string, Set<Client>>();
  private readonly clients = new Set<Client>();
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly heartbeatMs: number;
  private readonly authTimeoutMs: number;
  private readonly maxPerUser: number;
  private readonly invalidFrameLimit: number | undefined;
  private readonly listeners: ((userId: string, event: string, data: unknown) => void)[] = [];
  private readonly serverListeners = new Map<string, ((key: string) => void)[]>();
  private readonly relayListeners = new Map<string, ((data: unknown) => void)[]>();
  private readonly onAuth: AuthenticatedHook[] = [];
  private readonly clientListeners = new Map<string, ClientListener[]>();

  constructor(
    private readonly broker: Broker,
    private readonly tokens: TokenService,
    private readonly log: BoundaryLog,
    opts: RealtimeOptions = {},
  ) {
    this.heartbeatMs = opts.heartbeatMs ?? SOCKET_HEARTBEAT_MS;
    this.authTimeoutMs = opts.authTimeoutMs ?? 30_000;
    this.maxPerUser = opts.maxPerUser ?? SOCKET_MAX_PER_USER;
    this.invalidFrameLimit = opts.invalidFrameLimit;
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
   * writes to that socket only. A failing hook is logged, never breaks the socket.
   */
  onAuthenticated(fn: AuthenticatedHook) {
    this.onAuth.push(fn);
  }

  /**
   * A feature's handler of an event an authenticated socket sends (e.g. `chat-typing`), in the process
   * holding it; `data` has passed the event's schema. Its throw or rejection is logged, never the socket's.
   */
  onClientEvent<E extends ClientEventName>(event: E, fn: (userId: string, data: ClientEventData<E>) => unknown) {
    this.clientListeners.set(event, [...(this.clientListeners.get(event) ?? []), fn as ClientListener]);
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
    app.get(REALTIME_PATH, { websocket: true, config: { access: 'public' }, schema: { hide: true } }, (socket) => this.accept(socket));
  }

  private accept(socket: WebSocket) {
    const client: Client = { socket, lastSeen: Date.now(), invalid: new InvalidFrames(this.invalidFrameLimit) };
    this.clients.add(client);
    const authTimer = setTimeout(() => {
      if (!client.userId) this.disconnect(client, 'timeout');
    }, this.authTimeoutMs);
    socket.on('message', (raw, isBinary) =>
      guard(this.log, 'realtime: frame handler', () => {
        try {
          this.onFrame(client, raw, isBinary);
        } catch (err) {
          refuseFrame(socket, 'internal_server_error');
          throw err;
        }
      }),
    );
    socket.on('close', () => {
      clearTimeout(authTimer);
      this.clients.delete(client);
      this.forget(client);
    });
    socket.on('error', () => socket.terminate());
  }

  /** One frame: refused unless it is in the contract; the socket's own events here, a feature's to its handlers. */
  private onFrame(client: Client, raw: RawData, isBinary: boolean) {
    if (client.ended) return;
    client.lastSeen = Date.now();
    const read = readFrame(realtimeClientFrames, raw, isBinary, REALTIME_FRAME_MAX_BYTES);
    if (!read.ok) return this.refuse(client, read.code);
    const frame = read.frame;
    if (frame.event === 'ping') send(client.socket, 'pong');
    else if (frame.event === 'pong') return;
    else if (frame.event === 'authenticate') this.authenticate(client, frame.data);
    else if (!client.userId) this.refuse(client, 'socket_not_authenticated');
    else this.fromClient(client.userId, frame);
  }

  /** A frame refused; a socket sending more than its share of them is closed instead. */
  private refuse(client: Client, code: SocketRefusal['code']) {
    if (client.invalid.add()) this.disconnect(client, 'socket_too_many_invalid_frames');
    else refuseFrame(client.socket, code);
  }

  private authenticate(client: Client, { token, realm }: { token: string; realm: 'therapists' | 'patients' }) {
    const claims = this.tokens.verifyAccess(token, realm);
    // A user who must still enrol a second factor (issue 32) hears nothing either.
    if (!claims || claims.enrol) return this.disconnect(client, 'invalid_access_token');
    // A patient's sockets have their own key space: a patient account's id never reaches a member's events.
    const userId = claims.realm === 'patients' ? patientSocketKey(claims.sub) : claims.sub;
    // Authenticated again as someone else: the socket no longer hears the first one's events.
    if (client.userId && client.userId !== userId) this.forget(client);
    const set = this.byUser.get(userId) ?? new Set<Client>();
    if (!set.has(client) && set.size >= this.maxPerUser) return this.disconnect(client, 'max_sessions_reached');
    client.userId = userId;
    client.sessionId = claims.sid;
    set.add(client);
    this.byUser.set(userId, set);
    send(client.socket, 'authenticated');
    for (const fn of this.onAuth)
      guard(this.log, 'realtime: greeting of an authenticated socket', () => fn(userId, (event, data) => send(client.socket, event, data)));
  }

  private forget(client: Client) {
    if (!client.userId) return;
    const set = this.byUser.get(client.userId);
    set?.delete(client);
    if (set?.size === 0) this.byUser.delete(client.userId);
  }

  /** A feature's client event: its handler's failure is the feature's, never the socket's nor the process's. */
  private fromClient(userId: string, frame: ClientEventFrame) {
    for (const fn of this.clientListeners.get(frame.event) ?? [])
      guard(this.log, `realtime: handler of client event ${frame.event}`, () => fn(userId, frame.data as never));
  }

  private disconnect(client: Client, code: DisconnectCode) {
    client.ended = true;
    send(client.socket, 'disconnect', { code });
    client.socket.close(4000, code);
  }

  /** A message from the broker: each listener and socket on its own, so one failing leaves the others theirs. */
  private deliver(m: BrokerMessage) {
    if (m.kind === 'user') {
      for (const fn of this.listeners) guard(this.log, 'realtime: listener of user events', () => fn(m.userId, m.event, m.data));
      for (const c of this.byUser.get(m.userId) ?? [])
        guard(this.log, `realtime: delivery of ${m.event}`, () => send(c.socket, m.event, m.data));
    } else if (m.kind === 'server') {
      for (const fn of this.serverListeners.get(m.topic) ?? [])
        guard(this.log, `realtime: listener of server topic ${m.topic}`, () => fn(m.key));
    } else if (m.kind === 'session-ended') {
      for (const c of this.clients) if (c.sessionId === m.sessionId) this.disconnect(c, m.code as DisconnectCode);
    } else if (m.kind === 'relay') {
      for (const fn of this.relayListeners.get(m.channel) ?? [])
        guard(this.log, `realtime: listener of relay channel ${m.channel}`, () => fn(m.data));
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
