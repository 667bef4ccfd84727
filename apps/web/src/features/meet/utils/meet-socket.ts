import { MEET_SOCKET_PATH, type MeetClientFrame, type MeetServerFrame } from '@divan/core';

export type MeetSocketStatus = 'connecting' | 'open' | 'reconnecting' | 'stopped';

export type MeetSocketDeps = {
  /** A fresh ticket for each connection (the HTTP join checks again who may enter, and when). */
  getTicket: () => Promise<string>;
  clientId: string;
  onFrame: (frame: Exclude<MeetServerFrame, { event: 'ping' | 'pong' | 'refused' | 'error' }>) => void;
  onStatus: (status: MeetSocketStatus) => void;
  /** The server or the HTTP join said no (room full, link expired…): the socket stops; `message` is Spanish. */
  onRefused: (code: string, message: string) => void;
  /** Whether a failed ticket request is final (an answer from the server) or worth retrying (the network). */
  isFinal: (error: unknown) => { code: string; message: string } | null;
  url?: string;
};

/** The server pings every 15 s: this long without a word from it and the link is taken for dead. */
const DEAD_AFTER_MS = 40_000;
const RETRY_MS = [500, 1000, 2000, 4000];

export const meetSocketUrl = (l: Pick<Location, 'protocol' | 'host'> = window.location) =>
  `${l.protocol === 'https:' ? 'wss' : 'ws'}://${l.host}${MEET_SOCKET_PATH}`;

/**
 * The room's websocket: joins with a ticket, answers the heartbeat, and comes back by itself after a
 * network drop (at once when the browser says it is online again), as the same participant.
 */
export class MeetSocket {
  private socket: WebSocket | null = null;
  private stopped = true;
  private attempt = 0;
  private everOpen = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private deadTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly online = () => this.reconnectNow();

  constructor(private readonly deps: MeetSocketDeps) {}

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    window.addEventListener('online', this.online);
    void this.connect();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener('online', this.online);
    clearTimeout(this.retryTimer);
    clearTimeout(this.deadTimer);
    const socket = this.socket;
    this.socket = null;
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ event: 'leave' }));
    socket?.close(1000);
    this.deps.onStatus('stopped');
  }

  send(frame: MeetClientFrame) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  /** Drops the current socket and connects again (the network came back, or the link went silent). */
  reconnectNow() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    const socket = this.socket;
    this.socket = null;
    socket?.close(4002);
    this.attempt = 0;
    void this.connect();
  }

  private async connect() {
    if (this.stopped) return;
    this.deps.onStatus(this.attempt === 0 && !this.everOpen ? 'connecting' : 'reconnecting');
    let ticket: string;
    try {
      ticket = await this.deps.getTicket();
    } catch (error) {
      const final = this.deps.isFinal(error);
      if (final) return this.refused(final.code, final.message);
      return this.retry();
    }
    if (this.stopped) return;
    const socket = new WebSocket(this.deps.url ?? meetSocketUrl());
    this.socket = socket;
    socket.onopen = () => {
      this.armDead(socket);
      socket.send(JSON.stringify({ event: 'join', data: { ticket, clientId: this.deps.clientId } }));
    };
    socket.onmessage = (message) => {
      if (socket !== this.socket) return;
      this.armDead(socket);
      let frame: MeetServerFrame;
      try {
        frame = JSON.parse(String(message.data)) as MeetServerFrame;
      } catch {
        return;
      }
      if (frame.event === 'ping') return socket.send(JSON.stringify({ event: 'pong' }));
      // `error`: a frame of ours the server refused; the socket stays open and the room carries on.
      if (frame.event === 'pong' || frame.event === 'error') return;
      if (frame.event === 'refused') return this.refused(frame.data.code, frame.data.message);
      if (frame.event === 'room') {
        this.attempt = 0;
        this.everOpen = true;
        this.deps.onStatus('open');
      }
      this.deps.onFrame(frame);
    };
    socket.onclose = () => {
      if (socket !== this.socket) return;
      this.socket = null;
      clearTimeout(this.deadTimer);
      this.retry();
    };
  }
  private retry() {
    if (this.stopped) return;
    this.deps.onStatus('reconnecting');
    const delay = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)]!;
    this.attempt += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  private refused(code: string, message: string) {
    this.stop();
    this.deps.onRefused(code, message);
  }

  private armDead(socket: WebSocket) {
    clearTimeout(this.deadTimer);
    this.deadTimer = setTimeout(() => {
      if (socket === this.socket) this.reconnectNow();
    }, DEAD_AFTER_MS);
  }
}
