import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import {
  MEET_FRAME_MAX_BYTES,
  MEET_SOCKET_PATH,
  errorMessage,
  meetClientFrames,
  type ErrorCode,
  type MeetRole,
  type MeetSignal,
  type SocketRefusal,
} from '@divan/core';
import { guard } from '../../platform/boundary';
import type { Realtime } from '../../platform/realtime/realtime';
import { InvalidFrames, readFrame, refuseFrame, sendFrame as send } from '../../platform/realtime/socket-frames';
import { MeetRoom, laterOf, type Presence } from './meet-rooms';
import type { MeetTokens } from './meet-tokens';

type Conn = Presence & { socket: WebSocket; sessionId: string; lastSeen: number; left?: boolean; readyFor?: string };
/** One socket: its participant once joined, and its invalid frames. */
type Peer = { socket: WebSocket; conn?: Conn; invalid: InvalidFrames; ended?: boolean };

/** What the processes tell each other about a room (through the broker, to every process). */
type Wire =
  | { t: 'presence'; room: string; from: string; p: Presence; reply?: boolean }
  | { t: 'gone'; room: string; from: string; role: MeetRole; nonce: string }
  | { t: 'admit'; room: string; clientId: string }
  | { t: 'signal'; room: string; to: MeetRole; data: MeetSignal };

const CHANNEL = 'meet';
const other = (role: MeetRole): MeetRole => (role === 'therapist' ? 'patient' : 'therapist');

export type MeetHubOptions = { heartbeatMs?: number; joinTimeoutMs?: number; invalidFrameLimit?: number };

/**
 * The video room's websocket (MEET_SOCKET_PATH): the patient has no account for the app's socket, so
 * the room has its own, entered with a ticket from the HTTP join. Two participants per room, the
 * therapist and the patient; the patient waits until admitted; then the pages exchange their offer,
 * answer and ICE candidates through here. Each process holds some sockets; what one process must know
 * of the others' (who is in the room, admissions, signals) crosses through Realtime's broker. Every
 * frame is checked against core's contract (meet-frames.ts) first: a bad one gets a refusal
 * (`error`, the socket stays), a flood of them ends the socket; a handler's failure is logged, never thrown.
 */
export class MeetHub {
  private readonly rooms = new Map<string, MeetRoom<Conn>>();
  private readonly id = randomUUID();
  private readonly heartbeatMs: number;
  private readonly joinTimeoutMs: number;
  private readonly invalidFrameLimit: number | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly realtime: Realtime,
    private readonly tokens: MeetTokens,
    private readonly log: FastifyBaseLogger,
    opts: MeetHubOptions = {},
  ) {
    this.heartbeatMs = opts.heartbeatMs ?? 15_000;
    this.joinTimeoutMs = opts.joinTimeoutMs ?? 10_000;
    this.invalidFrameLimit = opts.invalidFrameLimit;
  }

  start() {
    this.realtime.onRelay(CHANNEL, (data) => this.onWire(data as Wire));
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  /** The other processes hear that this one's participants left (before the broker closes); their pages reconnect elsewhere. */
  stop() {
    clearInterval(this.heartbeat);
    for (const room of [...this.rooms.values()])
      for (const c of [...room.local.values()]) {
        this.leave(c);
        c.socket.close(1001, 'server shutting down');
      }
  }

  register(app: FastifyInstance) {
    app.get(MEET_SOCKET_PATH, { websocket: true, config: { access: 'public' }, schema: { hide: true } }, (socket) => this.accept(socket));
  }

  /** Participants this process holds (tests). */
  get connectionCount() {
    let n = 0;
    for (const room of this.rooms.values()) n += room.local.size;
    return n;
  }

  private accept(socket: WebSocket) {
    const peer: Peer = { socket, invalid: new InvalidFrames(this.invalidFrameLimit) };
    const timer = setTimeout(() => peer.conn || refuse(socket, 'meet_ticket_invalid'), this.joinTimeoutMs);
    socket.on('message', (raw, isBinary) =>
      guard(this.log, 'meet: frame handler', () => {
        try {
          this.onFrame(peer, raw, isBinary);
        } catch (err) {
          refuseFrame(socket, 'internal_server_error');
          throw err;
        }
      }),
    );
    socket.on('close', () => {
      clearTimeout(timer);
      if (peer.conn) guard(this.log, 'meet: leave on close', () => this.leave(peer.conn!));
    });
    socket.on('error', () => socket.terminate());
  }

  /** One frame: refused unless it is in the contract; a participant's frames need it joined. */
  private onFrame(peer: Peer, raw: RawData, isBinary: boolean) {
    if (peer.ended) return;
    const { socket, conn } = peer;
    if (conn) conn.lastSeen = Date.now();
    const read = readFrame(meetClientFrames, raw, isBinary, MEET_FRAME_MAX_BYTES);
    if (!read.ok) return this.refuseFrame(peer, read.code);
    const frame = read.frame;
    if (frame.event === 'ping') send(socket, 'pong');
    else if (frame.event === 'pong') return;
    else if (frame.event === 'join')
      peer.conn ??= this.join(socket, frame.data); // joined already: nothing to do
    else if (!conn) this.refuseFrame(peer, 'socket_not_authenticated');
    else if (frame.event === 'admit') {
      if (conn.role === 'therapist') this.admit(conn);
    } else if (frame.event === 'signal') this.signal(conn, frame.data);
    else {
      this.leave(conn);
      socket.close(1000, 'left');
    }
  }

  /** A frame refused; a socket sending more than its share of them is ended instead (the page hears why). */
  private refuseFrame(peer: Peer, code: SocketRefusal['code']) {
    if (!peer.invalid.add()) return refuseFrame(peer.socket, code);
    peer.ended = true;
    if (peer.conn) this.leave(peer.conn); // at once, not when the close completes: its page may come back right away
    refuse(peer.socket, 'socket_too_many_invalid_frames');
  }

  private join(socket: WebSocket, { ticket, clientId }: { ticket: string; clientId: string }): Conn | undefined {
    const t = this.tokens.verifyTicket(ticket);
    if (!t) return void refuse(socket, 'meet_ticket_invalid');
    const room = this.rooms.get(t.sessionId) ?? new MeetRoom<Conn>(t.sessionId, 3 * this.heartbeatMs);
    if (!room.canTake(t.role, clientId)) return void refuse(socket, 'meet_room_full');
    this.rooms.set(room.id, room);
    // The same page again (it reconnected before its old socket was seen gone): the new socket takes over.
    const old = room.local.get(t.role);
    if (old) this.drop(old);
    const conn: Conn = {
      socket,
      sessionId: t.sessionId,
      role: t.role,
      clientId,
      nonce: randomUUID(),
      joinedAt: Date.now(),
      admitted: t.role === 'therapist' || room.admittedClients.has(clientId),
      lastSeen: Date.now(),
    };
    room.local.set(t.role, conn);
    this.announce(conn);
    this.refresh(room);
    return conn;
  }

  private admit(conn: Conn) {
    const room = this.rooms.get(conn.sessionId);
    const patient = room?.holder('patient');
    if (room && patient) this.publish({ t: 'admit', room: room.id, clientId: patient.clientId });
  }

  private signal(conn: Conn, data: MeetSignal) {
    if (!conn.admitted) return;
    this.publish({ t: 'signal', room: conn.sessionId, to: other(conn.role), data });
  }

  private leave(conn: Conn) {
    if (conn.left) return;
    conn.left = true;
    const room = this.rooms.get(conn.sessionId);
    if (!room || room.local.get(conn.role) !== conn) return;
    room.local.delete(conn.role);
    this.publish({ t: 'gone', room: room.id, from: this.id, role: conn.role, nonce: conn.nonce });
    if (room.empty) this.rooms.delete(room.id);
    else this.refresh(room);
  }

  /** A socket replaced by a newer one of the same page: closed without telling anyone it left. */
  private drop(conn: Conn) {
    conn.left = true;
    const room = this.rooms.get(conn.sessionId);
    room?.local.delete(conn.role);
    if (room?.empty) this.rooms.delete(room.id);
    conn.socket.close(4001, 'replaced');
  }

  private onWire(w: Wire) {
    const room = this.rooms.get(w.room);
    if (!room) return; // Nobody of this room here: nothing to deliver, nothing to remember.
    if (w.t === 'presence') {
      if (w.from === this.id) return;
      const mine = room.local.get(w.p.role);
      if (mine && mine.nonce !== w.p.nonce) {
        if (mine.clientId === w.p.clientId) {
          if (w.p.joinedAt < mine.joinedAt) return; // an older socket of the same page: it is the one going
          this.drop(mine);
        } else if (laterOf(mine, w.p) === mine) {
          this.leave(mine);
          refuse(mine.socket, 'meet_room_full');
        } else return; // the other process refuses its own
      }
      room.seen(w.p);
      if (!w.reply) for (const c of room.local.values()) this.announce(c, true);
      if (w.p.role === 'patient' && !w.p.admitted && room.admittedClients.has(w.p.clientId))
        this.publish({ t: 'admit', room: room.id, clientId: w.p.clientId });
    } else if (w.t === 'gone') {
      if (w.from === this.id) return;
      room.forget(w.role, w.nonce);
    } else if (w.t === 'admit') {
      room.admittedClients.add(w.clientId);
      const patient = room.local.get('patient');
      if (patient && patient.clientId === w.clientId && !patient.admitted) {
        patient.admitted = true;
        this.announce(patient);
      }
    } else if (w.t === 'signal') {
      const target = room.local.get(w.to);
      if (target?.admitted) send(target.socket, 'signal', w.data);
      return;
    }
    if (room.local.size) this.refresh(room);
  }

  /** Each local participant hears the room as it is now; the therapist is told when to call an admitted patient. */
  private refresh(room: MeetRoom<Conn>) {
    for (const c of room.local.values()) send(c.socket, 'room', room.stateFor(c.role));
    const therapist = room.local.get('therapist');
    const patient = room.holder('patient');
    if (therapist && patient?.admitted && therapist.readyFor !== patient.nonce) {
      therapist.readyFor = patient.nonce;
      send(therapist.socket, 'peer-ready');
    }
  }

  private announce(c: Conn, reply = false) {
    const p: Presence = { role: c.role, clientId: c.clientId, nonce: c.nonce, joinedAt: c.joinedAt, admitted: c.admitted };
    this.publish({ t: 'presence', room: c.sessionId, from: this.id, p, reply });
  }

  private publish(w: Wire) {
    this.realtime.relay(CHANNEL, w).catch((err: unknown) => this.log.warn({ err }, 'meet: relay failed'));
  }

  /** A ping to every socket; one silent for two beats is gone. Others hear again who is here (a crashed process's participants fade out). */
  private beat() {
    const deadline = Date.now() - 2 * this.heartbeatMs;
    for (const room of this.rooms.values())
      for (const c of room.local.values()) {
        if (c.lastSeen < deadline) {
          c.socket.terminate();
          this.leave(c);
        } else {
          send(c.socket, 'ping');
          this.announce(c, true);
        }
      }
  }
}

function refuse(socket: WebSocket, code: ErrorCode) {
  send(socket, 'refused', { code, message: errorMessage(code) });
  socket.close(4000, code);
}
