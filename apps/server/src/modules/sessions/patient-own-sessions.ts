import { and, asc, count, desc, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { locations, sessions, type SessionRow } from './sessions.tables';

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

const columns = {
  id: sessions.id,
  workspaceId: sessions.workspaceId,
  patientId: sessions.patientId,
  therapistId: sessions.therapistId,
  startsAt: sessions.startsAt,
  endsAt: sessions.endsAt,
  timeZone: sessions.timeZone,
  status: sessions.status,
  modality: sessions.modality,
  videoConference: sessions.videoConference,
  publicServiceId: sessions.publicServiceId,
  name: locations.name,
  address: locations.address,
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
    const where = and(
      eq(sessions.workspaceId, workspaceId),
      eq(sessions.patientId, patientId),
      when === 'upcoming' ? gt(sessions.endsAt, now) : lte(sessions.endsAt, now),
    );
    const order = when === 'upcoming' ? [asc(sessions.startsAt), asc(sessions.id)] : [desc(sessions.startsAt), desc(sessions.id)];
    const rows = await this.db
      .select(columns)
      .from(sessions)
      .leftJoin(locations, eq(locations.id, sessions.locationId))
      .where(where)
      .orderBy(...order)
      .limit(pageSize)
      .offset((page - 1) * pageSize);
    const [total] = await this.db.select({ n: count() }).from(sessions).where(where);
    return { items: rows.map((r) => present(r)), total: total?.n ?? 0 };
  }

  /** One session of the patient's file, or undefined. */
  async find(workspaceId: string, patientId: string, sessionId: string): Promise<OwnSession | undefined> {
    const [row] = await this.db
      .select(columns)
      .from(sessions)
      .leftJoin(locations, eq(locations.id, sessions.locationId))
      .where(and(eq(sessions.workspaceId, workspaceId), eq(sessions.patientId, patientId), eq(sessions.id, sessionId)));
    return row ? present(row) : undefined;
  }
}
