import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  shiftDay,
  todayIn,
  type Invoice,
  type InvoiceBatchPreview,
  type InvoiceBatchStatus as InvoiceBatch,
  type InvoiceSettings,
  type Session,
} from '@divan/core';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../../test/session-fixtures';
import { createWorkspace, therapist, type Therapist } from '../../../test/workspace-fixtures';

let t: TestApp;
let c: Clinic;
const today = todayIn('Europe/Madrid');
const B = () => `${W(c.ws.id)}/invoice-batches`;
const period = { from: today, to: shiftDay(today, 30) };
const OLGA_INCOMPLETE = 'Completa los datos de facturación de Olga (nombre y NIF) en Ajustes › Datos de facturación.';

async function completed(who: Therapist, patientId: string, therapistId: string, n: number) {
  const made = await t.post(
    `${W(c.ws.id)}/sessions`,
    { patientId, therapistId, day: nextWeek(n), from: '12:00', to: '12:50' },
    { token: who.accessToken },
  );
  expect(made.statusCode, made.body).toBe(201);
  const id = (made.json() as { session: Session }).session.id;
  expect((await t.post(`${W(c.ws.id)}/sessions/${id}/complete`, undefined, { token: who.accessToken })).statusCode).toBe(200);
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'lotes');
  expect(
    (await t.put('/api/v1/me/billing', { fullName: 'Teresa Terapeuta', taxId: '12345678Z' }, { token: c.tere.accessToken })).statusCode,
  ).toBe(200);
  expect(
    (await t.put(`${W(c.ws.id)}/billing-info`, { fullName: 'Clínica Lotes SL', taxId: 'B12345674' }, { token: c.owner.accessToken }))
      .statusCode,
  ).toBe(200);
}, 60_000);
afterAll(() => t?.close());

describe('batch invoices', () => {
  it('previews one invoice per patient and therapist, then issues them in a job whose progress can be polled', async () => {
    const ana = [await completed(c.owner, c.ana, c.tere.userId, 0), await completed(c.owner, c.ana, c.tere.userId, 1)];
    const bruno = await completed(c.owner, c.bruno, c.tomas.userId, 2);
    const preview = await t.post(`${B()}/preview`, period, { token: c.owner.accessToken });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ invoices: 2, sessions: 3, totalCents: 6000 * 2 + 5555, refused: 0, issuersIncomplete: [] });
    // Each invoice names its patient, its therapist and who issues it (§6: Tomás's sessions are the clinic's to invoice).
    expect(
      (preview.json() as InvoiceBatchPreview).items.map((i) => [i.patient.name, i.therapist.name, i.issuer.kind, i.issuer.name, i.problem]),
    ).toEqual([
      ['Ana Prueba', 'Tere', 'therapist', 'Teresa Terapeuta', null],
      ['Bruno Prueba', 'Tomás', 'workspace', 'Clínica Lotes SL', null],
    ]);

    const res = await t.post(B(), period, { token: c.owner.accessToken });
    expect(res.statusCode, res.body).toBe(202);
    const id = (res.json() as InvoiceBatch).id;
    let batch: InvoiceBatch | undefined;
    await expect
      .poll(
        async () => {
          batch = (await t.get(`${B()}/${id}`, { token: c.owner.accessToken })).json() as InvoiceBatch;
          return batch.status;
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe('done');
    expect(batch).toMatchObject({ total: 2, done: 2, errors: [] });
    expect(batch!.invoiceIds).toHaveLength(2);
    for (const s of [...ana, bruno])
      expect(((await t.get(`${W(c.ws.id)}/sessions/${s}`, { token: c.owner.accessToken })).json() as Session).invoiced).toBe(true);
    const numbers = await Promise.all(
      batch!.invoiceIds.map(
        async (i) =>
          ((await t.get(`${W(c.ws.id)}/invoices/${i}`, { token: c.owner.accessToken })).json() as { number: string; sellerType: string })
            .sellerType,
      ),
    );
    expect(numbers.sort()).toEqual(['therapist', 'workspace']);
    // Nothing is left to invoice in the period.
    expect(((await t.post(B(), period, { token: c.owner.accessToken })).json() as { code: string }).code).toBe('invoice_batch_empty');
  });

  it('an invoice that would fail is left out of its chunk before anything is written: the others issued, the numbers and chains gapless, the failure listed', async () => {
    // Olga (the owner) invoices as herself and has no billing data: her patient's invoice fails; the others share its chunk.
    const paula = await c.patient('Paula', c.owner.userId, 7000);
    const carla = await c.patient('Carla', c.tere.userId, 6500);
    const ok = [
      await completed(c.owner, carla, c.tere.userId, 8),
      await completed(c.owner, c.ana, c.tere.userId, 9),
      await completed(c.owner, c.bruno, c.tomas.userId, 10),
    ];
    const failing = await completed(c.owner, paula, c.owner.userId, 7);
    const res = await t.post(B(), period, { token: c.owner.accessToken });
    expect(res.statusCode, res.body).toBe(202);
    const id = (res.json() as InvoiceBatch).id;
    let batch: InvoiceBatch | undefined;
    await expect
      .poll(async () => (batch = (await t.get(`${B()}/${id}`, { token: c.owner.accessToken })).json() as InvoiceBatch).status, {
        timeout: 20_000,
        interval: 200,
      })
      .toBe('done');
    // The failure names the patient and the issuer, and where the issuer's data is completed.
    expect(batch).toMatchObject({
      total: 4,
      done: 4,
      errors: [{ patientId: paula, patientName: 'Paula Prueba', message: OLGA_INCOMPLETE }],
    });
    expect(batch!.invoiceIds).toHaveLength(3);
    for (const s of ok)
      expect(((await t.get(`${W(c.ws.id)}/sessions/${s}`, { token: c.owner.accessToken })).json() as Session).invoiced).toBe(true);
    expect(((await t.get(`${W(c.ws.id)}/sessions/${failing}`, { token: c.owner.accessToken })).json() as Session).invoiced).toBe(false);
    expect(await t.rows(sql`select id from invoices where patient_id = ${paula}`)).toEqual([]);
    // Every series of the workspace is 1…n with its counter at n; every chain 1…n, each record on the one before.
    const series = await t.rows<{ seller_key: string; seqs: number[]; last: number }>(sql`
      select i.seller_key, array_agg(i.sequence order by i.sequence) as seqs, max(c.last) as last from invoices i
      join invoice_counters c on c.seller_key = i.seller_key and c.kind = i.kind and c.year = extract(year from i.issue_date) and c.prefix = ''
      where i.workspace_id = ${c.ws.id} and i.status = 'issued' group by i.seller_key`);
    expect(series.length).toBeGreaterThanOrEqual(2);
    for (const s of series) expect([s.seqs, s.last]).toEqual([s.seqs.map((_, i) => i + 1), s.seqs.length]);
    const broken = await t.rows(sql`
      select * from (select position, row_number() over w as n, previous_fingerprint, lag(fingerprint) over w as before
        from verifactu_records where workspace_id = ${c.ws.id} window w as (partition by issuer_tax_id order by position)) r
      where r.position <> r.n or r.previous_fingerprint is distinct from r.before`);
    expect(broken).toEqual([]);
  });

  it('refuses at preview what issuing would refuse, the issuer’s missing data first, and «Emitir» issues nothing then', async () => {
    // Only Olga's sessions are left (Paula's, above): Olga invoices as herself and has no billing data.
    const mine = { ...period, therapistId: c.owner.userId };
    const res = await t.post(`${B()}/preview`, mine, { token: c.owner.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json() as InvoiceBatchPreview;
    expect(preview).toMatchObject({ invoices: 0, sessions: 0, totalCents: 0, refused: 1 });
    expect(preview.issuersIncomplete).toEqual([
      { kind: 'therapist', id: c.owner.userId, name: 'Olga', message: OLGA_INCOMPLETE, settingsPath: '/settings/billing' },
    ]);
    expect(preview.items.map((i) => [i.patient.name, i.issuer.name, i.totalCents, i.problem])).toEqual([
      ['Paula Prueba', 'Olga', 7000, { code: 'invoice_seller_incomplete', message: OLGA_INCOMPLETE }],
    ]);
    const refused = await t.post(B(), mine, { token: c.owner.accessToken });
    expect([refused.statusCode, (refused.json() as { code: string }).code, (refused.json() as { message: string }).message]).toEqual([
      409,
      'invoice_batch_nothing_issuable',
      `No se puede emitir ninguna factura de este lote. ${OLGA_INCOMPLETE}`,
    ]);
    expect(await t.rows(sql`select id from invoice_batches where workspace_id = ${c.ws.id} and therapist_id = ${c.owner.userId}`)).toEqual(
      [],
    );
  });

  it('a batch whose job issued nothing ends failed, not done, each error naming its patient', async () => {
    // Queued while it could be issued; by the time the job runs its only invoice cannot be (Olga's data is missing).
    const [row] = await t.rows<{ id: string }>(sql`
      insert into invoice_batches (workspace_id, created_by, "from", "to", therapist_id, total)
      values (${c.ws.id}, ${c.owner.userId}, ${period.from}, ${period.to}, ${c.owner.userId}, 1) returning id`);
    await t.app.services.jobs.send('invoices.batch', { batchId: row!.id });
    let batch: InvoiceBatch | undefined;
    await expect
      .poll(async () => (batch = (await t.get(`${B()}/${row!.id}`, { token: c.owner.accessToken })).json() as InvoiceBatch).status, {
        timeout: 20_000,
        interval: 200,
      })
      .toBe('failed');
    expect(batch).toMatchObject({ total: 1, done: 1, invoiceIds: [], errors: [{ patientName: 'Paula Prueba', message: OLGA_INCOMPLETE }] });
  });

  it('applies the date rules of §5 in Spanish', async () => {
    const bad = async (body: object) => {
      const r = await t.post(`${B()}/preview`, body, { token: c.owner.accessToken });
      return [r.statusCode, (r.json() as { fields?: { message: string }[] }).fields?.map((f) => f.message)];
    };
    expect(await bad({ from: today, to: shiftDay(today, -1) })).toEqual([400, ['La fecha de fin no puede ser anterior a la de inicio.']]);
    expect(await bad({ from: today, to: shiftDay(today, 120) })).toEqual([400, ['El periodo es demasiado largo: como mucho, tres meses.']]);
    expect(await bad({ from: shiftDay(today, -500), to: shiftDay(today, -480) })).toEqual([
      400,
      ['La fecha de inicio es demasiado antigua: como mucho, hace 400 días.'],
    ]);
  });

  it('refuses a Basic workspace with the spec’s message', async () => {
    const solo = await therapist(t, 'basica@lotes.test', 'Berta');
    const ws = await createWorkspace(t, solo, 'Consulta Básica', 'freelance');
    await t.app.services.workspaces.setPlan(ws.id, { id: 'basic', seats: 1 });
    const res = await t.post(`${W(ws.id)}/invoice-batches/preview`, period, { token: solo.accessToken });
    expect([res.statusCode, (res.json() as { message: string }).message]).toEqual([
      403,
      'Tu plan no permite la creación de lotes de facturas',
    ]);
  });
});

describe('automatic invoices (Advance and Team)', () => {
  const S = () => `${W(c.ws.id)}/invoice-settings`;
  const invoicesOf = async (sessionId: string) =>
    t.rows<{ id: string }>(
      sql`select distinct invoice_id as id from invoice_lines where session_id = ${sessionId} and invoice_id in (select id from invoices where status = 'issued')`,
    );
  const session = async (id: string) => (await t.get(`${W(c.ws.id)}/sessions/${id}`, { token: c.owner.accessToken })).json() as Session;
  /** Runs a job of the automatic invoices' queue by hand (a retry, a second delivery) and waits for it. */
  async function runAgain(data: object) {
    const id = await t.app.services.jobs.send('invoices.auto', data);
    await expect
      .poll(async () => (await t.rows<{ state: string }>(sql`select state from pgboss.job where id = ${id}`))[0]?.state, {
        timeout: 20_000,
        interval: 100,
      })
      .toBe('completed');
  }

  it('is off by default; on, a completed session gets its invoice (one line, the patient as buyer) once, however often the job runs', async () => {
    expect((await t.get(S(), { token: c.tere.accessToken })).json()).toEqual({ autoInvoice: false, autoInvoiceAllowed: true, skipped: [] });
    const on = await t.put(S(), { autoInvoice: true }, { token: c.tere.accessToken });
    expect(on.statusCode, on.body).toBe(200);
    expect((on.json() as InvoiceSettings).autoInvoice).toBe(true);

    const id = await completed(c.tere, c.ana, c.tere.userId, 3);
    await expect.poll(async () => (await session(id)).invoiced, { timeout: 20_000, interval: 100 }).toBe(true);
    const [one, ...more] = await invoicesOf(id);
    expect(more).toEqual([]);
    const invoice = (await t.get(`${W(c.ws.id)}/invoices/${one!.id}`, { token: c.tere.accessToken })).json() as Invoice;
    expect(invoice).toMatchObject({
      status: 'issued',
      sellerType: 'therapist',
      patient: { id: c.ana },
      buyer: { kind: 'patient' },
      totalCents: 6000,
      seller: { taxId: '12345678Z' },
    });
    expect(invoice.lines.map((l) => l.sessionId)).toEqual([id]);

    // A retried or doubled job, and completing the session again, leave that one invoice.
    await runAgain({ sessionId: id, workspaceId: c.ws.id, therapistId: c.tere.userId, patientId: c.ana });
    expect((await t.post(`${W(c.ws.id)}/sessions/${id}/complete`, undefined, { token: c.tere.accessToken })).statusCode).toBe(200);
    expect(await invoicesOf(id)).toHaveLength(1);
    // Someone else's setting does not invoice Tomás's sessions.
    const bruno = await completed(c.owner, c.bruno, c.tomas.userId, 4);
    await runAgain({ sessionId: bruno, workspaceId: c.ws.id, therapistId: c.tomas.userId, patientId: c.bruno });
    expect((await session(bruno)).invoiced).toBe(false);
  });

  it('leaves no invoice and says why when the seller has no tax data; the job does not fail', async () => {
    const otto = await c.patient('Otto', c.owner.userId, 7000);
    expect((await t.put(S(), { autoInvoice: true }, { token: c.owner.accessToken })).statusCode).toBe(200);
    const id = await completed(c.owner, otto, c.owner.userId, 5);
    let settings: InvoiceSettings | undefined;
    await expect
      .poll(async () => (settings = (await t.get(S(), { token: c.owner.accessToken })).json() as InvoiceSettings).skipped.length, {
        timeout: 20_000,
        interval: 100,
      })
      .toBe(1);
    expect(settings!.skipped[0]).toMatchObject({
      sessionId: id,
      reason: 'Completa los datos de facturación del emisor (nombre y NIF) antes de emitir.',
    });
    expect((await session(id)).invoiced).toBe(false);
    expect(await invoicesOf(id)).toEqual([]);
    expect(await t.rows(sql`select id from invoices where owner_id = ${c.owner.userId} and patient_id = ${otto}`)).toEqual([]);
  });

  it('a workspace downgraded to Basic stops invoicing automatically, and Basic cannot turn it on, with the spec’s message', async () => {
    await t.app.services.workspaces.setPlan(c.ws.id, { id: 'basic', seats: 10 });
    const id = await completed(c.tere, c.ana, c.tere.userId, 6);
    // No job was queued; one run by hand finds the plan changed, and says so.
    await runAgain({ sessionId: id, workspaceId: c.ws.id, therapistId: c.tere.userId, patientId: c.ana });
    expect((await session(id)).invoiced).toBe(false);
    const settings = (await t.get(S(), { token: c.tere.accessToken })).json() as InvoiceSettings;
    expect(settings).toMatchObject({ autoInvoice: true, autoInvoiceAllowed: false });
    expect(settings.skipped.map((s) => [s.sessionId, s.reason])).toEqual([[id, 'Tu plan no permite la creación de facturas automáticas']]);
    expect((await t.put(S(), { autoInvoice: false }, { token: c.tere.accessToken })).statusCode).toBe(200);
    const refused = await t.put(S(), { autoInvoice: true }, { token: c.tere.accessToken });
    expect([refused.statusCode, (refused.json() as { code: string; message: string }).message]).toEqual([
      403,
      'Tu plan no permite la creación de facturas automáticas',
    ]);
  });
});
