import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { patients } from './patients.tables';

/** Whose patients: by the therapist they are assigned to (the `patient_files` owner), or all. */
export type PatientStatsFilter = { workspaceId: string; therapistId?: string };

const int = (e: SQL) => sql<number>`(${e})::int`;
const scoped = (f: PatientStatsFilter, ...more: (SQL | undefined)[]) =>
  and(
    eq(patients.workspaceId, f.workspaceId),
    isNull(patients.blockedAt),
    f.therapistId ? eq(patients.assignedTherapistId, f.therapistId) : undefined,
    ...more,
  );
const among = (ids: string[]) => sql`${patients.id} = any(${`{${ids.join(',')}}`}::uuid[])`;
const endedIn = (fromDay: string, toDay: string) => sql`${patients.treatmentEndDate} between ${fromDay} and ${toDay}`;
const addedIn = (from: Date, to: Date) => sql`${patients.createdAt} >= ${from} and ${patients.createdAt} < ${to}`;

/** A patient breakdown's column: only these (an allow-list, never request text). */
const BREAKDOWN = {
  motive: patients.treatmentMotive,
  referralSource: patients.treatmentReferralSource,
  sessionType: patients.treatmentSessionType,
  gender: patients.gender,
  birthdate: patients.birthdate,
} as const;
export type PatientBreakdown = keyof typeof BREAKDOWN;

/** The statistics' reads of patients (issue 28): counts in the database, no clinical text decrypted. */
export function patientStatsQueries(db: DbOrTx) {
  return {
    async added(f: PatientStatsFilter, from: Date, to: Date) {
      const [row] = await db
        .select({ count: int(sql`count(*)`) })
        .from(patients)
        .where(scoped(f, addedIn(from, to)));
      return row!.count;
    },

    statusNow(f: PatientStatsFilter) {
      return db
        .select({ status: patients.treatmentStatus, count: int(sql`count(*)`) })
        .from(patients)
        .where(scoped(f))
        .groupBy(patients.treatmentStatus);
    },

    dischargedByReason(f: PatientStatsFilter, fromDay: string, toDay: string) {
      return db
        .select({ key: sql<string>`coalesce(${patients.treatmentEndingReason}, 'none')`, count: int(sql`count(*)`) })
        .from(patients)
        .where(scoped(f, endedIn(fromDay, toDay)))
        .groupBy(sql`1`);
    },

    /** Patients among `ids` (of those the filter reads) counted by one column's value ('none' for empty). */
    breakdown(f: PatientStatsFilter, ids: string[], column: PatientBreakdown) {
      if (!ids.length) return Promise.resolve([]);
      const col = BREAKDOWN[column];
      return db
        .select({ key: sql<string>`coalesce(${col}::text, 'none')`, count: int(sql`count(*)`) })
        .from(patients)
        .where(scoped(f, among(ids)))
        .groupBy(sql`1`);
    },

    /** Treatments that ended in the days given: their dates, reason and motive. */
    ended(f: PatientStatsFilter, fromDay: string, toDay: string) {
      return db
        .select({
          id: patients.id,
          startDay: patients.treatmentStartDate,
          endDay: patients.treatmentEndDate,
          reason: patients.treatmentEndingReason,
          motive: patients.treatmentMotive,
        })
        .from(patients)
        .where(scoped(f, endedIn(fromDay, toDay)));
    },

    /** A card's patients by name: added in the instants, discharged in the days, or among ids. */
    async card(
      f: PatientStatsFilter,
      which: { added: { from: Date; to: Date } } | { ended: { fromDay: string; toDay: string } } | { ids: string[] },
      limit: number,
    ) {
      const where =
        'added' in which
          ? addedIn(which.added.from, which.added.to)
          : 'ended' in which
            ? endedIn(which.ended.fromDay, which.ended.toDay)
            : among(which.ids);
      const w = scoped(f, where);
      const [rows, [sum]] = await Promise.all([
        db
          .select({
            id: patients.id,
            firstName: patients.firstName,
            lastName: patients.lastName,
            createdAt: patients.createdAt,
            endDay: patients.treatmentEndDate,
            reason: patients.treatmentEndingReason,
          })
          .from(patients)
          .where(w)
          .orderBy(asc(patients.lastName), asc(patients.firstName), asc(patients.id))
          .limit(limit),
        db
          .select({ count: int(sql`count(*)`) })
          .from(patients)
          .where(w),
      ]);
      return { rows, total: sum!.count };
    },
  };
}
