import type { SocketRefusal } from '../realtime';
import { toLocal } from '../time/zoned';
import type { MeetSignal } from './meet-frames';

/**
 * The video room of an online session (`/meet/:sessionId`): the therapist and the patient, peer to
 * peer, signalled over a websocket of their own (the patient has no account for the app's socket).
 */
export const MEET_SOCKET_PATH = '/api/v1/meet/socket';
/** The patient's link opens the room this long before the session starts… */
export const MEET_OPENS_BEFORE_MIN = 30;
/** …and keeps it open this long after it ends. */
export const MEET_CLOSES_AFTER_MIN = 120;
/** A room ticket (what the websocket accepts) is good this long: the page asks for one per connection. */
export const MEET_TICKET_TTL_S = 120;

export type MeetWindow = 'early' | 'open' | 'over';

/** Where `now` falls around the session's time: before the room opens, while it is open, after it closes. */
export function meetWindow(session: { startsAt: Date; endsAt: Date }, now: Date = new Date()): MeetWindow {
  if (now.getTime() < session.startsAt.getTime() - MEET_OPENS_BEFORE_MIN * 60_000) return 'early';
  if (now.getTime() > session.endsAt.getTime() + MEET_CLOSES_AFTER_MIN * 60_000) return 'over';
  return 'open';
}

const ddmmyyyy = (day: string) => day.split('-').reverse().join('/');

export const meetMessages = {
  early: (startsAt: Date, timeZone: string) => {
    const { day, time } = toLocal(startsAt, timeZone);
    return `La sala se abre ${MEET_OPENS_BEFORE_MIN} minutos antes de la sesión, que empieza el ${ddmmyyyy(day)} a las ${time}. Vuelve a abrir este enlace entonces.`;
  },
  over: () => 'Esta sesión ya ha terminado y su enlace ha caducado. Si necesitas otra, escribe a tu terapeuta.',
  canceled: () => 'Esta sesión se ha cancelado.',
  notOwn: () => 'Esta sesión no tiene videollamada de Diván.',
  invalidLink: () => 'El enlace de la videollamada no es válido. Ábrelo desde el último email de la sesión.',
  roomFull: () => 'La sala ya está completa: en esta videollamada solo pueden estar dos personas.',
  ticketExpired: () => 'Tu acceso a la sala ha caducado. Vuelve a entrar.',
} as const;

/** A STUN or TURN server as RTCPeerConnection takes it (ICE_SERVERS holds a JSON list of these). */
export type IceServer = { urls: string | string[]; username?: string; credential?: string };

export type MeetRole = 'therapist' | 'patient';

// What the page sends (MeetClientFrame, MeetSignal) is a Zod contract: meet-frames.ts.

/** The room as one participant sees it; sent on every change. */
export type MeetRoomState = { role: MeetRole; admitted: boolean; peer: { role: MeetRole; admitted: boolean } | null };

export type MeetServerFrame =
  | { event: 'room'; data: MeetRoomState }
  /** To the therapist: the admitted patient is (again) in the room, make an offer (an ICE restart if a call exists). */
  | { event: 'peer-ready' }
  | { event: 'signal'; data: MeetSignal }
  /** The socket is refused or ended; `message` is Spanish, for the page to show. */
  | { event: 'refused'; data: { code: string; message: string } }
  /** A frame of the page's the server refused (see SocketRefusal); the socket stays open. */
  | { event: 'error'; data: SocketRefusal }
  | { event: 'ping' }
  | { event: 'pong' };
