import { param, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { monthEnd, monthStart, staleMarks, staleMonths as staleOf, SUMMARY_ZONE } from '../../platform/db/month-summary';

export {
  monthEnd,
  monthPlan,
  monthStart,
  SUMMARY_ZONE,
  type InstantRange,
  type MonthPlan,
  type StatsSpan,
} from '../../platform/db/month-summary';

/** The table of the sessions' stale months (migration 0051's triggers append to it). */
export const SESSION_STATS_DIRTY = 'session_stats_dirty';

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

/** The months of `months` a write left stale, as a CTE body (`month` column). */
export const staleMonths = (workspaceId: string, months: string[]) => staleOf(SESSION_STATS_DIRTY, workspaceId, months);

/**
 * One transaction: the stale marks seen (only those: a write committing meanwhile leaves its own), the
 * months' rows replaced by one statement over their sessions, the marks seen deleted. Two refreshes of
 * one workspace take turns on an advisory lock.
 */
export async function refreshSome(tx: DbOrTx, workspaceId: string): Promise<number> {
  const { months, done } = await staleMarks(tx, SESSION_STATS_DIRTY, workspaceId);
  if (!months.length) return 0;
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
  await done();
  return months.length;
}
