import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { MEET_TICKET_TTL_S, type MeetRole } from '@divan/core';

/** Who a ticket lets into which room: the socket trusts it as it is, the HTTP join checked it all. */
export type MeetTicket = { sessionId: string; role: MeetRole; expiresAt: number };

const UUIDISH = /^[\w-]{1,64}$/;

/**
 * The two secrets of the video room, keyed from APP_SECRET for this use only:
 * - the patient's link token: an HMAC of the session id, the same for the session's whole life (a
 *   moved session keeps its link; the time window is checked against the session when used);
 * - a room ticket: what the websocket accepts, signed and short-lived, given by the HTTP join after it
 *   checked the member's permission or the patient's token and the session's time.
 */
export function meetTokens(appSecret: string) {
  const key = (info: string) => Buffer.from(hkdfSync('sha256', appSecret, 'divan', info, 32));
  const linkKey = key('meet-link');
  const ticketKey = key('meet-ticket');
  const mac = (k: Buffer, value: string) => createHmac('sha256', k).update(value).digest('base64url');
  const same = (a: string, b: string) => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  };

  return {
    /** 256 bits, base64url: unguessable, and one per session. */
    patientToken: (sessionId: string) => mac(linkKey, `meet-link:v1:${sessionId}`),
    isPatientToken(sessionId: string, token: unknown): boolean {
      return typeof token === 'string' && UUIDISH.test(sessionId) && same(token, mac(linkKey, `meet-link:v1:${sessionId}`));
    },
    signTicket(t: Omit<MeetTicket, 'expiresAt'>, now = Date.now()): string {
      const body = Buffer.from(JSON.stringify({ ...t, expiresAt: now + MEET_TICKET_TTL_S * 1000 })).toString('base64url');
      return `${body}.${mac(ticketKey, body)}`;
    },
    /** The ticket's claims, or null when forged, altered or expired. */
    verifyTicket(ticket: unknown, now = Date.now()): MeetTicket | null {
      if (typeof ticket !== 'string' || ticket.length > 2048) return null;
      const [body, sig, extra] = ticket.split('.');
      if (!body || !sig || extra !== undefined || !same(sig, mac(ticketKey, body))) return null;
      try {
        const t = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as MeetTicket;
        if (typeof t.sessionId !== 'string' || (t.role !== 'therapist' && t.role !== 'patient') || typeof t.expiresAt !== 'number')
          return null;
        return t.expiresAt >= now ? t : null;
      } catch {
        return null;
      }
    },
  };
}
export type MeetTokens = ReturnType<typeof meetTokens>;
