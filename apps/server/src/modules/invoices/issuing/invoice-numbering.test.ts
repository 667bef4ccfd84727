// Gapless numbering and one unbroken VERI*FACTU chain, under real concurrency (PostgreSQL, two server
// processes) and across a rolled-back issue (both databases).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Invoice } from '@divan/core';
import { createSecondApp, createTestApp, type TestApp } from '../../../test/test-app';
import { clinic, W, type Clinic } from '../../../test/session-fixtures';
import { issueAndRecord } from './invoice-ledger.queries';
import { registrationFingerprint, registrationHashParts } from '../verifactu/fingerprint';

let t: TestApp;
let c: Clinic;
const TAX_ID = '00000000T';
const I = () => `${W(c.ws.id)}/invoices`;

async function draft(app: TestApp, i: number): Promise<Invoice> {
  const res = await app.post(
    I(),
    { patientId: c.ana, lines: [{ description: `Sesión ${i}`, unitPriceCents: 4000 + i }] },
    { token: c.tere.accessToken },
  );
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as Invoice;
}
type Rec = {
  position: string;
  fingerprint: string;
  previous_fingerprint: string | null;
  invoice_number: string;
  issue_date: string;
  invoice_type: string;
  vat_total: number;
  total: number;
  generated_at: string;
};
const chain = () => t.rows<Rec>(sql`select * from verifactu_records where issuer_tax_id = ${TAX_ID} order by position`);
const numbers = async () =>
  (
    await t.rows<{ sequence: number }>(
      sql`select sequence from invoices where seller_key = ${`user:${c.tere.userId}`} and status = 'issued' order by sequence`,
    )
  ).map((r) => r.sequence);

/** FechaHoraHusoGenRegistro along the chain: each record's no earlier than the one it chains on. */
function expectTimesNeverDecrease(records: Pick<Rec, 'position' | 'generated_at'>[]) {
  const backwards = records.filter((r, i) => i > 0 && Date.parse(r.generated_at) < Date.parse(records[i - 1]!.generated_at));
  expect(backwards.map((r) => [Number(r.position), r.generated_at])).toEqual([]);
}

/** The lock waits of this database's sessions, for a test to know a statement is queued. */
async function lockWaits(atLeast: number) {
  for (let i = 0; i < 400; i++) {
    const [w] = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
    );
    if (w!.n >= atLeast) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no statement waiting for a lock (${atLeast} expected)`);
}

/** Every record chains on the one before and its fingerprint is recomputed from its own fields. */
function expectUnbroken(records: Rec[]) {
  records.forEach((r, i) => {
    expect(Number(r.position)).toBe(i + 1);
    expect(r.previous_fingerprint).toBe(i === 0 ? null : records[i - 1]!.fingerprint);
    const again = registrationFingerprint({
      issuerTaxId: TAX_ID,
      number: r.invoice_number,
      issueDate: typeof r.issue_date === 'string' ? r.issue_date : new Date(r.issue_date).toISOString().slice(0, 10),
      invoiceType: r.invoice_type as 'F2',
      vatTotalCents: r.vat_total,
      totalCents: r.total,
      previousFingerprint: r.previous_fingerprint,
      generatedAt: r.generated_at,
    });
    expect(r.fingerprint).toBe(again);
  });
}

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'numeracion');
  const res = await t.put('/api/v1/me/billing', { fullName: 'Teresa Terapeuta', taxId: TAX_ID }, { token: c.tere.accessToken });
  expect(res.statusCode, res.body).toBe(200);
}, 60_000);
afterAll(() => t?.close());

describe('a rolled-back issue', () => {
  it('gives its number back: the next issue takes it, and the chain has no hole', async () => {
    const [a, b] = [await draft(t, 1), await draft(t, 2)];
    // The record's insert fails after the number was taken: the whole issue rolls back.
    await t.rows(sql.raw(`create function fail_record() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$`));
    await t.rows(sql.raw(`create trigger fail_record before insert on verifactu_records for each row execute function fail_record()`));
    const failed = await t.post(`${I()}/${a.id}/issue`, undefined, { token: c.tere.accessToken });
    await t.rows(sql.raw(`drop trigger fail_record on verifactu_records`));
    await t.rows(sql.raw(`drop function fail_record()`));
    expect(failed.statusCode).toBe(500);
    expect((await t.get(`${I()}/${a.id}`, { token: c.tere.accessToken })).json()).toMatchObject({ status: 'draft', number: null });
    const issued = (await t.post(`${I()}/${b.id}/issue`, undefined, { token: c.tere.accessToken })).json() as Invoice;
    expect(issued.number).toMatch(/-0001$/);
    expect(await numbers()).toEqual([1]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('200 invoices issued at once by two server processes (PostgreSQL)', () => {
  let second: TestApp;
  beforeAll(async () => {
    second = await createSecondApp(t);
  }, 60_000);
  afterAll(() => second?.close());

  it('get 200 consecutive numbers, no gap, no duplicate, and one unbroken chain', async () => {
    const before = (await numbers()).length;
    const drafts: Invoice[] = [];
    for (let i = 0; i < 200; i += 20) drafts.push(...(await Promise.all(Array.from({ length: 20 }, (_, j) => draft(t, 100 + i + j)))));
    const results = await Promise.all(
      drafts.map((d, i) => (i % 2 ? second : t).post(`${I()}/${d.id}/issue`, undefined, { token: c.tere.accessToken })),
    );
    expect(results.filter((r) => r.statusCode !== 200).map((r) => r.body)).toEqual([]);
    const got = results.map((r) => Number((r.json() as Invoice).number!.split('-')[1])).sort((x, y) => x - y);
    expect(got).toEqual(Array.from({ length: 200 }, (_, i) => before + i + 1));
    expect(await numbers()).toEqual(Array.from({ length: before + 200 }, (_, i) => i + 1));
    expectUnbroken(await chain());
    expectTimesNeverDecrease(await chain());
  }, 120_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('generation times along the chain (PostgreSQL)', () => {
  it('never decrease: an issue that arrived first but waited is chained, and timed, after one that came later', async () => {
    const original = (await t.post(`${I()}/${(await draft(t, 60)).id}/issue`, undefined, { token: c.tere.accessToken })).json() as Invoice;
    const waiting = await draft(t, 61);
    let letGo!: () => void;
    const go = new Promise<void>((r) => (letGo = r));
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    // Another issue of the ordinary series holds its counter…
    const holder = t.app.services.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from invoice_counters where seller_key = ${`user:${c.tere.userId}`} and kind = 'ordinary' for update`);
      holding();
      await go;
    });
    await held;
    // …so this issue queues behind it, having arrived first.
    const late = t.post(`${I()}/${waiting.id}/issue`, undefined, { token: c.tere.accessToken });
    await lockWaits(1);
    const queuedAt = Math.floor(Date.now() / 1000);
    while (Math.floor(Date.now() / 1000) <= queuedAt) await new Promise((r) => setTimeout(r, 25));
    // A rectifying invoice (a series of its own, not held) comes a second later and is chained first.
    const rect = await t.post(
      `${I()}/${original.id}/rectify`,
      { method: 'difference', reason: 'Importe erróneo' },
      { token: c.tere.accessToken },
    );
    expect(rect.statusCode, rect.body).toBe(201);
    letGo();
    await holder;
    const issued = await late;
    expect(issued.statusCode, issued.body).toBe(200);
    const records = await t.rows<Rec & { invoice_id: string }>(
      sql`select * from verifactu_records where issuer_tax_id = ${TAX_ID} order by position`,
    );
    const at = (id: string) => records.findIndex((r) => r.invoice_id === id);
    expect(at((rect.json() as Invoice).id)).toBe(at(waiting.id) - 1);
    expectTimesNeverDecrease(records);
  });
});

describe('the chain as recorded', () => {
  it('recomputes every fingerprint from its record’s own fields', async () => {
    expectUnbroken(await chain());
  });
});

describe('a series past 9,999', () => {
  it('writes every digit of the number (never cut to four), and audits the issue', async () => {
    const d = await draft(t, 9);
    await t.rows(sql`update invoice_counters set last = 9999 where seller_key = ${`user:${c.tere.userId}`} and kind = 'ordinary'`);
    const res = await t.post(`${I()}/${d.id}/issue`, undefined, { token: c.tere.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    const issued = res.json() as Invoice;
    expect(issued.number).toMatch(/^\d{4}-10000$/);
    expect((await t.get(`${I()}/${d.id}`, { token: c.tere.accessToken })).json()).toMatchObject({
      status: 'issued',
      number: issued.number,
    });
    const [audit] = await t.rows<{ action: string; details: { number: string } }>(
      sql`select action, details from audit_events where target = ${d.id}`,
    );
    expect(audit).toMatchObject({ action: 'invoice.issued', details: { number: issued.number } });
    expectUnbroken(await chain());
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('a record written while another waits for the chain (PostgreSQL)', () => {
  // Last: it adds a cancellation to the chain, which `expectUnbroken` (registrations only) does not read.
  it('is the one the waiting cancellation chains on, though it was not in that statement’s snapshot', async () => {
    const first = (await t.post(`${I()}/${(await draft(t, 50)).id}/issue`, undefined, { token: c.tere.accessToken })).json() as Invoice;
    const second = await draft(t, 51);
    const db = t.app.services.database.db;
    let letGo!: () => void;
    const go = new Promise<void>((r) => (letGo = r));
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    // An issue in flight: it holds the head, then appends the second invoice's record and commits.
    const inFlight = db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from verifactu_chains where issuer_tax_id = ${TAX_ID} for update`);
      holding();
      await go;
      const at = { issuerTaxId: TAX_ID, issueDate: first.issueDate!, invoiceType: 'F2' as const, vatTotalCents: 0, totalCents: 4051 };
      const year = Number(first.issueDate!.slice(0, 4));
      return issueAndRecord(
        tx,
        { sellerKey: `user:${c.tere.userId}`, kind: 'ordinary', year, prefix: '' },
        second.id,
        {
          status: 'issued',
          series: String(year),
          issueDate: at.issueDate,
          issuedAt: new Date(),
          seller: null,
          buyer: null,
          updatedAt: new Date(),
        },
        {
          issuerTaxId: TAX_ID,
          issuerName: 'Teresa Terapeuta',
          recordType: 'registration',
          invoiceId: second.id,
          workspaceId: c.ws.id,
          issueDate: at.issueDate,
          invoiceType: 'F2',
          vatTotal: 0,
          total: 4051,
          hashParts: registrationHashParts(at),
          detail: {},
        },
      );
    });
    await held;
    const voiding = t.post(`${I()}/${first.id}/void`, { reason: 'Emitida dos veces por error' }, { token: c.tere.accessToken });
    // The cancellation's statement is queued on the head's lock before the record it must chain on exists.
    await lockWaits(1);
    letGo();
    const appended = await inFlight;
    expect((await voiding).statusCode).toBe(200);
    const [cancel] = await t.rows<{ previous_fingerprint: string; detail: { previous: { number: string } } }>(
      sql`select previous_fingerprint, detail from verifactu_records where invoice_id = ${first.id} and record_type = 'cancellation'`,
    );
    expect(cancel).toMatchObject({ previous_fingerprint: appended.record.fingerprint, detail: { previous: { number: appended.number } } });
  });
});
