import { and, asc, eq, inArray, param, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import {
  monthEnd,
  monthPlan,
  monthStart,
  sessionSumsOfRow,
  sessionSumsOfSummary,
  sessionSumsTotal,
  staleMonths,
  SUMMARY_ZONE,
  type InstantRange,
  type MonthPlan,
  type SessionSums,
  type StatsSpan,
} from './session-month-stats.queries';
import { sessions, type SessionRow } from './sessions.tables';

export type { InstantRange, StatsSpan };
/** Whose sessions: one therapist's, or every therapist's (the caller's scope decided it before). */
export type StatsFilter = { workspaceId: string; therapistId?: string };

const int = (e: SQL) => sql<number>`(${e})::int`;
const inRange = (r: InstantRange) => sql`${sessions.startsAt} >= ${r.from} and ${sessions.startsAt} < ${r.to}`;
const scoped = (f: StatsFilter, r: InstantRange) =>
  and(eq(sessions.workspaceId, f.workspaceId), f.therapistId ? eq(sessions.therapistId, f.therapistId) : undefined, inRange(r));
const notCanceled = sql`${sessions.status} <> 'canceled'`;

async function rowsOf<T>(db: DbOrTx, q: SQL): Promise<T[]> {
  return ((await db.execute(q)) as unknown as { rows: T[] }).rows;
}

const who = (f: StatsFilter) => (f.therapistId ? sql` and therapist_id = ${f.therapistId}` : sql``);
const withStale = (f: StatsFilter, plan: MonthPlan) =>
  plan.months.length ? sql`with stale as (${staleMonths(f.workspaceId, plan.months)}) ` : sql``;

/**
 * The sessions a plan reads from the rows, projected by `pick`: its edges, and its whole months still
 * stale (a write not refreshed yet) — each one range read over the (workspace, start) indexes.
 */
function rawBranches(f: StatsFilter, plan: MonthPlan, pick: SQL): SQL[] {
  const out = plan.edges.map(
    (e) =>
      sql`select ${pick} from sessions where workspace_id = ${f.workspaceId}${who(f)} and starts_at >= ${e.from} and starts_at < ${e.to}`,
  );
  if (plan.months.length)
    out.push(
      sql`select ${pick} from stale join sessions on workspace_id = ${f.workspaceId}${who(f)}
          and starts_at >= ${monthStart(sql`stale.month`)} and starts_at < ${monthEnd(sql`stale.month`)}`,
    );
  return out;
}

/** The sums of a range, in total or per therapist: the rows' and the summary's fresh months added up. */
function sumsSql(f: StatsFilter, r: StatsSpan, perTherapist: boolean): SQL {
  const plan = monthPlan(r, SUMMARY_ZONE);
  const branches = rawBranches(f, plan, sessionSumsOfRow);
  if (plan.months.length)
    branches.push(
      sql`select ${sessionSumsOfSummary} from session_month_stats where workspace_id = ${f.workspaceId}${who(f)}
          and month = any(${param(plan.months)}::date[]) and month not in (select month from stale)`,
    );
  const by = perTherapist ? sql`therapist_id, ` : sql``;
  return sql`${withStale(f, plan)}select ${by}${sessionSumsTotal} from (${sql.join(branches, sql` union all `)}) x${
    perTherapist ? sql` group by therapist_id` : sql``
  }`;
}

type CalendarRow =
  | { k: 'r'; day: string; weekday: number; hour: number; status: 'pending' | 'completed' | 'canceled'; n: number }
  | { k: 's'; heat: number[] | string; days: number[] | string; month: string };

const STATES = ['completed', 'pending', 'canceled'] as const;
const intArray = (a: number[] | string): number[] => (typeof a === 'string' ? a.slice(1, -1).split(',').map(Number) : a);

/** The calendar's rows and summary months folded into days (with any session) and heat-map cells. */
function foldCalendar(rows: CalendarRow[]) {
  const days = new Map<string, { day: string; completed: number; pending: number; canceled: number }>();
  const dayOf = (day: string) => days.get(day) ?? days.set(day, { day, completed: 0, pending: 0, canceled: 0 }).get(day)!;
  const heat = new Array<number>(168).fill(0);
  for (const r of rows) {
    if (r.k === 'r') {
      dayOf(r.day)[r.status] += r.n;
      if (r.status !== 'canceled') heat[(r.weekday - 1) * 24 + r.hour]! += r.n;
      continue;
    }
    intArray(r.heat).forEach((n, i) => (heat[i]! += n));
    intArray(r.days).forEach((n, i) => {
      if (n) dayOf(`${r.month.slice(0, 8)}${String(Math.floor(i / 3) + 1).padStart(2, '0')}`)[STATES[i % 3]!] += n;
    });
  }
  const cells = heat.flatMap((count, i) => (count ? [{ weekday: Math.floor(i / 24) + 1, hour: i % 24, count }] : []));
  return { days: [...days.values()], cells };
}

/**
 * The statistics' reads of sessions (issue 28): each one range read over `sessions_workspace_starts_idx`
 * (or its per-therapist twin), grouped in the database; nothing is decrypted, nothing per row leaves it
 * but the rows a card lists.
 */
export function sessionStatsQueries(db: DbOrTx) {
  return {
    /** Every sum of the range (whole months from the summary, the rest from the rows), in one statement. */
    async totals(f: StatsFilter, r: StatsSpan) {
      const [t] = await rowsOf<SessionSums>(db, sumsSql(f, r, false));
      return {
        scheduled: t!.scheduled,
        pending: t!.pending,
        completed: t!.completed,
        canceled: t!.canceled,
        byPatient: t!.by_patient,
        byTherapist: t!.by_therapist,
        late: t!.late,
        noShow: t!.no_show,
        none: t!.no_reason,
        online: t!.online,
        presential: t!.presential,
        bookedMinutes: t!.booked_minutes,
        feeCents: t!.fee_cents,
        commissionCents: t!.commission_cents,
        uninvoiced: t!.uninvoiced,
        uninvoicedCents: t!.uninvoiced_cents,
        pendingCents: t!.pending_cents,
      };
    },

    /**
     * Sessions by local day and state (the daily chart), and the ones not canceled by weekday and hour
     * (the heat map): one statement over the rows and the summary's months.
     */
    async calendar(f: StatsFilter, r: StatsSpan, zone: string) {
      const plan = monthPlan(r, zone);
      const local = sql`timezone(${zone}, starts_at)`;
      const pick = sql`to_char(${local}, 'YYYY-MM-DD') as day, extract(isodow from ${local})::int as weekday, extract(hour from ${local})::int as hour, status`;
      const raw = sql.join(rawBranches(f, plan, pick), sql` union all `);
      const summary = plan.months.length
        ? sql` union all select 's', null, null, null, null, null, heat, days, to_char(month, 'YYYY-MM-DD') from session_month_stats
            where workspace_id = ${f.workspaceId}${who(f)} and month = any(${param(plan.months)}::date[]) and month not in (select month from stale)`
        : sql``;
      const rows = await rowsOf<CalendarRow>(
        db,
        sql`${withStale(f, plan)}select 'r' as k, day, weekday, hour, status, count(*)::int as n, null::int[] as heat, null::int[] as days, null::text as month
          from (${raw}) x group by day, weekday, hour, status${summary}`,
      );
      return foldCalendar(rows);
    },

    async byTherapist(f: StatsFilter, r: StatsSpan) {
      const rows = await rowsOf<SessionSums & { therapist_id: string }>(db, sumsSql(f, r, true));
      return rows.map((t) => ({
        therapistId: t.therapist_id,
        scheduled: t.scheduled,
        completed: t.completed,
        canceled: t.canceled,
        noShows: t.no_show,
        bookedMinutes: t.booked_minutes,
        // The money of the completed sessions: what billing's per-therapist table needs.
        feeCents: t.fee_cents,
        commissionCents: t.commission_cents,
      }));
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
