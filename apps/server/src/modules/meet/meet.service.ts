import { meetMessages, meetWindow, type IceServer, type MeetJoin } from '@divan/core';
import { AppError } from '../../platform/errors';
import type { Caller } from '../../platform/auth/caller';
import type { LinkedSession } from '../sessions/session-by-link';
import type { SessionsService } from '../sessions/sessions.service';
import type { UsersService } from '../users/users.service';
import { meetTokens, type MeetTokens } from './meet-tokens';

export type MeetServiceOptions = {
  appSecret: string;
  /** PUBLIC_URL, no trailing slash. */
  publicUrl: string;
  /** ICE_SERVERS; none: host candidates only (enough on one network, not across the internet: see README). */
  iceServers?: IceServer[];
  sessions: SessionsService;
  users: UsersService;
  /** The session of a patient's link (sessions/session-by-link), asked only once the token is proved. */
  sessionByLink: (sessionId: string) => Promise<LinkedSession | undefined>;
};

/**
 * The video room of an online session: who may enter, and the patient's link. The room itself (the
 * websocket that relays the two peers' signalling) is MeetHub; it trusts the tickets given here.
 */
export class MeetService {
  readonly tokens: MeetTokens;
  private readonly iceServers: IceServer[];

  constructor(private readonly opts: MeetServiceOptions) {
    this.tokens = meetTokens(opts.appSecret);
    this.iceServers = opts.iceServers ?? [];
  }

  /** The absolute link the patient opens without an account (reminders put it in their emails). */
  patientLink(session: { id: string }): string {
    return `${this.opts.publicUrl}/meet/${session.id}?t=${this.tokens.patientToken(session.id)}`;
  }

  /** A member who may read the session enters as its therapist, at any time (to try the camera before). */
  async joinAsTherapist(c: Caller, sessionId: string): Promise<MeetJoin> {
    const s = await this.opts.sessions.get(c, sessionId);
    assertUsable(s);
    return {
      ticket: this.tokens.signTicket({ sessionId: s.id, role: 'therapist' }),
      role: 'therapist',
      iceServers: this.iceServers,
      session: {
        id: s.id,
        startsAt: s.startsAt,
        endsAt: s.endsAt,
        timeZone: s.timeZone,
        therapistName: s.therapist.name,
        patientName: s.patient.name,
      },
      patientLink: this.patientLink({ id: s.id }),
    };
  }

  /** The patient enters with the link's token, from 30 minutes before the session to 2 hours after it. */
  async joinAsPatient(sessionId: string, token: string, now = new Date()): Promise<MeetJoin> {
    if (!this.tokens.isPatientToken(sessionId, token)) throw new AppError('meet_link_invalid');
    const s = await this.opts.sessionByLink(sessionId);
    if (!s) throw new AppError('meet_link_invalid');
    assertUsable(s);
    const window = meetWindow(s, now);
    if (window === 'early') throw new AppError('meet_not_open', undefined, meetMessages.early(s.startsAt, s.timeZone));
    if (window === 'over') throw new AppError('meet_closed');
    const [therapist] = await this.opts.users.findManyByIds([s.therapistId]);
    return {
      ticket: this.tokens.signTicket({ sessionId: s.id, role: 'patient' }),
      role: 'patient',
      iceServers: this.iceServers,
      session: {
        id: s.id,
        startsAt: s.startsAt.toISOString(),
        endsAt: s.endsAt.toISOString(),
        timeZone: s.timeZone,
        therapistName: therapist ? [therapist.firstName, therapist.lastName].filter(Boolean).join(' ') : 'Tu terapeuta',
      },
    };
  }
}

function assertUsable(s: { status: string; videoConference: string | null }) {
  if (s.status === 'canceled') throw new AppError('meet_session_canceled');
  if (s.videoConference !== 'own') throw new AppError('meet_not_available');
}
