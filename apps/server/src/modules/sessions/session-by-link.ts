import type { DbOrTx } from '../../platform/db/database';
import { sessionsRepository } from './sessions.repository';

/** What a link that proves itself (the video room's patient token) may learn of its session: times and state, no clinical field. */
export type LinkedSession = {
  id: string;
  workspaceId: string;
  therapistId: string;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  status: 'pending' | 'completed' | 'canceled';
  videoConference: 'own' | 'google_meet' | null;
};

/**
 * A session by its id alone, for a caller that has no member to scope the read by and proved its
 * right to this one session otherwise (modules/meet checks the patient's link token before asking).
 */
export async function sessionByLink(db: DbOrTx, sessionId: string): Promise<LinkedSession | undefined> {
  return sessionsRepository(db).byId(sessionId);
}
