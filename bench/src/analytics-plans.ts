// EXPLAIN (ANALYZE, BUFFERS) of the statistics' statements exactly as the server sends them: the server's
// own query modules (session-stats, invoice-stats, patient-stats .queries.ts) run through drizzle on the
// bench database with a logger that keeps each statement and its parameters, which are then explained.
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { previousPeriod, shiftDay, startOfLocalDay, todayIn, type Period } from '@divan/core';
import type { Db } from '../../apps/server/src/platform/db/database';
import { invoiceStatsQueries } from '../../apps/server/src/modules/invoices/invoice-stats.queries';
import { patientStatsQueries } from '../../apps/server/src/modules/patients/patient-stats.queries';
import { sessionStatsQueries } from '../../apps/server/src/modules/sessions/session-stats.queries';
import { CALENDAR_TZ } from './calendar-data';

export type Plan = { statement: string; sql: string; executionMs: number; scans: string[]; lines: string[] };

const spanOf = (p: Period) => ({
  from: startOfLocalDay(p.from, CALENDAR_TZ),
  to: startOfLocalDay(shiftDay(p.to, 1), CALENDAR_TZ),
  fromDay: p.from,
  toDay: p.to,
});

/**
 * Every statement the four tabs send for `period` as the workspace's owner (every therapist's sessions,
 * every invoice, every patient), or narrowed to `therapistId`, each explained after one warm run.
 */
export async function explainStatistics(databaseUrl: string, workspaceId: string, period: Period, therapistId?: string): Promise<Plan[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const captured: { statement: string; sql: string; params: unknown[] }[] = [];
  let current = '';
  const db = drizzle({
    client,
    logger: { logQuery: (sql, params) => void captured.push({ statement: current, sql, params }) },
  }) as unknown as Db;
  const named = async <T>(statement: string, run: () => PromiseLike<T>): Promise<T> => {
    current = statement;
    return run();
  };
  try {
    const s = sessionStatsQueries(db);
    const inv = invoiceStatsQueries(db);
    const pat = patientStatsQueries(db);
    const f = { workspaceId, ...(therapistId ? { therapistId } : {}) };
    const span = spanOf(period);
    const today = todayIn(CALENDAR_TZ);
    const invF = { workspaceId, scope: { therapist: { kind: 'all' as const }, workspace: true }, therapistId };
    await named('sessions.totals', () => s.totals(f, span));
    await named('sessions.totals (period before)', () => s.totals(f, spanOf(previousPeriod(period))));
    await named('sessions.calendar', () => s.calendar(f, span, CALENDAR_TZ));
    await named('sessions.byTherapist', () => s.byTherapist(f, span));
    const seen = await named('sessions.seenPatientIds', () => s.seenPatientIds(f, span));
    await named('sessions.rebooked', () => s.rebooked(f, span));
    await named('invoices.totals', () => inv.totals(invF, span));
    await named('invoices.owedByAge', () => inv.owedByAge(invF, today));
    await named('invoices.byMonth', () => inv.byMonth(invF, span));
    await named('invoices.collectedByPaymentType', () => inv.collectedByPaymentType(invF, span));
    await named('invoices.byOwner', () => inv.byOwner(invF, span));
    await named('patients.added', () => pat.added(f, span.from, span.to));
    await named('patients.statusNow', () => pat.statusNow(f));
    await named('patients.dischargedByReason', () => pat.dischargedByReason(f, period.from, period.to));
    await named(`patients.breakdown (${seen.length} seen ids)`, () => pat.breakdown({ workspaceId }, seen, 'motive'));
    const ended = await named('patients.ended', () => pat.ended(f, period.from, period.to));
    await named(`sessions.completedPerPatient (${ended.length} ended)`, () =>
      s.completedPerPatient(
        workspaceId,
        ended.map((t) => ({
          patientId: t.id,
          from: t.startDay ? startOfLocalDay(t.startDay, CALENDAR_TZ) : null,
          to: startOfLocalDay(shiftDay(t.endDay!, 1), CALENDAR_TZ),
        })),
      ),
    );
    const plans: Plan[] = [];
    for (const c of captured) {
      const explain = `explain (analyze, buffers) ${c.sql}`;
      const lines = (await client.query<{ 'QUERY PLAN': string }>(explain, c.params)).rows.map((r) => r['QUERY PLAN']);
      const scans = [
        ...new Set(
          lines
            .map((l) => /((?:Parallel )?(?:Index(?: Only)? Scan|Bitmap Index Scan|Seq Scan))(?: using (\S+))? on (\S+)/.exec(l))
            .filter((m): m is RegExpExecArray => !!m)
            .map((m) => `${m[1]}${m[2] ? ` ${m[2]}` : ''} on ${m[3]}`),
        ),
      ];
      const executionMs = Number(lines.map((l) => /Execution Time: ([\d.]+) ms/.exec(l)).find(Boolean)?.[1] ?? NaN);
      plans.push({ statement: c.statement, sql: c.sql, executionMs, scans, lines });
    }
    return plans;
  } finally {
    await client.end();
  }
}
