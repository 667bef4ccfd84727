import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { sessions, type SessionRow } from './sessions.tables';

/** Instants [from, to): the period's first local midnight to the midnight after its last day. */
export type InstantRange = { from: Date; to: Date };
/** Whose sessions: one therapist's, or every therapist's (the caller's scope decided it before). */
export type StatsFilter = { workspaceId: string; therapistId?: string };

const int = (e: SQL) => sql<number>`(${e})::int`;
const inRange = (r: InstantRange) => sql`${sessions.startsAt} >= ${r.from} and ${sessions.startsAt} < ${r.to}`;
const scoped = (f: StatsFilter, r: InstantRange) =>
  and(eq(sessions.workspaceId, f.workspaceId), f.therapistId ? eq(sessions.therapistId, f.therapistId) : undefined, inRange(r));
const minutes = sql`extract(epoch from (${sessions.endsAt} - ${sessions.startsAt})) / 60`;
const notCanceled = sql`${sessions.status} <> 'canceled'`;

/**
 * The statistics' reads of sessions (issue 28): each one range read over `sessions_workspace_starts_idx`
 * (or its per-therapist twin), grouped in the database; nothing is decrypted, nothing per row leaves it
 * but the rows a card lists.
 */
export function sessionStatsQueries(db: DbOrTx) {
  return {
    async totals(f: StatsFilter, r: InstantRange) {
      const [row] = await db
        .select({
          scheduled: int(sql`count(*)`),
          pending: int(sql`count(*) filter (where ${sessions.status} = 'pending')`),
          completed: int(sql`count(*) filter (where ${sessions.status} = 'completed')`),
          canceled: int(sql`count(*) filter (where ${sessions.status} = 'canceled')`),
          byPatient: int(sql`count(*) filter (where ${sessions.cancellationReason} = 'patient')`),
          byTherapist: int(sql`count(*) filter (where ${sessions.cancellationReason} = 'therapist')`),
          late: int(sql`count(*) filter (where ${sessions.cancellationReason} = 'late')`),
          noShow: int(sql`count(*) filter (where ${sessions.cancellationReason} = 'no_show')`),
          none: int(sql`count(*) filter (where ${sessions.status} = 'canceled' and ${sessions.cancellationReason} is null)`),
          online: int(sql`count(*) filter (where ${notCanceled} and ${sessions.modality} = 'online')`),
          presential: int(sql`count(*) filter (where ${notCanceled} and ${sessions.modality} = 'presential')`),
          bookedMinutes: int(sql`coalesce(round(sum(${minutes}) filter (where ${notCanceled})), 0)`),
        })
        .from(sessions)
        .where(scoped(f, r));
      return row!;
    },

    /**
     * Sessions by local day, hour and state: the daily chart (by day and state) and the heat map (the
     * live ones by weekday and hour) added up from one grouped read instead of two.
     */
    byDayHour(f: StatsFilter, r: InstantRange, zone: string) {
      const local = sql`timezone(${zone}, ${sessions.startsAt})`;
      return db
        .select({
          day: sql<string>`to_char(${local}, 'YYYY-MM-DD')`,
          weekday: int(sql`extract(isodow from ${local})`),
          hour: int(sql`extract(hour from ${local})`),
          status: sessions.status,
          count: int(sql`count(*)`),
        })
        .from(sessions)
        .where(scoped(f, r))
        .groupBy(sql`1`, sql`2`, sql`3`, sessions.status);
    },

    byTherapist(f: StatsFilter, r: InstantRange) {
      return db
        .select({
          therapistId: sessions.therapistId,
          scheduled: int(sql`count(*)`),
          completed: int(sql`count(*) filter (where ${sessions.status} = 'completed')`),
          canceled: int(sql`count(*) filter (where ${sessions.status} = 'canceled')`),
          noShows: int(sql`count(*) filter (where ${sessions.cancellationReason} = 'no_show')`),
          bookedMinutes: int(sql`coalesce(round(sum(${minutes}) filter (where ${notCanceled})), 0)`),
          // The money of the completed sessions: what billing's per-therapist table needs.
          feeCents: int(sql`coalesce(sum(${sessions.fee}) filter (where ${sessions.status} = 'completed'), 0)`),
          commissionCents: int(
            sql`coalesce(sum(${sessions.price} - ${sessions.fee}) filter (where ${sessions.status} = 'completed' and ${sessions.fee} is not null), 0)`,
          ),
        })
        .from(sessions)
        .where(scoped(f, r))
        .groupBy(sessions.therapistId);
    },

    /** Completed sessions not invoiced yet: money left on the table. */
    async uninvoiced(f: StatsFilter, r: InstantRange) {
      const [row] = await db
        .select({ count: int(sql`count(*)`), cents: int(sql`coalesce(sum(${sessions.price}), 0)`) })
        .from(sessions)
        .where(and(scoped(f, r), eq(sessions.status, 'completed'), eq(sessions.invoiced, false)));
      return row!;
    },

    /** Sessions still to happen (pending) in the range: the month's projection. */
    async upcoming(f: StatsFilter, r: InstantRange) {
      const [row] = await db
        .select({ count: int(sql`count(*)`), cents: int(sql`coalesce(sum(${sessions.price}), 0)`) })
        .from(sessions)
        .where(and(scoped(f, r), eq(sessions.status, 'pending')));
      return row!;
    },

    /** The patients with a session not canceled in the range. */
    async seenPatientIds(f: StatsFilter, r: InstantRange): Promise<string[]> {
      const rows = await db
        .selectDistinct({ id: sessions.patientId })
        .from(sessions)
        .where(and(scoped(f, r), notCanceled));
      return rows.map((x) => x.id);
    },

    /**
     * Completed sessions of the range, and how many of them were followed by another session of the same
     * patient (not canceled, any therapist of the workspace, booked whenever): the rebook rate.
     */
    async rebooked(f: StatsFilter, r: InstantRange) {
      // Followed by another live session ⇔ started before the patient's last live one: one grouped read of
      // the workspace (index-only on sessions_workspace_starts_idx) joined by hash, instead of a probe per row.
      const last = db
        .select({ patientId: sessions.patientId, lastAt: sql<Date>`max(${sessions.startsAt})`.as('last_at') })
        .from(sessions)
        .where(and(eq(sessions.workspaceId, f.workspaceId), notCanceled))
        .groupBy(sessions.patientId)
        .as('last_live');
      const [row] = await db
        .select({
          completed: int(sql`count(*)`),
          rebooked: int(sql`count(*) filter (where ${sessions.startsAt} < ${last.lastAt})`),
        })
        .from(sessions)
        .leftJoin(last, eq(last.patientId, sessions.patientId))
        .where(and(scoped(f, r), eq(sessions.status, 'completed')));
      return row!;
    },

    /** Completed sessions per patient between each one's treatment dates (instants [from, to), from null: since ever). */
    async completedPerPatient(workspaceId: string, spans: { patientId: string; from: Date | null; to: Date }[]) {
      if (!spans.length) return new Map<string, number>();
      const ids = spans.map((s) => s.patientId);
      const rows = await db
        .select({ patientId: sessions.patientId, startsAt: sessions.startsAt })
        .from(sessions)
        .where(and(eq(sessions.workspaceId, workspaceId), inArray(sessions.patientId, ids), eq(sessions.status, 'completed')));
      const span = new Map(spans.map((s) => [s.patientId, s]));
      const out = new Map<string, number>(ids.map((id) => [id, 0]));
      for (const row of rows) {
        const s = span.get(row.patientId)!;
        if ((s.from === null || row.startsAt >= s.from) && row.startsAt < s.to) out.set(row.patientId, out.get(row.patientId)! + 1);
      }
      return out;
    },

    /** The rows a sessions card counts, by start; `where` is the card's condition. */
    rows(f: StatsFilter, r: InstantRange, where: SQL | undefined, limit: number): Promise<SessionRow[]> {
      return db
        .select()
        .from(sessions)
        .where(and(scoped(f, r), where))
        .orderBy(asc(sessions.startsAt), asc(sessions.id))
        .limit(limit);
    },

    async count(f: StatsFilter, r: InstantRange, where: SQL | undefined) {
      const [row] = await db
        .select({ count: int(sql`count(*)`), cents: int(sql`coalesce(sum(${sessions.price}), 0)`) })
        .from(sessions)
        .where(and(scoped(f, r), where));
      return row!;
    },
  };
}

/** The condition of each sessions card (and of billing's «sin facturar»), once for its count and its rows. */
export const SESSION_CARD_WHERE = {
  scheduled: undefined,
  completed: sql`${sessions.status} = 'completed'`,
  pending: sql`${sessions.status} = 'pending'`,
  canceled: sql`${sessions.status} = 'canceled'`,
  no_show: sql`${sessions.cancellationReason} = 'no_show'`,
  online: sql`${sessions.status} <> 'canceled' and ${sessions.modality} = 'online'`,
  presential: sql`${sessions.status} <> 'canceled' and ${sessions.modality} = 'presential'`,
  uninvoiced: sql`${sessions.status} = 'completed' and ${sessions.invoiced} = false`,
} as const;
export type SessionCard = keyof typeof SESSION_CARD_WHERE;
