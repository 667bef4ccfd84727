import { and, asc, eq, gt, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { sessions } from './sessions.tables';

/** A pending session of a patient: what another module's schedule needs of it (measures, issue 32). */
export type UpcomingSession = { id: string; startsAt: Date };

/** A patient's pending (not canceled, not completed) sessions starting in (from, to], by start. */
export const upcomingSessions =
  (db: DbOrTx) =>
  async (workspaceId: string, patientId: string, from: Date, to: Date, limit = 20): Promise<UpcomingSession[]> =>
    db
      .select({ id: sessions.id, startsAt: sessions.startsAt })
      .from(sessions)
      .where(
        and(
          eq(sessions.workspaceId, workspaceId),
          eq(sessions.patientId, patientId),
          eq(sessions.status, 'pending'),
          gt(sessions.startsAt, from),
          lte(sessions.startsAt, to),
        ),
      )
      .orderBy(asc(sessions.startsAt))
      .limit(limit);
