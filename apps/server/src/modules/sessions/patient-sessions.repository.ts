import { and, asc, count, desc, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import type { PatientSessionTotals } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { locations, sessions, type SessionRow } from './sessions.tables';

/** The columns a patient may read of their own session (the companion): no price, no payment, no note. */
const ownColumns = {
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

/** One patient's sessions: their own reads (the companion) and the `sessions` tab of their file. */
export function patientSessionsRepository(db: DbOrTx) {
  const own = () => db.select(ownColumns).from(sessions).leftJoin(locations, eq(locations.id, sessions.locationId));
  return {
    /** `upcoming`: not ended at `now`, soonest first; `past`: ended, latest first. */
    async ownPage(workspaceId: string, patientId: string, when: 'upcoming' | 'past', page: number, pageSize: number, now: Date) {
      const where = and(
        eq(sessions.workspaceId, workspaceId),
        eq(sessions.patientId, patientId),
        when === 'upcoming' ? gt(sessions.endsAt, now) : lte(sessions.endsAt, now),
      );
      const order = when === 'upcoming' ? [asc(sessions.startsAt), asc(sessions.id)] : [desc(sessions.startsAt), desc(sessions.id)];
      const rows = await own()
        .where(where)
        .orderBy(...order)
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      const [total] = await db.select({ n: count() }).from(sessions).where(where);
      return { rows, total: total?.n ?? 0 };
    },

    async ownOne(workspaceId: string, patientId: string, sessionId: string) {
      const [row] = await own().where(
        and(eq(sessions.workspaceId, workspaceId), eq(sessions.patientId, patientId), eq(sessions.id, sessionId)),
      );
      return row;
    },

    /** The file's tab: a page of sessions newest first and the totals over all of them, in the scope (`ownerId`: a therapist's only). */
    async tab(
      workspaceId: string,
      patientId: string,
      ownerId: string | undefined,
      page: { number: number; size: number },
      now: Date,
    ): Promise<{ rows: (SessionRow & { locationName: string | null })[]; totals: PatientSessionTotals | undefined }> {
      const where: SQL | undefined = and(
        eq(sessions.workspaceId, workspaceId),
        eq(sessions.patientId, patientId),
        ownerId ? eq(sessions.therapistId, ownerId) : undefined,
      );
      const [rows, [totals]] = await Promise.all([
        db
          .select({ s: sessions, locationName: locations.name })
          .from(sessions)
          .leftJoin(locations, eq(locations.id, sessions.locationId))
          .where(where)
          .orderBy(desc(sessions.startsAt), desc(sessions.id))
          .limit(page.size)
          .offset((page.number - 1) * page.size),
        db
          .select({
            total: sql<number>`count(*)::int`,
            attended: sql<number>`count(*) filter (where ${sessions.status} = 'completed')::int`,
            canceled: sql<number>`count(*) filter (where ${sessions.status} = 'canceled')::int`,
            noShows: sql<number>`count(*) filter (where ${sessions.status} = 'canceled' and ${sessions.cancellationReason} = 'no_show')::int`,
            lateCancellations: sql<number>`count(*) filter (where ${sessions.status} = 'canceled' and ${sessions.cancellationReason} = 'late')::int`,
            upcoming: sql<number>`count(*) filter (where ${sessions.status} = 'pending' and ${sessions.startsAt} >= ${now.toISOString()})::int`,
            pendingPayment: sql<number>`count(*) filter (where ${sessions.status} = 'completed' and ${sessions.paymentStatus} = 'pending')::int`,
            pendingPaymentAmount: sql<number>`coalesce(sum(${sessions.price}) filter (where ${sessions.status} = 'completed' and ${sessions.paymentStatus} = 'pending'), 0)::int`,
          })
          .from(sessions)
          .where(where),
      ]);
      return { rows: rows.map((r) => ({ ...r.s, locationName: r.locationName })), totals };
    },
  };
}
