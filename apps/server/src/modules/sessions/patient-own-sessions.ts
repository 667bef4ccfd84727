import type { Db } from '../../platform/db/database';
import { patientSessionsRepository } from './patient-sessions.repository';
import type { SessionRow } from './sessions.tables';

/** A session as its patient may read it (the companion): no price, no payment, no note. */
export type OwnSession = Pick<
  SessionRow,
  | 'id'
  | 'workspaceId'
  | 'patientId'
  | 'therapistId'
  | 'startsAt'
  | 'endsAt'
  | 'timeZone'
  | 'status'
  | 'modality'
  | 'videoConference'
  | 'publicServiceId'
> & {
  location: { name: string; address: string | null } | null;
};

type Selected = Omit<OwnSession, 'location'> & { name: string | null; address: string | null };
const present = ({ name, address, ...s }: Selected): OwnSession => ({ ...s, location: name ? { name, address } : null });

/**
 * The patient's own sessions, read for their account (issue 15): the caller is the patient, whose right
 * to the file the companion proved (a connected, live file); every read is bounded by workspace and file.
 */
export class PatientOwnSessions {
  constructor(private readonly db: Db) {}

  /** `upcoming`: not ended at `now`, soonest first; `past`: ended, latest first. */
  async page(
    workspaceId: string,
    patientId: string,
    when: 'upcoming' | 'past',
    page: number,
    pageSize: number,
    now: Date,
  ): Promise<{ items: OwnSession[]; total: number }> {
    const { rows, total } = await patientSessionsRepository(this.db).ownPage(workspaceId, patientId, when, page, pageSize, now);
    return { items: rows.map((r) => present(r)), total };
  }

  /** One session of the patient's file, or undefined. */
  async find(workspaceId: string, patientId: string, sessionId: string): Promise<OwnSession | undefined> {
    const row = await patientSessionsRepository(this.db).ownOne(workspaceId, patientId, sessionId);
    return row ? present(row) : undefined;
  }
}
