import { shiftDay, startOfLocalDay } from '@divan/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { clinic, type Clinic } from '../../test/session-fixtures';
import { monthPlan } from './session-month-stats.queries';
import { SessionStats } from './session-stats';

/**
 * The statistics' summary of months (issue 28) against the rows, on both databases: random writes of
 * every kind (created, moved across months and days of the clock change, canceled with and without a
 * reason, completed, invoiced, repriced, handed to the other therapist, deleted — one row or many per
 * statement), refreshed now and then, fully or not at all. After each round, random periods of random
 * workspaces read through the port equal what this file counts from the rows itself (in JavaScript,
 * with its own clock of Madrid), and a refreshed summary equals the rows month by month.
 */
let t: TestApp;
let a: Clinic;
let b: Clinic;
let stats: SessionStats;

// A seeded generator: a failing round is the same round again.
let seed = 0x5eed;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

const FIRST_DAY = '2025-10-20';
const DAYS = 170; // to April 2026: both clock changes, five month ends
const ZONE = 'Europe/Madrid';

type Row = {
  id: string;
  workspace_id: string;
  therapist_id: string;
  starts_at: Date;
  ends_at: Date;
  status: 'pending' | 'completed' | 'canceled';
  cancellation_reason: 'patient' | 'therapist' | 'no_show' | 'late' | null;
  modality: 'presential' | 'online';
  price: number;
  fee: number | null;
  invoiced: boolean;
};

/** A random start: any time, or a quarter of an hour around a local month's end (what the months split). */
function randomStart(): Date {
  if (rand() < 0.3) {
    const month = pick(['2025-11-01', '2025-12-01', '2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01']);
    return new Date(startOfLocalDay(month, ZONE).getTime() + pick([-60, -30, -15, 0, 15, 45]) * 60_000);
  }
  const day = shiftDay(FIRST_DAY, Math.floor(rand() * DAYS));
  return new Date(startOfLocalDay(day, ZONE).getTime() + Math.floor(rand() * 96) * 15 * 60_000);
}

const sessionsOf = async (c: Clinic): Promise<Row[]> =>
  (await t.rows<Row>(sql`select * from sessions where workspace_id = ${c.ws.id}`)).map((r) => ({
    ...r,
    // Raw statements give instants as text on one driver and as dates on the other.
    starts_at: new Date(r.starts_at),
    ends_at: new Date(r.ends_at),
  }));

async function insert(c: Clinic, n: number) {
  const values = Array.from({ length: n }, () => {
    const start = randomStart();
    const [therapist, patient] = rand() < 0.5 ? [c.tere.userId, c.ana] : [c.tomas.userId, c.bruno];
    const price = pick([5000, 5555, 6000, 0]);
    return sql`(${c.ws.id}, ${patient}, ${therapist}, ${start.toISOString()}::timestamptz,
      ${new Date(start.getTime() + pick([30, 50, 60, 90]) * 60_000).toISOString()}::timestamptz, ${ZONE}, ${price},
      ${rand() < 0.5 ? Math.round(price * 0.6) : null}::int, 'therapist', ${pick(['presential', 'online'])})`;
  });
  await t.rows(sql`insert into sessions (workspace_id, patient_id, therapist_id, starts_at, ends_at, time_zone, price, fee, payments_receiver, modality)
    values ${sql.join(values, sql`, `)}`);
}

/** One random write of one or several sessions of `c`. */
async function write(c: Clinic) {
  const rows = await sessionsOf(c);
  if (rows.length < 20 || rand() < 0.15) return insert(c, 1 + Math.floor(rand() * 12));
  const some = rows.filter(() => rand() < (rand() < 0.3 ? 0.2 : 0.02)).map((r) => r.id);
  if (!some.length) some.push(pick(rows).id);
  const ids = sql`id in (${sql.join(
    some.map((id) => sql`${id}`),
    sql`, `,
  )})`;
  switch (pick(['move', 'cancel', 'complete', 'invoice', 'reprice', 'handover', 'reopen', 'delete'] as const)) {
    case 'move': {
      const shift = pick([-1440, -60, -30, 30, 60, 1440, 40320]) * 60_000;
      return t.rows(sql`update sessions set starts_at = starts_at + ${`${shift} milliseconds`}::interval,
        ends_at = ends_at + ${`${shift} milliseconds`}::interval where ${ids}`);
    }
    case 'cancel':
      return t.rows(sql`update sessions set status = 'canceled', cancellation_reason = ${pick(['patient', 'therapist', 'no_show', 'late', null])}
        where ${ids}`);
    case 'complete':
      return t.rows(sql`update sessions set status = 'completed', cancellation_reason = null where ${ids}`);
    case 'invoice':
      return t.rows(sql`update sessions set invoiced = ${rand() < 0.8} where ${ids}`);
    case 'reprice':
      return t.rows(sql`update sessions set price = ${pick([4000, 7000])}, fee = ${pick([null, 2000])}::int where ${ids}`);
    case 'handover':
      return t.rows(sql`update sessions set therapist_id = case when therapist_id = ${c.tere.userId}::uuid
        then ${c.tomas.userId}::uuid else ${c.tere.userId}::uuid end where ${ids}`);
    case 'reopen':
      // What the statistics never read (a reminder) changes nothing, and a session back to pending does.
      return t.rows(sql`update sessions set reminders = '[60]'::jsonb, status = case when status = 'canceled' then 'pending' else status end,
        cancellation_reason = null where ${ids}`);
    case 'delete':
      return t.rows(sql`delete from sessions where ${ids}`);
  }
}

/** Madrid's day, ISO weekday and hour of an instant: this file's own clock, not the database's. */
const parts = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
  weekday: 'short',
});
function local(d: Date) {
  const p = Object.fromEntries(parts.formatToParts(d).map((x) => [x.type, x.value]));
  return {
    day: `${p.year}-${p.month}-${p.day}`,
    hour: Number(p.hour),
    weekday: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(p.weekday!) + 1,
  };
}

/** What the port must answer, counted here from the rows. */
function expected(rows: Row[]) {
  const live = rows.filter((r) => r.status !== 'canceled');
  const count = (f: (r: Row) => boolean) => rows.filter(f).length;
  const sum = (xs: Row[], f: (r: Row) => number) => xs.reduce((n, r) => n + f(r), 0);
  const completed = rows.filter((r) => r.status === 'completed');
  const uninvoiced = completed.filter((r) => !r.invoiced);
  const pending = rows.filter((r) => r.status === 'pending');
  return {
    scheduled: rows.length,
    pending: pending.length,
    completed: completed.length,
    canceled: count((r) => r.status === 'canceled'),
    byPatient: count((r) => r.cancellation_reason === 'patient'),
    byTherapist: count((r) => r.cancellation_reason === 'therapist'),
    late: count((r) => r.cancellation_reason === 'late'),
    noShow: count((r) => r.cancellation_reason === 'no_show'),
    none: count((r) => r.status === 'canceled' && r.cancellation_reason === null),
    online: count((r) => r.status !== 'canceled' && r.modality === 'online'),
    presential: count((r) => r.status !== 'canceled' && r.modality === 'presential'),
    bookedMinutes: Math.round(sum(live, (r) => (r.ends_at.getTime() - r.starts_at.getTime()) / 60_000)),
    feeCents: sum(completed, (r) => r.fee ?? 0),
    commissionCents: sum(completed, (r) => (r.fee === null ? 0 : r.price - r.fee)),
    uninvoiced: uninvoiced.length,
    uninvoicedCents: sum(uninvoiced, (r) => r.price),
    pendingCents: sum(pending, (r) => r.price),
  };
}

function expectedCalendar(rows: Row[]) {
  const days = new Map<string, { day: string; completed: number; pending: number; canceled: number }>();
  const cells = new Map<number, { weekday: number; hour: number; count: number }>();
  for (const r of rows) {
    const l = local(r.starts_at);
    const d = days.get(l.day) ?? days.set(l.day, { day: l.day, completed: 0, pending: 0, canceled: 0 }).get(l.day)!;
    d[r.status]++;
    if (r.status === 'canceled') continue;
    const k = (l.weekday - 1) * 24 + l.hour;
    (cells.get(k) ?? cells.set(k, { weekday: l.weekday, hour: l.hour, count: 0 }).get(k)!).count++;
  }
  return {
    days: [...days.values()].sort((x, y) => x.day.localeCompare(y.day)),
    cells: [...cells.entries()].sort(([x], [y]) => x - y).map(([, c]) => c),
  };
}

/** A random period of days: any, or whole months (where the summary answers). */
function randomPeriod(): { fromDay: string; toDay: string } {
  if (rand() < 0.4) {
    const first = pick(['2025-11-01', '2025-12-01', '2026-01-01', '2026-02-01']);
    const months = 1 + Math.floor(rand() * 3);
    const next = new Date(`${first}T12:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + months);
    return { fromDay: first, toDay: shiftDay(next.toISOString().slice(0, 10), -1) };
  }
  const fromDay = shiftDay(FIRST_DAY, Math.floor(rand() * (DAYS - 10)));
  return { fromDay, toDay: shiftDay(fromDay, Math.floor(rand() * 150)) };
}

async function checkPeriods(round: number) {
  for (let i = 0; i < 6; i++) {
    const c = pick([a, b]);
    const therapistId = pick([undefined, c.tere.userId, c.tomas.userId]);
    const { fromDay, toDay } = randomPeriod();
    const span = { fromDay, toDay, from: startOfLocalDay(fromDay, ZONE), to: startOfLocalDay(shiftDay(toDay, 1), ZONE) };
    const rows = (await sessionsOf(c)).filter(
      (r) => (!therapistId || r.therapist_id === therapistId) && r.starts_at >= span.from && r.starts_at < span.to,
    );
    const f = { workspaceId: c.ws.id, ...(therapistId ? { therapistId } : {}) };
    const what = `round ${round}, ${fromDay}–${toDay}, ${therapistId ?? 'whole workspace'}, ${monthPlan(span, ZONE).months.length} whole months`;
    expect(await stats.totals(f, span), what).toEqual(expected(rows));
    const cal = await stats.calendar(f, span, ZONE);
    expect({ days: [...cal.days].sort((x, y) => x.day.localeCompare(y.day)), cells: cal.cells }, what).toEqual(expectedCalendar(rows));
    const per = (await stats.byTherapist(f, span)).sort((x, y) => x.therapistId.localeCompare(y.therapistId));
    const want = [...new Set(rows.map((r) => r.therapist_id))].sort().map((id) => {
      const e = expected(rows.filter((r) => r.therapist_id === id));
      return {
        therapistId: id,
        scheduled: e.scheduled,
        completed: e.completed,
        canceled: e.canceled,
        noShows: e.noShow,
        bookedMinutes: e.bookedMinutes,
        feeCents: e.feeCents,
        commissionCents: e.commissionCents,
      };
    });
    expect(per, what).toEqual(want);
  }
}

/** After a refresh: every month's summary row is the rows of that month, counted here. */
async function checkSummary(c: Clinic) {
  expect(await t.rows(sql`select id from session_stats_dirty where workspace_id = ${c.ws.id}`)).toEqual([]);
  const summary = await t.rows<{
    therapist_id: string;
    month: string;
    scheduled: number;
    completed: number;
    fee_cents: number;
    heat: number[] | string;
  }>(
    sql`select therapist_id, to_char(month, 'YYYY-MM') as month, scheduled, completed, fee_cents, heat::text as heat
        from session_month_stats where workspace_id = ${c.ws.id} order by month, therapist_id`,
  );
  const groups = new Map<string, Row[]>();
  for (const r of await sessionsOf(c)) {
    const key = `${local(r.starts_at).day.slice(0, 7)} ${r.therapist_id}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const want = [...groups.entries()]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([key, rows]) => {
      const [month, therapist_id] = key.split(' ') as [string, string];
      const e = expected(rows);
      const heat = new Array<number>(168).fill(0);
      for (const cell of expectedCalendar(rows).cells) heat[(cell.weekday - 1) * 24 + cell.hour] = cell.count;
      return { therapist_id, month, scheduled: e.scheduled, completed: e.completed, fee_cents: e.feeCents, heat: `{${heat.join(',')}}` };
    });
  expect(summary).toEqual(want);
}

beforeAll(async () => {
  t = await createTestApp();
  [a, b] = [await clinic(t, 'resumen-a'), await clinic(t, 'resumen-b')];
  stats = new SessionStats(t.app.services.database.db);
  await insert(a, 80);
  await insert(b, 40);
}, 120_000);
afterAll(() => t?.close());

describe('the summary of months equals the rows', () => {
  it('after random writes, refreshed or not, for random periods, therapists and workspaces', async () => {
    const months = t.app.services.sessionMonthStats;
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 12; i++) await write(pick([a, a, b]));
      // Now and then refreshed (one workspace, or all), else read with its stale months from the rows.
      const refresh = pick(['none', 'a', 'all'] as const);
      if (refresh === 'a') await months.refresh(a.ws.id);
      if (refresh === 'all') await months.refreshAll();
      await checkPeriods(round);
      if (refresh === 'a') await checkSummary(a);
      if (refresh === 'all') for (const c of [a, b]) await checkSummary(c);
    }
    await months.refreshAll();
    for (const c of [a, b]) await checkSummary(c);
    await checkPeriods(99);
    // The other workspace's summary never holds this one's sessions.
    const [crossed] = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from session_month_stats m where workspace_id = ${a.ws.id}
          and therapist_id not in (${a.tere.userId}, ${a.tomas.userId})`,
    );
    expect(crossed!.n).toBe(0);
  }, 180_000);

  it('a write the statistics do not count marks no month; a session moved across months marks both', async () => {
    const months = t.app.services.sessionMonthStats;
    await months.refreshAll();
    const [s] = await sessionsOf(a);
    await t.rows(sql`update sessions set reminders = '[1440]'::jsonb, updated_at = now() where id = ${s!.id}`);
    expect(await t.rows(sql`select month from session_stats_dirty`)).toEqual([]);
    const from = local(s!.starts_at).day.slice(0, 7);
    await t.rows(
      sql`update sessions set starts_at = starts_at + interval '40 days', ends_at = ends_at + interval '40 days' where id = ${s!.id}`,
    );
    const to = local(new Date(s!.starts_at.getTime() + 40 * 86_400_000)).day.slice(0, 7);
    const marked = await t.rows<{ month: string }>(
      sql`select distinct to_char(month, 'YYYY-MM') as month from session_stats_dirty order by 1`,
    );
    expect(marked.map((m) => m.month)).toEqual([...new Set([from, to])].sort());
    expect(await months.refresh(a.ws.id)).toBe(marked.length);

    // Each column the statistics count, changed alone, marks the session's month; read at once, the
    // period answers the change (from the rows), and the refreshed summary again equals the rows.
    const changes = {
      status: sql`status = case when status = 'completed' then 'pending' else 'completed' end, cancellation_reason = null`,
      cancellation_reason: sql`status = 'canceled', cancellation_reason = case when cancellation_reason = 'late' then 'patient' else 'late' end`,
      modality: sql`modality = case when modality = 'online' then 'presential' else 'online' end`,
      price: sql`price = price + 100`,
      fee: sql`fee = case when fee is null then 1000 else null end`,
      invoiced: sql`invoiced = not invoiced`,
      ends_at: sql`ends_at = ends_at + interval '15 minutes'`,
      therapist_id: sql`therapist_id = case when therapist_id = ${a.tere.userId}::uuid then ${a.tomas.userId}::uuid else ${a.tere.userId}::uuid end`,
    };
    for (const [column, set] of Object.entries(changes)) {
      const [one] = await sessionsOf(a);
      const month = local(one!.starts_at).day.slice(0, 7);
      await t.rows(sql`update sessions set ${set} where id = ${one!.id}`);
      const dirty = await t.rows<{ month: string }>(sql`select distinct to_char(month, 'YYYY-MM') as month from session_stats_dirty`);
      expect(
        dirty.map((m) => m.month),
        column,
      ).toEqual([month]);
      const fromDay = `${month}-01`;
      // The month's last day: the day before the first of the next (40 days on is always next month).
      const toDay = shiftDay(`${shiftDay(fromDay, 40).slice(0, 8)}01`, -1);
      const span = { fromDay, toDay, from: startOfLocalDay(fromDay, ZONE), to: startOfLocalDay(shiftDay(toDay, 1), ZONE) };
      const rows = (await sessionsOf(a)).filter((r) => r.starts_at >= span.from && r.starts_at < span.to);
      expect(await stats.totals({ workspaceId: a.ws.id }, span), column).toEqual(expected(rows));
      await months.refresh(a.ws.id);
      expect(await stats.totals({ workspaceId: a.ws.id }, span), column).toEqual(expected(rows));
      await checkSummary(a);
    }
  });
});
