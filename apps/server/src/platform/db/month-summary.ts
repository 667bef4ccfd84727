import { DEFAULT_TIME_ZONE, shiftDay, startOfLocalDay } from '@divan/core';
import { param, sql, type SQL } from 'drizzle-orm';
import type { Jobs, QueueDefinition } from '../jobs/jobs';
import type { Db, DbOrTx } from './database';

/**
 * What the statistics' summaries of months share (issue 28, docs/decisions/0027-statistics-summary.md):
 * the months a period holds whole, and the debounced job that refreshes a workspace's stale months.
 * Each summary (sessions, invoices) owns its tables, its triggers and its refresh statement.
 */

/** Instants [from, to): the period's first local midnight to the midnight after its last day. */
export type InstantRange = { from: Date; to: Date };
/** A range and, when it is a period of days, the days themselves (what lets whole months come from a summary). */
export type StatsSpan = InstantRange & { fromDay?: string; toDay?: string };

/** The zone the summaries' months, days and hours are counted in: the triggers of migrations 0051 and 0052 name it too. */
export const SUMMARY_ZONE = 'Europe/Madrid';
if (SUMMARY_ZONE !== DEFAULT_TIME_ZONE) throw new Error('the summaries count months in the statistics’ zone');

/** How a range is read: whole local months through the summary (`months`, first days), the rest raw (`edges`). */
export type MonthPlan = { edges: InstantRange[]; months: string[] };

export const monthAfter = (month: string) => {
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

/** The same plan in days (both included), for a column that is a date: the days around the whole months. */
export function dayEdges(fromDay: string, toDay: string, months: string[]): { fromDay: string; toDay: string }[] {
  if (!months.length) return [{ fromDay, toDay }];
  const edges = [
    { fromDay, toDay: shiftDay(months[0]!, -1) },
    { fromDay: monthAfter(months.at(-1)!), toDay },
  ];
  return edges.filter((e) => e.fromDay <= e.toDay);
}

/** A local month's instants, from its first day (a `date` column or parameter). */
export const monthStart = (month: SQL) => sql`timezone(${SUMMARY_ZONE}, (${month})::timestamp)`;
export const monthEnd = (month: SQL) => sql`timezone(${SUMMARY_ZONE}, ((${month}) + interval '1 month')::timestamp)`;

/** Stale months refreshed per transaction (a dataset loaded at once is refreshed in several). */
export const MONTHS_PER_REFRESH = 24;

/** Writes that touched a month are refreshed after this quiet time at most (one job per workspace and window). */
export const REFRESH_WINDOW_SECONDS = 20;

export type MonthSummaryOptions = {
  /** The pg-boss queue of the refresh. */
  queue: string;
  /** The table of stale marks (`workspace_id`, `month`) the summary's triggers append to. */
  dirtyTable: string;
  /** One transaction: up to MONTHS_PER_REFRESH stale months of a workspace recomputed; how many. */
  refreshSome: (tx: DbOrTx, workspaceId: string) => Promise<number>;
};

/**
 * A summary of months refreshed by a debounced job after writes and by a cron that catches whatever no
 * event announced (a restore, a migration). Exactness does not depend on it: a stale month is read
 * from the rows.
 */
export class MonthSummary {
  readonly queue: QueueDefinition<{ workspaceId?: string }>;

  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    private readonly o: MonthSummaryOptions,
    // Real time: the job waits on the database's clock, not a test's moved one.
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.queue = {
      name: o.queue,
      work: async ({ workspaceId }) => {
        if (workspaceId) await this.refresh(workspaceId);
        else await this.refreshAll();
      },
      retryLimit: 3,
      expireInSeconds: 300,
      cron: { expression: '*/10 * * * *', data: {} },
    };
  }

  /** A workspace's rows changed: its refresh runs at the end of the current window (once per window). */
  async changed(workspaceId: string) {
    const w = REFRESH_WINDOW_SECONDS * 1000;
    const at = Math.ceil((this.clock().getTime() + 1) / w) * w;
    await this.jobs.send(this.o.queue, { workspaceId }, { key: `${workspaceId}:${at}`, startAfter: new Date(at) });
  }

  /** At start: one refresh of every stale month, in the background, when there is any. */
  async catchUp() {
    const res = (await this.db.execute(sql`select 1 from ${sql.identifier(this.o.dirtyTable)} limit 1`)) as unknown as { rows: unknown[] };
    if (res.rows.length) await this.jobs.send(this.o.queue, {});
  }

  /** Every workspace with a stale month. */
  async refreshAll(): Promise<number> {
    const res = (await this.db.execute(sql`select distinct workspace_id from ${sql.identifier(this.o.dirtyTable)}`)) as unknown as {
      rows: { workspace_id: string }[];
    };
    let months = 0;
    for (const { workspace_id } of res.rows) months += await this.refresh(workspace_id);
    return months;
  }

  /** Recomputes a workspace's stale months from its rows; returns how many it refreshed. */
  async refresh(workspaceId: string): Promise<number> {
    let done = 0;
    for (;;) {
      const n = await this.db.transaction((tx) => this.o.refreshSome(tx, workspaceId));
      done += n;
      if (n < MONTHS_PER_REFRESH) return done;
    }
  }
}

/**
 * The start of a refresh, in its transaction: a per-summary, per-workspace advisory lock (two refreshes
 * take turns), then the stale marks of up to MONTHS_PER_REFRESH months — only those seen: a write
 * committing meanwhile leaves its own. `done` deletes the marks seen, once their months are rewritten.
 */
export async function staleMarks(tx: DbOrTx, dirtyTable: string, workspaceId: string) {
  const table = sql.identifier(dirtyTable);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`divan:${dirtyTable}:${workspaceId}`}, 0))`);
  const marks = (await tx.execute(
    sql`select id, to_char(month, 'YYYY-MM-DD') as month from ${table} where workspace_id = ${workspaceId}
        and month in (select distinct month from ${table} where workspace_id = ${workspaceId} order by month limit ${MONTHS_PER_REFRESH})`,
  )) as unknown as { rows: { id: string | number; month: string }[] };
  return {
    months: [...new Set(marks.rows.map((r) => r.month))],
    done: async () => {
      if (marks.rows.length)
        await tx.execute(sql`delete from ${table} where id = any(${param(marks.rows.map((r) => Number(r.id)))}::bigint[])`);
    },
  };
}

/** The months of `months` a write left stale, as a CTE body (`month` column). */
export const staleMonths = (dirtyTable: string, workspaceId: string, months: string[]) =>
  sql`select distinct month from ${sql.identifier(dirtyTable)} where workspace_id = ${workspaceId} and month = any(${param(months)}::date[])`;
