import { shiftDay, startOfLocalDay } from '@divan/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthPlan } from '../../platform/db/month-summary';
import { createTestApp, type TestApp } from '../../test/test-app';
import { clinic, type Clinic } from '../../test/session-fixtures';
import type { InvoiceStatsFilter } from './invoice-counting.queries';
import { invoiceStatsQueries } from './invoice-stats.queries';
import type { InvoiceScope } from './invoices.repository';

/**
 * The invoices' summary of months (issue 28) against the rows, on both databases: random writes of
 * every kind the invoices table lets happen (drafts written, issued and deleted; invoices issued
 * straight, paid, refunded, paid back to pending, voided; rectifying invoices by substitution and by
 * difference; one row or many per statement; issue days and payment instants around local month ends),
 * refreshed now and then, fully or not at all. After each round, random periods, scopes and therapists
 * of random workspaces read through the queries equal what this file counts from the rows itself (in
 * JavaScript, with its own clock of Madrid), and a refreshed summary equals the rows month by month.
 */
let t: TestApp;
let a: Clinic;
let b: Clinic;

let seed = 0x1a7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

const ZONE = 'Europe/Madrid';
const FIRST_DAY = '2025-10-20';
const DAYS = 170;
const MONTH_ENDS = ['2025-11-01', '2025-12-01', '2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01'];

type Row = {
  id: string;
  owner_id: string;
  seller_type: 'therapist' | 'workspace';
  status: 'draft' | 'issued' | 'voided';
  kind: 'ordinary' | 'rectifying';
  issue_date: string | null;
  total: number;
  payment_status: 'pending' | 'paid' | 'refunded';
  payment_type: string | null;
  paid_at: Date | null;
  rectifies_id: string | null;
  rectification_method: 'difference' | 'substitution' | null;
};

const invoicesOf = async (c: Clinic): Promise<Row[]> =>
  (
    await t.rows<Row>(
      sql`select id, owner_id, seller_type, status, kind, to_char(issue_date, 'YYYY-MM-DD') as issue_date, total, payment_status,
            payment_type, paid_at, rectifies_id, rectification_method from invoices where workspace_id = ${c.ws.id}`,
    )
  ).map((r) => ({ ...r, paid_at: r.paid_at === null ? null : new Date(r.paid_at) }));

/** A day of the range, often the last or first of a month. */
function randomDay(): string {
  if (rand() < 0.3) return shiftDay(pick(MONTH_ENDS), pick([-1, 0]));
  return shiftDay(FIRST_DAY, Math.floor(rand() * DAYS));
}
/** An instant, often within an hour of a local month's end (where UTC and Madrid disagree on the month). */
function randomInstant(): Date {
  if (rand() < 0.4) return new Date(startOfLocalDay(pick(MONTH_ENDS), ZONE).getTime() + pick([-90, -30, -1, 0, 30, 61]) * 60_000);
  return new Date(startOfLocalDay(randomDay(), ZONE).getTime() + Math.floor(rand() * 1440) * 60_000);
}

let numbered = 0;
const numberCols = () => {
  numbered++;
  return sql`${'S'}, ${numbered}, ${`N-${numbered}`}`;
};

function sellerOf(c: Clinic) {
  const owner = rand() < 0.5 ? c.tere.userId : c.tomas.userId;
  const type = rand() < 0.7 ? 'therapist' : 'workspace';
  return { owner, type, key: type === 'therapist' ? `t:${owner}` : `w:${c.ws.id}` };
}

async function insertIssued(c: Clinic, n: number) {
  const values = Array.from({ length: n }, () => {
    const s = sellerOf(c);
    const paid = rand() < 0.5;
    const total = pick([6000, 5555, 12000, 0]);
    return sql`(${c.ws.id}, ${s.owner}, ${s.type}, ${s.key}, 'issued', 'ordinary', ${numberCols()}, ${randomDay()}::date, ${total}, ${total},
      ${paid ? 'paid' : 'pending'}, ${paid ? pick(['cash', 'card', 'transfer', null]) : null}, ${paid ? randomInstant().toISOString() : null}::timestamptz)`;
  });
  await t.rows(sql`insert into invoices (workspace_id, owner_id, seller_type, seller_key, status, kind, series, sequence, number, issue_date,
      subtotal, total, payment_status, payment_type, paid_at) values ${sql.join(values, sql`, `)}`);
}

async function insertDraft(c: Clinic) {
  const s = sellerOf(c);
  await t.rows(
    sql`insert into invoices (workspace_id, owner_id, seller_type, seller_key, total) values (${c.ws.id}, ${s.owner}, ${s.type}, ${s.key}, 4000)`,
  );
}

const idList = (ids: string[]) =>
  sql`id in (${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )})`;

/** One random write of one or several invoices of `c`. */
async function write(c: Clinic) {
  const rows = await invoicesOf(c);
  const issued = rows.filter((r) => r.status === 'issued');
  const some = (xs: Row[]) => {
    const chosen = xs.filter(() => rand() < (rand() < 0.3 ? 0.25 : 0.05)).map((r) => r.id);
    return chosen.length ? chosen : [pick(xs).id];
  };
  if (issued.length < 15 || rand() < 0.12) return insertIssued(c, 1 + Math.floor(rand() * 8));
  switch (pick(['draft', 'issueDraft', 'deleteDraft', 'pay', 'refund', 'unpay', 'void', 'rectify'] as const)) {
    case 'draft':
      return insertDraft(c);
    case 'issueDraft': {
      const draft = rows.find((r) => r.status === 'draft');
      if (!draft) return insertDraft(c);
      return t.rows(sql`update invoices set status = 'issued', series = 'S', sequence = ${++numbered}, number = ${`N-${numbered}`},
        issue_date = ${randomDay()}::date where id = ${draft.id}`);
    }
    case 'deleteDraft': {
      const draft = rows.find((r) => r.status === 'draft');
      return draft ? t.rows(sql`delete from invoices where id = ${draft.id}`) : insertDraft(c);
    }
    case 'pay':
      return t.rows(sql`update invoices set payment_status = 'paid', payment_type = ${pick(['cash', 'card', 'paypal', null])},
        paid_at = ${randomInstant().toISOString()}::timestamptz where ${idList(some(issued))}`);
    case 'refund':
      return t.rows(sql`update invoices set payment_status = 'refunded' where ${idList(some(issued))}`);
    case 'unpay':
      return t.rows(sql`update invoices set payment_status = 'pending', payment_type = null, paid_at = null where ${idList(some(issued))}`);
    case 'void':
      return t.rows(
        sql`update invoices set status = 'voided', voided_at = now(), void_reason = 'Emitida por error' where id = ${pick(issued).id}`,
      );
    case 'rectify': {
      const original = pick(issued.filter((r) => r.kind === 'ordinary').concat(issued.slice(0, 1)));
      const method = pick(['substitution', 'difference'] as const);
      const total = method === 'substitution' ? original.total - pick([500, 1000, original.total]) : -pick([500, 2000]);
      const s = await t.rows<{ seller_key: string }>(sql`select seller_key from invoices where id = ${original.id}`);
      const paid = rand() < 0.3;
      return t.rows(sql`insert into invoices (workspace_id, owner_id, seller_type, seller_key, status, kind, series, sequence, number, issue_date,
          subtotal, total, payment_status, payment_type, paid_at, rectifies_id, rectification_method, rectification_reason)
        values (${c.ws.id}, ${original.owner_id}, ${original.seller_type}, ${s[0]!.seller_key}, 'issued', 'rectifying', ${numberCols()},
          ${randomDay()}::date, ${total}, ${total}, ${paid ? 'paid' : 'pending'}, ${paid ? 'transfer' : null},
          ${paid ? randomInstant().toISOString() : null}::timestamptz, ${original.id}, ${method}, 'Importe corregido')`);
    }
  }
}

/** Madrid's month of an instant: this file's own clock. */
const monthOf = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit' }).format(d).slice(0, 7);

const visible = (scope: InvoiceScope, r: Row) =>
  (r.seller_type === 'workspace' && scope.workspace) ||
  (r.seller_type === 'therapist' &&
    (scope.therapist.kind === 'all' || (scope.therapist.kind === 'own' && scope.therapist.ownerId === r.owner_id)));

/** What the queries must answer, counted here from every row of the workspace. */
function expected(all: Row[], f: InvoiceStatsFilter, span: { fromDay: string; toDay: string; from: Date; to: Date }) {
  const rows = all.filter((r) => visible(f.scope, r) && (!f.therapistId || r.owner_id === f.therapistId));
  const byId = new Map(all.map((r) => [r.id, r]));
  const counted = (r: Row) =>
    r.kind === 'rectifying' && r.rectification_method === 'substitution' ? r.total - (byId.get(r.rectifies_id!)?.total ?? 0) : r.total;
  const issued = rows.filter((r) => r.status === 'issued' && r.issue_date! >= span.fromDay && r.issue_date! <= span.toDay);
  const collected = rows.filter(
    (r) => r.status === 'issued' && r.payment_status === 'paid' && r.paid_at! >= span.from && r.paid_at! < span.to,
  );
  const sum = (xs: Row[], f: (r: Row) => number) => xs.reduce((n, r) => n + f(r), 0);
  const group = <K extends string>(xs: Row[], key: (r: Row) => K) => {
    const m = new Map<K, Row[]>();
    for (const r of xs) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
    return m;
  };
  const months = [...new Set([...issued.map((r) => r.issue_date!.slice(0, 7)), ...collected.map((r) => monthOf(r.paid_at!))])].sort();
  const owners = [...new Set([...issued, ...collected].map((r) => r.owner_id))].sort();
  const types = group(collected, (r) => r.payment_type ?? 'other');
  return {
    totals: {
      issuedCents: sum(issued, counted),
      issuedCount: issued.length,
      collectedCents: sum(collected, (r) => r.total),
      collectedCount: collected.length,
    },
    byMonth: months.map((month) => ({
      month,
      issuedCents: sum(
        issued.filter((r) => r.issue_date!.startsWith(month)),
        counted,
      ),
      collectedCents: sum(
        collected.filter((r) => monthOf(r.paid_at!) === month),
        (r) => r.total,
      ),
    })),
    byPaymentType: [...types.entries()]
      .map(([key, xs]) => ({ key, cents: sum(xs, (r) => r.total), count: xs.length }))
      .sort((x, y) => x.key.localeCompare(y.key)),
    byOwner: owners.map((ownerId) => ({
      ownerId,
      issuedCents: sum(
        issued.filter((r) => r.owner_id === ownerId),
        counted,
      ),
      collectedCents: sum(
        collected.filter((r) => r.owner_id === ownerId),
        (r) => r.total,
      ),
    })),
  };
}

function randomPeriod(): { fromDay: string; toDay: string } {
  if (rand() < 0.4) {
    const first = pick(MONTH_ENDS.slice(0, 4));
    const next = new Date(`${first}T12:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + 1 + Math.floor(rand() * 3));
    return { fromDay: first, toDay: shiftDay(next.toISOString().slice(0, 10), -1) };
  }
  const fromDay = shiftDay(FIRST_DAY, Math.floor(rand() * (DAYS - 10)));
  return { fromDay, toDay: shiftDay(fromDay, Math.floor(rand() * 150)) };
}

function randomScope(c: Clinic): InvoiceScope {
  return pick<InvoiceScope>([
    { therapist: { kind: 'all' }, workspace: true },
    { therapist: { kind: 'own', ownerId: c.tere.userId }, workspace: false },
    { therapist: { kind: 'none' }, workspace: true },
    { therapist: { kind: 'all' }, workspace: false },
  ]);
}

async function checkPeriods(round: number) {
  const q = invoiceStatsQueries(t.app.services.database.db);
  for (let i = 0; i < 6; i++) {
    const c = pick([a, b]);
    const f: InvoiceStatsFilter = {
      workspaceId: c.ws.id,
      scope: randomScope(c),
      therapistId: pick([undefined, c.tere.userId, c.tomas.userId]),
    };
    const { fromDay, toDay } = randomPeriod();
    const span = { fromDay, toDay, from: startOfLocalDay(fromDay, ZONE), to: startOfLocalDay(shiftDay(toDay, 1), ZONE) };
    const want = expected(await invoicesOf(c), f, span);
    const what = `round ${round}, ${fromDay}–${toDay}, ${JSON.stringify(f.scope)} ${f.therapistId ?? ''}, ${monthPlan(span, ZONE).months.length} whole months`;
    expect(await q.totals(f, span), what).toEqual(want.totals);
    expect(
      (await q.byMonth(f, span)).sort((x, y) => x.month.localeCompare(y.month)),
      what,
    ).toEqual(want.byMonth);
    expect(
      (await q.collectedByPaymentType(f, span)).sort((x, y) => x.key.localeCompare(y.key)),
      what,
    ).toEqual(want.byPaymentType);
    expect(
      (await q.byOwner(f, span)).sort((x, y) => x.ownerId.localeCompare(y.ownerId)),
      what,
    ).toEqual(want.byOwner);
  }
}

/** After a refresh: every month's summary, added over its rows, is the workspace's invoices of that month. */
async function checkSummary(c: Clinic) {
  expect(await t.rows(sql`select id from invoice_stats_dirty where workspace_id = ${c.ws.id}`)).toEqual([]);
  const summary = await t.rows<{
    month: string;
    issued_cents: number;
    issued_count: number;
    collected_cents: number;
    collected_count: number;
  }>(
    sql`select to_char(month, 'YYYY-MM') as month, sum(issued_cents)::int as issued_cents, sum(issued_count)::int as issued_count,
          sum(collected_cents)::int as collected_cents, sum(collected_count)::int as collected_count
        from invoice_month_stats where workspace_id = ${c.ws.id} group by 1 order by 1`,
  );
  const rows = await invoicesOf(c);
  const everyone: InvoiceStatsFilter = { workspaceId: c.ws.id, scope: { therapist: { kind: 'all' }, workspace: true } };
  const whole = expected(rows, everyone, { fromDay: '2000-01-01', toDay: '2100-01-01', from: new Date(0), to: new Date('2100-01-01') });
  const count = (month: string) => {
    const m = expected(rows, everyone, {
      fromDay: `${month}-01`,
      toDay: shiftDay(`${shiftDay(`${month}-01`, 40).slice(0, 8)}01`, -1),
      from: startOfLocalDay(`${month}-01`, ZONE),
      to: startOfLocalDay(`${shiftDay(`${month}-01`, 40).slice(0, 8)}01`, ZONE),
    }).totals;
    return {
      month,
      issued_cents: m.issuedCents,
      issued_count: m.issuedCount,
      collected_cents: m.collectedCents,
      collected_count: m.collectedCount,
    };
  };
  expect(summary).toEqual(whole.byMonth.map((m) => count(m.month)));
}

beforeAll(async () => {
  t = await createTestApp();
  [a, b] = [await clinic(t, 'facturas-a'), await clinic(t, 'facturas-b')];
  await insertIssued(a, 30);
  await insertIssued(b, 15);
}, 120_000);
afterAll(() => t?.close());

describe('the invoices’ summary of months equals the rows', () => {
  it('after random writes, refreshed or not, for random periods, scopes, therapists and workspaces', async () => {
    const months = t.app.services.invoiceMonthStats;
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 12; i++) await write(pick([a, a, b]));
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
  }, 180_000);

  it('a draft marks no month; paying marks the month paid as well as the month issued', async () => {
    const months = t.app.services.invoiceMonthStats;
    await months.refreshAll();
    await insertDraft(a);
    await t.rows(sql`update invoices set total = 4100 where workspace_id = ${a.ws.id} and status = 'draft'`);
    expect(await t.rows(sql`select month from invoice_stats_dirty`)).toEqual([]);
    const [one] = (await invoicesOf(a)).filter((r) => r.status === 'issued' && r.issue_date!.startsWith('2025-11'));
    await t.rows(
      sql`update invoices set payment_status = 'paid', payment_type = 'card', paid_at = '2026-01-31T23:30:00Z' where id = ${one!.id}`,
    );
    const marked = await t.rows<{ month: string }>(
      sql`select distinct to_char(month, 'YYYY-MM') as month from invoice_stats_dirty order by 1`,
    );
    // 23:30 UTC on 31 January is 00:30 on 1 February in Madrid.
    expect(marked.map((m) => m.month)).toEqual(
      [...new Set(['2025-11', one!.paid_at ? monthOf(one!.paid_at) : '2025-11', '2026-02'])].sort(),
    );
    expect(await months.refresh(a.ws.id)).toBe(marked.length);
    await checkSummary(a);
  });
});
