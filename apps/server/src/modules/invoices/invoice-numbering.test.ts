// Gapless numbering and one unbroken VERI*FACTU chain, under real concurrency (PostgreSQL, two server
// processes) and across a rolled-back issue (both databases).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Invoice } from '@divan/core';
import { createSecondApp, createTestApp, type TestApp } from '../../test/test-app';
import { clinic, W, type Clinic } from '../../test/session-fixtures';
import { registrationFingerprint } from './verifactu/fingerprint';

let t: TestApp;
let c: Clinic;
const TAX_ID = '00000000T';
const I = () => `${W(c.ws.id)}/invoices`;

async function draft(app: TestApp, i: number): Promise<Invoice> {
  const res = await app.post(I(), { patientId: c.ana, lines: [{ description: `Sesión ${i}`, unitPriceCents: 4000 + i }] }, { token: c.tere.accessToken });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as Invoice;
}
type Rec = { position: string; fingerprint: string; previous_fingerprint: string | null; invoice_number: string; issue_date: string; invoice_type: string; vat_total: number; total: number; generated_at: string };
const chain = () => t.rows<Rec>(sql`select * from verifactu_records where issuer_tax_id = ${TAX_ID} order by position`);
const numbers = async () => (await t.rows<{ sequence: number }>(sql`select sequence from invoices where seller_key = ${`user:${c.tere.userId}`} and status = 'issued' order by sequence`)).map((r) => r.sequence);

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
    const results = await Promise.all(drafts.map((d, i) => (i % 2 ? second : t).post(`${I()}/${d.id}/issue`, undefined, { token: c.tere.accessToken })));
    expect(results.filter((r) => r.statusCode !== 200).map((r) => r.body)).toEqual([]);
    const got = results.map((r) => Number((r.json() as Invoice).number!.split('-')[1])).sort((x, y) => x - y);
    expect(got).toEqual(Array.from({ length: 200 }, (_, i) => before + i + 1));
    expect(await numbers()).toEqual(Array.from({ length: before + 200 }, (_, i) => i + 1));
    expectUnbroken(await chain());
  }, 120_000);
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
    expect((await t.get(`${I()}/${d.id}`, { token: c.tere.accessToken })).json()).toMatchObject({ status: 'issued', number: issued.number });
    const [audit] = await t.rows<{ action: string; details: { number: string } }>(sql`select action, details from audit_events where target = ${d.id}`);
    expect(audit).toMatchObject({ action: 'invoice.issued', details: { number: issued.number } });
    expectUnbroken(await chain());
  });
});
