import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { todayIn, type Invoice, type Session } from '@divan/core';
import { createTestApp, type TestApp } from '../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../test/session-fixtures';
import type { Therapist } from '../../test/workspace-fixtures';
import { registrationFingerprint } from './verifactu/fingerprint';

let t: TestApp;
let c: Clinic;
const year = Number(todayIn('Europe/Madrid').slice(0, 4));
const I = () => `${W(c.ws.id)}/invoices`;
const ok = async <T = Invoice>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as T;
};
const code = async (res: Promise<{ statusCode: number; json(): unknown }>) => {
  const r = await res;
  return [r.statusCode, (r.json() as { code: string }).code];
};
/** A completed session of the patient with the therapist. */
async function completed(who: Therapist, patientId: string, therapistId: string, n: number): Promise<Session> {
  const { session } = await ok<{ session: Session }>(
    t.post(`${W(c.ws.id)}/sessions`, { patientId, therapistId, day: nextWeek(n), from: '10:00', to: '10:50' }, { token: who.accessToken }),
    201,
  );
  return ok<Session>(t.post(`${W(c.ws.id)}/sessions/${session.id}/complete`, undefined, { token: who.accessToken }));
}
const issue = (who: Therapist, id: string) => ok(t.post(`${I()}/${id}/issue`, undefined, { token: who.accessToken }));

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'facturas');
  await ok(
    t.put(
      '/api/v1/me/billing',
      { fullName: 'Teresa Terapeuta', taxId: '12345678-z', line1: 'Calle Mayor 1', city: 'Madrid', zipCode: '28013', country: 'España' },
      { token: c.tere.accessToken },
    ),
  );
}, 60_000);
afterAll(() => t?.close());

describe('billing data', () => {
  it('keeps the therapist’s tax id normalised and refuses one whose control letter is wrong, in Spanish', async () => {
    expect(await ok(t.get('/api/v1/me/billing', { token: c.tere.accessToken }))).toMatchObject({
      fullName: 'Teresa Terapeuta',
      taxId: '12345678Z',
      withholdingRate: 15,
    });
    const bad = await t.put('/api/v1/me/billing', { taxId: '12345678A' }, { token: c.tere.accessToken });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('letra de control');
  });
});

describe('invoicing sessions', () => {
  let first: Invoice;
  it('drafts from completed sessions (exempt therapy, no number), then issues 0001 with its chained VERI*FACTU record', async () => {
    const s1 = await completed(c.tere, c.ana, c.tere.userId, 0);
    const s2 = await completed(c.tere, c.ana, c.tere.userId, 1);
    const draft = await ok(
      t.post(`${I()}/from-sessions`, { patientId: c.ana, sessionIds: [s1.id, s2.id] }, { token: c.tere.accessToken }),
      201,
    );
    expect(draft).toMatchObject({
      status: 'draft',
      number: null,
      sellerType: 'therapist',
      subtotalCents: 12000,
      vatCents: 0,
      withholdingCents: 0,
      totalCents: 12000,
    });
    expect(draft.lines.map((l) => [l.vatRate, l.exemption, l.sessionId])).toEqual([
      [0, 'E1', s1.id],
      [0, 'E1', s2.id],
    ]);
    expect(draft.legends[0]).toMatch(/exenta de IVA.*20\.Uno\.3º.*Ley 37\/1992/);
    expect((await ok<Session>(t.get(`${W(c.ws.id)}/sessions/${s1.id}`, { token: c.tere.accessToken }))).invoiced).toBe(true);
    // A session already on an invoice is not invoiced twice.
    expect(await code(t.post(`${I()}/from-sessions`, { patientId: c.ana, sessionIds: [s1.id] }, { token: c.tere.accessToken }))).toEqual([
      409,
      'invoice_session_invoiced',
    ]);

    first = await issue(c.tere, draft.id);
    expect(first).toMatchObject({
      status: 'issued',
      number: `${year}-0001`,
      issueDate: todayIn('Europe/Madrid'),
      seller: { fullName: 'Teresa Terapeuta', taxId: '12345678Z' },
      buyer: { kind: 'patient', fullName: 'Ana Prueba' },
    });
    expect(first.verifactu?.qrUrl).toContain(`nif=12345678Z&numserie=${year}-0001`);
    expect(first.verifactu?.qrUrl).toContain('importe=120.00');
    const [record] = await t.rows<{ fingerprint: string; generated_at: string; previous_fingerprint: string | null; invoice_type: string }>(
      sql`select * from verifactu_records where invoice_id = ${first.id}`,
    );
    expect(record!.previous_fingerprint).toBeNull();
    expect(record!.invoice_type).toBe('F2'); // the patient gave no tax id: a simplified invoice
    expect(record!.fingerprint).toBe(
      registrationFingerprint({
        issuerTaxId: '12345678Z',
        number: `${year}-0001`,
        issueDate: first.issueDate!,
        invoiceType: 'F2',
        vatTotalCents: 0,
        totalCents: 12000,
        previousFingerprint: null,
        generatedAt: record!.generated_at,
      }),
    );
  });

  it('numbers the next one 0002, chained on the first; an issued invoice is never edited nor deleted, not even in SQL', async () => {
    const draft = await ok(
      t.post(
        I(),
        { patientId: c.ana, lines: [{ description: 'Informe para la aseguradora', itemKind: 'report', unitPriceCents: 10000 }] },
        { token: c.tere.accessToken },
      ),
      201,
    );
    expect([draft.vatCents, draft.totalCents]).toEqual([2100, 12100]);
    const second = await issue(c.tere, draft.id);
    expect(second.number).toBe(`${year}-0002`);
    const [a, b] = await t.rows<{ fingerprint: string; previous_fingerprint: string | null; position: number }>(
      sql`select * from verifactu_records where issuer_tax_id = '12345678Z' order by position`,
    );
    expect([Number(a!.position), Number(b!.position), b!.previous_fingerprint]).toEqual([1, 2, a!.fingerprint]);

    expect(await code(t.patch(`${I()}/${second.id}`, { footer: 'otro' }, { token: c.tere.accessToken }))).toEqual([409, 'invoice_issued']);
    expect(await code(t.del(`${I()}/${second.id}`, { token: c.tere.accessToken }))).toEqual([409, 'invoice_issued']);
    const refused = (q: ReturnType<typeof sql>) =>
      t.rows(q).then(
        () => 'done',
        (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ''}`,
      );
    expect(await refused(sql`update invoices set total = 1 where id = ${second.id}`)).toMatch(/rectifying/);
    expect(await refused(sql`delete from invoices where id = ${second.id}`)).toMatch(/cannot be deleted/);
    expect(await refused(sql`update invoice_lines set base = 1 where invoice_id = ${second.id}`)).toMatch(/issued invoice/);
    expect(await refused(sql`update verifactu_records set total = 1`)).toMatch(/append-only/);
  });

  it('records a payment by transfer once, and corrects by a rectifying invoice in its own series that frees the sessions', async () => {
    const paid = await ok(t.post(`${I()}/${first.id}/payment`, { paymentType: 'transfer' }, { token: c.tere.accessToken }));
    expect([paid.paymentStatus, paid.paymentType]).toEqual(['paid', 'transfer']);
    expect(await code(t.post(`${I()}/${first.id}/payment`, { paymentType: 'cash' }, { token: c.tere.accessToken }))).toEqual([
      409,
      'invoice_already_paid',
    ]);

    const rect = await ok(
      t.post(
        `${I()}/${first.id}/rectify`,
        { method: 'difference', reason: 'Sesiones facturadas por error' },
        { token: c.tere.accessToken },
      ),
      201,
    );
    expect(rect).toMatchObject({
      kind: 'rectifying',
      number: `R${year}-0001`,
      totalCents: -12000,
      rectifies: { id: first.id, number: `${year}-0001`, method: 'difference' },
    });
    const [r] = await t.rows<{ invoice_type: string; position: number }>(
      sql`select * from verifactu_records where invoice_id = ${rect.id}`,
    );
    expect([r!.invoice_type, Number(r!.position)]).toEqual(['R5', 3]);
    const sessionIds = first.lines.map((l) => l.sessionId!);
    for (const id of sessionIds)
      expect((await ok<Session>(t.get(`${W(c.ws.id)}/sessions/${id}`, { token: c.tere.accessToken }))).invoiced).toBe(false);
  });
});

describe('taxes and sellers', () => {
  it('withholds 15 % only when the buyer is a company, on top of 21 % VAT for a report', async () => {
    const buyer = { kind: 'company', fullName: 'Seguros Ejemplo SA', taxId: 'A58818501' };
    const inv = await ok(
      t.post(
        I(),
        { buyer, lines: [{ description: 'Informe pericial', itemKind: 'report', unitPriceCents: 10000 }] },
        { token: c.tere.accessToken },
      ),
      201,
    );
    expect([inv.subtotalCents, inv.vatCents, inv.withholdingCents, inv.totalCents]).toEqual([10000, 2100, 1500, 10600]);
  });

  it('refuses to issue for a seller without billing data and spends no number on it', async () => {
    // Tomás's sessions are paid to the workspace, which has no billing data yet.
    const draft = await ok(
      t.post(
        I(),
        { therapistId: c.tomas.userId, patientId: c.bruno, lines: [{ description: 'Sesión', unitPriceCents: 5555 }] },
        { token: c.owner.accessToken },
      ),
      201,
    );
    expect(draft.sellerType).toBe('workspace');
    expect(await code(t.post(`${I()}/${draft.id}/issue`, undefined, { token: c.owner.accessToken }))).toEqual([
      409,
      'invoice_seller_incomplete',
    ]);
    expect(await t.rows(sql`select * from invoice_counters where seller_key = ${`workspace:${c.ws.id}`}`)).toEqual([]);
    // Tere, a clinic therapist, reads her own invoices only: the workspace's are not hers.
    expect(await code(t.get(`${I()}/${draft.id}`, { token: c.tere.accessToken }))).toEqual([404, 'invoice_not_found']);
    const list = await ok<{ items: Invoice[]; total: number }>(t.get(I(), { token: c.tere.accessToken }));
    expect(list.items.every((i) => i.therapist.id === c.tere.userId)).toBe(true);
  });
});

describe('numbering under concurrency', () => {
  it('gives consecutive numbers, no gap and no duplicate, to drafts issued at once, and one unbroken chain', async () => {
    const n = 20;
    const drafts = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        ok(
          t.post(
            I(),
            { patientId: c.ana, lines: [{ description: `Sesión ${i}`, unitPriceCents: 5000 + i }] },
            { token: c.tere.accessToken },
          ),
          201,
        ),
      ),
    );
    const issued = await Promise.all(drafts.map((d) => issue(c.tere, d.id)));
    const seq = issued.map((i) => Number(i.number!.split('-')[1])).sort((a, b) => a - b);
    expect(seq).toEqual(Array.from({ length: n }, (_, i) => i + 3));
    const chain = await t.rows<{ position: number; fingerprint: string; previous_fingerprint: string | null }>(
      sql`select * from verifactu_records where issuer_tax_id = '12345678Z' order by position`,
    );
    chain.forEach((r, i) => {
      expect(Number(r.position)).toBe(i + 1);
      if (i > 0) expect(r.previous_fingerprint).toBe(chain[i - 1]!.fingerprint);
    });
  });
});

describe('export for the accountant', () => {
  it('gives the issued invoices of the filters as xlsx and as a Spanish CSV, drafts left out', async () => {
    const xlsx = await t.get(`${I()}/export`, { token: c.tere.accessToken });
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Facturas')!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Número');
    const numbers = sheet.getColumn(1).values.slice(2) as string[];
    expect(numbers[0]).toBe(`${year}-0001`);
    expect(numbers).toContain(`R${year}-0001`);
    expect(sheet.getRow(2).getCell(12).value).toBe(120); // euros, formatted by the cell

    const csv = await t.get(`${I()}/export?format=csv&q=R${year}`, { token: c.tere.accessToken });
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]!.split(';').slice(0, 4)).toEqual(['Número', 'Fecha', 'Tipo', 'Estado']);
    expect(lines.slice(1).map((l) => l.split(';').slice(0, 3))).toEqual([
      [`R${year}-0001`, todayIn('Europe/Madrid').split('-').reverse().join('/'), 'Rectificativa'],
    ]);
    expect(lines[1]).toContain(';-120,00;');
  });
});

describe('series prefix', () => {
  const billing = (body: object) => t.put('/api/v1/me/billing', body, { token: c.tere.accessToken });
  const draftFor = async (who: Therapist, body: object) =>
    ok(t.post(I(), { lines: [{ description: 'Sesión', unitPriceCents: 6000 }], ...body }, { token: who.accessToken }), 201);

  it('refuses a prefix that could meet the rectifying series or the year, in Spanish', async () => {
    for (const [prefix, message] of [
      ['rec', 'El prefijo no puede empezar por R: la serie rectificativa es la misma con una R delante.'],
      ['F1', 'El prefijo no puede acabar en un número (se confundiría con el año): añade un guion, p. ej. «F1-».'],
      ['F.2', 'El prefijo solo admite letras sin tilde (A–Z), números, guion (-) y barra (/).'],
    ]) {
      const res = await billing({ seriesPrefix: prefix });
      expect(res.statusCode).toBe(400);
      expect((res.json() as { fields: { message: string }[] }).fields.map((f) => f.message)).toEqual([message]);
    }
  });

  it('starts a new gapless series with a new prefix (its rectifying series with an R before it); the old one carries on when it comes back', async () => {
    expect(await ok(billing({ seriesPrefix: ' f- ' }))).toMatchObject({ seriesPrefix: 'F-', taxId: '12345678Z' });
    const first = await issue(c.tere, (await draftFor(c.tere, { patientId: c.ana })).id);
    const second = await issue(c.tere, (await draftFor(c.tere, { patientId: c.ana })).id);
    expect([first.number, second.number, first.series]).toEqual([`F-${year}-0001`, `F-${year}-0002`, `F-${year}`]);
    const rect = await ok(
      t.post(`${I()}/${first.id}/rectify`, { method: 'difference', reason: 'Error' }, { token: c.tere.accessToken }),
      201,
    );
    expect(rect.number).toBe(`RF-${year}-0001`);
    expect((await ok(t.get(`${I()}/${first.id}`, { token: c.tere.accessToken }))).rectifiedBy).toEqual([
      { id: rect.id, number: rect.number, method: 'difference', issueDate: rect.issueDate, status: 'issued' },
    ]);

    // Omitted, the prefix stays; '' goes back to the plain series, which carries on after 0022.
    expect(await ok(billing({ city: 'Madrid' }))).toMatchObject({ seriesPrefix: 'F-' });
    await ok(billing({ seriesPrefix: '' }));
    expect((await issue(c.tere, (await draftFor(c.tere, { patientId: c.ana })).id)).number).toBe(`${year}-0023`);
    // The list's series filter offers each series once, and filters by it.
    expect(await ok(t.get(`${I()}/series`, { token: c.tere.accessToken }))).toEqual({
      items: [`${year}`, `F-${year}`, `R${year}`, `RF-${year}`],
    });
    const rf = await ok<{ items: Invoice[] }>(t.get(`${I()}?series=RF-${year}`, { token: c.tere.accessToken }));
    expect(rf.items.map((i) => i.number)).toEqual([`RF-${year}-0001`]);
  });

  it('numbers the workspace’s invoices with the prefix of its billing info', async () => {
    const info = { fullName: 'Clínica Facturas SL', taxId: 'B12345674', seriesPrefix: 'cl/' };
    expect(await ok(t.put(`${W(c.ws.id)}/billing-info`, info, { token: c.owner.accessToken }))).toMatchObject({ seriesPrefix: 'CL/' });
    const inv = await issue(c.owner, (await draftFor(c.owner, { therapistId: c.tomas.userId, patientId: c.bruno })).id);
    expect([inv.sellerType, inv.number]).toEqual(['workspace', `CL/${year}-0001`]);
    expect((await t.put(`${W(c.ws.id)}/billing-info`, { ...info, seriesPrefix: 'R' }, { token: c.owner.accessToken })).statusCode).toBe(
      400,
    );
  });
});

// Issue 24: what the VERI*FACTU record says (no withholding in ImporteTotal), who may be withheld from,
// and where a simplified invoice stops (400,00 €). A clinic of its own: its series and chains are apart.
describe('the tax record, the withholding and the simplified invoice', () => {
  const NIF = '87654321X';
  let k: Clinic;
  const K = () => `${W(k.ws.id)}/invoices`;
  const fieldsOf = async (res: Promise<{ statusCode: number; json(): unknown }>) => {
    const r = await res;
    const body = r.json() as { code: string; message: string; fields?: { path: string; message: string }[] };
    return [r.statusCode, body.code, body.fields ?? [], body.message];
  };
  const WITHHELD_PRIVATE =
    'Un particular no practica retención de IRPF: solo se aplica cuando paga una empresa, un profesional o una aseguradora.';
  const OVER_400 = 'Las facturas de más de 400,00 € deben identificar al destinatario con su NIF: añádelo a sus datos de facturación.';
  const record = async (invoiceId: string) =>
    (
      await t.rows<{ total: number; vat_total: number; invoice_type: string }>(
        sql`select total, vat_total, invoice_type from verifactu_records where invoice_id = ${invoiceId}`,
      )
    )[0]!;

  beforeAll(async () => {
    k = await clinic(t, 'limites');
    await ok(t.put('/api/v1/me/billing', { fullName: 'Teresa Límites', taxId: NIF }, { token: k.tere.accessToken }));
  }, 60_000);

  it('records ImporteTotal and the QR’s importe as base + VAT, without the withholding; the invoice still asks for base + VAT − IRPF', async () => {
    const buyer = { kind: 'insurer', fullName: 'Seguros Ejemplo SA', taxId: 'A58818501' };
    const draft = await ok(
      t.post(
        K(),
        { buyer, lines: [{ description: 'Informe pericial', itemKind: 'report', unitPriceCents: 20000 }] },
        { token: k.tere.accessToken },
      ),
      201,
    );
    const inv = await ok(t.post(`${K()}/${draft.id}/issue`, undefined, { token: k.tere.accessToken }));
    expect([inv.subtotalCents, inv.vatCents, inv.withholdingCents, inv.totalCents]).toEqual([20000, 4200, 3000, 21200]);
    expect(await record(inv.id)).toEqual({ total: 24200, vat_total: 4200, invoice_type: 'F1' });
    expect(new URL(inv.verifactu!.qrUrl).searchParams.get('importe')).toBe('242.00');
  });

  it('refuses a withholding on an invoice to a private person (patient or guardian), naming the line, in Spanish', async () => {
    const line = { description: 'Informe', itemKind: 'report', unitPriceCents: 10000, withholdingRate: 15 };
    const expected = [400, 'invalid_argument', [{ path: 'lines.0.withholdingRate', message: WITHHELD_PRIVATE }], WITHHELD_PRIVATE];
    expect(await fieldsOf(t.post(K(), { patientId: k.ana, lines: [line] }, { token: k.tere.accessToken }))).toEqual(expected);
    expect(
      await fieldsOf(t.post(K(), { buyer: { kind: 'guardian', fullName: 'Tutor Prueba' }, lines: [line] }, { token: k.tere.accessToken })),
    ).toEqual(expected);
    // A company's draft moved to the patient loses its withholding instead of keeping it.
    const company = { kind: 'company', fullName: 'Empresa SA', taxId: 'A58818501' };
    const draft = await ok(
      t.post(
        K(),
        { buyer: company, patientId: k.ana, lines: [{ description: 'Informe', itemKind: 'report', unitPriceCents: 10000 }] },
        { token: k.tere.accessToken },
      ),
      201,
    );
    expect(draft.withholdingCents).toBe(1500);
    // A change that leaves the lines out keeps them (it emptied the draft before).
    expect((await ok(t.patch(`${K()}/${draft.id}`, { footer: 'Gracias' }, { token: k.tere.accessToken }))).lines).toHaveLength(1);
    const moved = await ok(t.patch(`${K()}/${draft.id}`, { buyer: null, patientId: k.ana }, { token: k.tere.accessToken }));
    expect([moved.buyer?.kind, moved.withholdingCents, moved.lines[0]!.withholdingRate]).toEqual(['patient', 0, 0]);
    // A draft that still carries one (written before this rule) is not issued with it.
    await t.rows(sql`update invoice_lines set withholding_rate = 15, withholding = 1500, total = 10600 where invoice_id = ${draft.id}`);
    await t.rows(sql`update invoices set withholding = 1500, total = 10600 where id = ${draft.id}`);
    expect(await fieldsOf(t.post(`${K()}/${draft.id}/issue`, undefined, { token: k.tere.accessToken }))).toEqual(expected);
    expect(await t.rows(sql`select id from verifactu_records where invoice_id = ${draft.id}`)).toEqual([]);
  });

  it('issues a simplified invoice (F2) up to 400,00 € and refuses one above it without the buyer’s tax id, at that field', async () => {
    const at = async (cents: number, body: object = { patientId: k.ana }) =>
      ok(t.post(K(), { ...body, lines: [{ description: 'Sesiones', unitPriceCents: cents }] }, { token: k.tere.accessToken }), 201);
    const limit = await ok(t.post(`${K()}/${(await at(40000)).id}/issue`, undefined, { token: k.tere.accessToken }));
    expect((await record(limit.id)).invoice_type).toBe('F2');
    const over = await at(42000);
    expect(await fieldsOf(t.post(`${K()}/${over.id}/issue`, undefined, { token: k.tere.accessToken }))).toEqual([
      400,
      'invalid_argument',
      [{ path: 'buyer.taxId', message: OVER_400 }],
      OVER_400,
    ]);
    expect((await ok(t.get(`${K()}/${over.id}`, { token: k.tere.accessToken }))).status).toBe('draft');
    // VAT counts: 340 € + 21 % is 411,40 €.
    const taxed = await ok(
      t.post(
        K(),
        { patientId: k.ana, lines: [{ description: 'Formación', itemKind: 'training', unitPriceCents: 34000 }] },
        { token: k.tere.accessToken },
      ),
      201,
    );
    expect((await fieldsOf(t.post(`${K()}/${taxed.id}/issue`, undefined, { token: k.tere.accessToken })))[2]).toEqual([
      { path: 'buyer.taxId', message: OVER_400 },
    ]);
    // With the buyer identified it is a full invoice (F1).
    const named = await at(42000, { buyer: { kind: 'guardian', fullName: 'Tutor Prueba', taxId: '11111111H' }, patientId: k.ana });
    const full = await ok(t.post(`${K()}/${named.id}/issue`, undefined, { token: k.tere.accessToken }));
    expect((await record(full.id)).invoice_type).toBe('F1');
  });

  it('refuses the same in a batch and in an automatic invoice: the reason listed, no F2 above 400,00 €', async () => {
    const pilar = await k.patient('Pilar', k.tere.userId, 42000);
    const sessionOf = async (n: number, patientId = pilar) => {
      const made = await ok<{ session: Session }>(
        t.post(
          `${W(k.ws.id)}/sessions`,
          { patientId, therapistId: k.tere.userId, day: nextWeek(n), from: '16:00', to: '16:50' },
          { token: k.tere.accessToken },
        ),
        201,
      );
      await ok(t.post(`${W(k.ws.id)}/sessions/${made.session.id}/complete`, undefined, { token: k.tere.accessToken }));
      return made.session.id;
    };
    // Ana's session (60 €) is issued beside it; Pilar's (420 €) is refused.
    await sessionOf(2, k.ana);
    const first = await sessionOf(0);
    const batch = await ok<{ id: string }>(
      t.post(
        `${W(k.ws.id)}/invoice-batches`,
        { from: todayIn('Europe/Madrid'), to: nextWeek(10), therapistId: k.tere.userId },
        { token: k.tere.accessToken },
      ),
      202,
    );
    type Batch = { status: string; errors: { patientId: string; message: string }[] };
    let done: Batch | undefined;
    await expect
      .poll(
        async () => (done = await ok<Batch>(t.get(`${W(k.ws.id)}/invoice-batches/${batch.id}`, { token: k.tere.accessToken }))).status,
        { timeout: 20_000, interval: 200 },
      )
      .toBe('done');
    expect(done!.errors).toEqual([expect.objectContaining({ patientId: pilar, message: OVER_400 })]);
    expect((await ok<Session>(t.get(`${W(k.ws.id)}/sessions/${first}`, { token: k.tere.accessToken }))).invoiced).toBe(false);

    await ok(t.put(`${W(k.ws.id)}/invoice-settings`, { autoInvoice: true }, { token: k.tere.accessToken }));
    const second = await sessionOf(1);
    let skipped: { sessionId: string; reason: string }[] = [];
    await expect
      .poll(
        async () =>
          (skipped = (await ok<{ skipped: typeof skipped }>(t.get(`${W(k.ws.id)}/invoice-settings`, { token: k.tere.accessToken })))
            .skipped).length,
        { timeout: 20_000, interval: 200 },
      )
      .toBe(1);
    expect(skipped[0]).toMatchObject({ sessionId: second, reason: OVER_400 });
    expect(
      await t.rows(sql`select r.id from verifactu_records r join invoices i on i.id = r.invoice_id where i.patient_id = ${pilar}`),
    ).toEqual([]);
  });
});
