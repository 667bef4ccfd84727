import { DEFAULT_TIME_ZONE, shiftDay, startOfLocalDay } from '@divan/core';
import { param, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';

/** Instants [from, to): the period's first local midnight to the midnight after its last day. */
export type InstantRange = { from: Date; to: Date };
/** A range and, when it is a period of days, the days themselves (what lets whole months come from the summary). */
export type StatsSpan = InstantRange & { fromDay?: string; toDay?: string };

/** The zone the summary's months, days and hours are counted in: the triggers of migration 0051 name it too. */
export const SUMMARY_ZONE = 'Europe/Madrid';
if (SUMMARY_ZONE !== DEFAULT_TIME_ZONE) throw new Error('the sessions summary counts months in the statistics’ zone');

/** How a range is read: whole local months through the summary (`months`, first days), the rest raw (`edges`). */
export type MonthPlan = { edges: InstantRange[]; months: string[] };

const monthAfter = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
};

/** The local months wholly inside a period of days, and the instants around them read from the rows. */
export function monthPlan(r: StatsSpan, zone: string): MonthPlan {
  if (!r.fromDay || !r.toDay || zone !== SUMMARY_ZONE) return { edges: [r], months: [] };
  const first = r.fromDay.endsWith('-01') ? r.fromDay : monthAfter(r.fromDay.slice(0, 8) + '01');
  const end = shiftDay(r.toDay, 1);
  const months: string[] = [];
  for (let m = first; monthAfter(m) <= end; m = monthAfter(m)) months.push(m);
  if (!months.length) return { edges: [r], months: [] };
  const lo = startOfLocalDay(months[0]!, zone);
  const hi = startOfLocalDay(monthAfter(months.at(-1)!), zone);
  const edges = [
    { from: r.from, to: lo },
    { from: hi, to: r.to },
  ].filter((e) => e.from < e.to);
  return { edges, months };
}

/**
 * What each session adds to the sums, one row per session (unqualified columns of `sessions`), in the
 * summary's column order: the refresh groups it by month, the reads add it to the summary's rows.
 */
export const SESSION_SUMS = [
  ['scheduled', `1`],
  ['pending', `(status = 'pending')::int`],
  ['completed', `(status = 'completed')::int`],
  ['canceled', `(status = 'canceled')::int`],
  ['by_patient', `(cancellation_reason is not distinct from 'patient')::int`],
  ['by_therapist', `(cancellation_reason is not distinct from 'therapist')::int`],
  ['late', `(cancellation_reason is not distinct from 'late')::int`],
  ['no_show', `(cancellation_reason is not distinct from 'no_show')::int`],
  ['no_reason', `(status = 'canceled' and cancellation_reason is null)::int`],
  ['online', `(status <> 'canceled' and modality = 'online')::int`],
  ['presential', `(status <> 'canceled' and modality = 'presential')::int`],
  ['booked_minutes', `case when status <> 'canceled' then extract(epoch from (ends_at - starts_at)) / 60 else 0 end`],
  ['fee_cents', `case when status = 'completed' then coalesce(fee, 0) else 0 end`],
  ['commission_cents', `case when status = 'completed' and fee is not null then price - fee else 0 end`],
  ['uninvoiced', `(status = 'completed' and not invoiced)::int`],
  ['uninvoiced_cents', `case when status = 'completed' and not invoiced then price else 0 end`],
  ['pending_cents', `case when status = 'pending' then price else 0 end`],
] as const;
export type SessionSums = { [K in (typeof SESSION_SUMS)[number][0]]: number };

/** The projection of one session's row: `therapist_id` and each sum's expression under its name. */
export const sessionSumsOfRow = sql.raw(['therapist_id', ...SESSION_SUMS.map(([name, e]) => `${e} as ${name}`)].join(', '));
/** The same columns of the summary's rows. */
export const sessionSumsOfSummary = sql.raw(['therapist_id', ...SESSION_SUMS.map(([name]) => name)].join(', '));
/** Added up over rows of either kind: every count and cent as a JS number, the minutes rounded once. */
export const sessionSumsTotal = sql.raw(
  SESSION_SUMS.map(([name]) =>
    name === 'booked_minutes' ? `coalesce(round(sum(${name})), 0)::int as ${name}` : `coalesce(sum(${name}), 0)::float8 as ${name}`,
  ).join(', '),
);

/** A local month's instants, from its first day (a `date` column or parameter). */
export const monthStart = (month: SQL) => sql`timezone(${SUMMARY_ZONE}, (${month})::timestamp)`;
export const monthEnd = (month: SQL) => sql`timezone(${SUMMARY_ZONE}, ((${month}) + interval '1 month')::timestamp)`;

/** The months of `months` a write left stale, as a CTE body (`month` column). */
export const staleMonths = (workspaceId: string, months: string[]) =>
  sql`select distinct month from session_stats_dirty where workspace_id = ${workspaceId} and month = any(${param(months)}::date[])`;

/** Stale months refreshed per transaction (a dataset loaded at once is refreshed in several). */
export const MONTHS_PER_REFRESH = 24;

/** The workspaces with a stale month. */
export async function staleWorkspaces(db: DbOrTx): Promise<string[]> {
  const res = (await db.execute(sql`select distinct workspace_id from session_stats_dirty`)) as unknown as {
    rows: { workspace_id: string }[];
  };
  return res.rows.map((r) => r.workspace_id);
}

/** Whether any month of any workspace is stale. */
export async function anyStale(db: DbOrTx): Promise<boolean> {
  const res = (await db.execute(sql`select 1 from session_stats_dirty limit 1`)) as unknown as { rows: unknown[] };
  return res.rows.length > 0;
}

/**
 * One transaction: the stale marks seen (only those: a write committing meanwhile leaves its own), the
 * months' rows replaced by one statement over their sessions, the marks seen deleted. Two refreshes of
 * one workspace take turns on an advisory lock.
 */
export async function refreshSome(tx: DbOrTx, workspaceId: string): Promise<number> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`divan:session-month-stats:${workspaceId}`}, 0))`);
  const marks = (await tx.execute(
    sql`select id, to_char(month, 'YYYY-MM-DD') as month from session_stats_dirty where workspace_id = ${workspaceId}
        and month in (select distinct month from session_stats_dirty where workspace_id = ${workspaceId} order by month limit ${MONTHS_PER_REFRESH})`,
  )) as unknown as { rows: { id: string | number; month: string }[] };
  if (!marks.rows.length) return 0;
  const months = [...new Set(marks.rows.map((r) => r.month))];
  await tx.execute(sql`delete from session_month_stats where workspace_id = ${workspaceId} and month = any(${param(months)}::date[])`);
  const local = sql.raw(`timezone('${SUMMARY_ZONE}', starts_at)`);
  const names = sql.raw(SESSION_SUMS.map(([n]) => n).join(', '));
  const summed = sql.raw(
    SESSION_SUMS.map(([n]) => (n === 'booked_minutes' ? `coalesce(sum(${n}), 0)` : `coalesce(sum(${n}), 0)::int`)).join(', '),
  );
  await tx.execute(sql`
    with src as (
      select ${sessionSumsOfRow}, mm.month, ${local} as local, status
      from unnest(${param(months)}::date[]) as mm(month)
      join sessions on workspace_id = ${workspaceId} and starts_at >= ${monthStart(sql`mm.month`)} and starts_at < ${monthEnd(sql`mm.month`)}
    ),
    heat as (
      select therapist_id, month, (extract(isodow from local)::int - 1) * 24 + extract(hour from local)::int as cell, count(*)::int as n
      from src where status <> 'canceled' group by 1, 2, 3
    ),
    days as (
      select therapist_id, month,
        (extract(day from local)::int - 1) * 3 + case status when 'completed' then 0 when 'pending' then 1 else 2 end as cell, count(*)::int as n
      from src group by 1, 2, 3
    ),
    sums as (select therapist_id, month, ${summed} from src group by therapist_id, month)
    insert into session_month_stats (workspace_id, therapist_id, month, ${names}, heat, days)
    select ${workspaceId}, x.*,
      array(select coalesce(h.n, 0) from generate_series(0, 167) g left join heat h on h.therapist_id = x.therapist_id and h.month = x.month and h.cell = g order by g),
      array(select coalesce(d.n, 0) from generate_series(0, 92) g left join days d on d.therapist_id = x.therapist_id and d.month = x.month and d.cell = g order by g)
    from sums x`);
  await tx.execute(sql`delete from session_stats_dirty where id = any(${param(marks.rows.map((r) => Number(r.id)))}::bigint[])`);
  return months.length;
}
