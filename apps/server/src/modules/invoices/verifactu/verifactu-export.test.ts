// Issue 11 "Must show": a chain of issued and rectified invoices of two issuers, exported as the AEAT's
// XML through the API, valid against the XSD, each fingerprint recomputed from the XML's own fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { todayIn, type Invoice, type Session } from '@divan/core';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { clinic, nextWeek, W, type Clinic } from '../../../test/session-fixtures';
import type { Therapist } from '../../../test/workspace-fixtures';
import { parseRegFactuXml, verifyChain } from '.';
import { skipXsd, validateAgainstXsd, xsdMissing } from './xsd.testkit';

let t: TestApp;
let c: Clinic;
let t1: Invoice;
let withheld: Invoice;
const today = todayIn('Europe/Madrid');
const THERAPIST_NIF = '12345678Z';
const CLINIC_CIF = 'B12345674';
/** The software producer as configured (VERIFACTU_PRODUCER_* and the system's): what SistemaInformatico says. */
const PRODUCER = { name: 'Diván Software SL', taxId: 'B87654323', systemId: 'D1', version: '2.4.0', installationNumber: 'divan-cloud-01' };
const I = () => `${W(c.ws.id)}/invoices`;

async function issued(who: Therapist, body: object): Promise<Invoice> {
  const draft = await t.post(I(), body, { token: who.accessToken });
  expect(draft.statusCode, draft.body).toBe(201);
  const res = await t.post(`${I()}/${(draft.json() as Invoice).id}/issue`, undefined, { token: who.accessToken });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Invoice;
}
const exportXml = (who: Therapist, issuerTaxId: string) =>
  t.get(`${I()}/verifactu?issuerTaxId=${issuerTaxId}&from=${today}&to=${today}`, { token: who.accessToken });

beforeAll(async () => {
  t = await createTestApp({ verifactuProducer: PRODUCER });
  c = await clinic(t, 'verifactu');
  expect(
    (
      await t.put(
        '/api/v1/me/billing',
        { fullName: 'Teresa Terapeuta', taxId: THERAPIST_NIF, city: 'Madrid' },
        { token: c.tere.accessToken },
      )
    ).statusCode,
  ).toBe(200);
  const billing = {
    fullName: 'Clínica Verifactu SL',
    taxId: CLINIC_CIF,
    line1: 'Calle Alcalá 1',
    city: 'Madrid',
    zipCode: '28009',
    country: 'España',
  };
  expect((await t.put(`${W(c.ws.id)}/billing-info`, billing, { token: c.owner.accessToken })).statusCode).toBe(200);
  // Interleaved: Tere (paid herself) and the clinic (Tomás is paid through the workspace).
  const company = { kind: 'company', fullName: 'Mutua Ejemplo SA', taxId: 'A58818501' };
  t1 = await issued(c.tere, { patientId: c.ana, lines: [{ description: 'Sesión', unitPriceCents: 6000 }] });
  await issued(c.owner, { therapistId: c.tomas.userId, patientId: c.bruno, lines: [{ description: 'Sesión', unitPriceCents: 5555 }] });
  // 200,00 € + 21 % VAT (42,00 €), 15 % withheld (30,00 €): the insurer pays 212,00 €.
  withheld = await issued(c.tere, {
    buyer: company,
    lines: [{ description: 'Informe pericial', itemKind: 'report', unitPriceCents: 20000 }],
  });
  const w2 = await issued(c.owner, {
    therapistId: c.tomas.userId,
    buyer: company,
    lines: [{ description: 'Informe', itemKind: 'report', unitPriceCents: 15000, quantity: 1.5 }],
  });
  // Rectifying invoices of each issuer: one cancels by difference, one substitutes with a new amount.
  expect(
    (await t.post(`${I()}/${t1.id}/rectify`, { method: 'difference', reason: 'Sesión no realizada' }, { token: c.tere.accessToken }))
      .statusCode,
  ).toBe(201);
  const sub = await t.post(
    `${I()}/${w2.id}/rectify`,
    { method: 'substitution', reason: 'Importe corregido', lines: [{ description: 'Informe', itemKind: 'report', unitPriceCents: 15000 }] },
    { token: c.owner.accessToken },
  );
  expect(sub.statusCode, sub.body).toBe(201);
}, 90_000);
afterAll(() => t?.close());

describe('VERI*FACTU export', () => {
  it.each([
    ['the therapist', THERAPIST_NIF, 3],
    ['the clinic', CLINIC_CIF, 3],
  ])('%s: an XML with its records, each fingerprint recomputed from the XML, in one unbroken chain', async (_who, nif, count) => {
    const res = await exportXml(c.owner, nif);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    const records = parseRegFactuXml(res.body);
    expect(records.map((r) => r.issuerTaxId)).toEqual(Array(count).fill(nif));
    expect(records[0]!.previous).toBeNull();
    expect(verifyChain(records)).toBeNull();
    // A changed amount breaks the chain where it was changed.
    const tampered = res.body.replace(
      /(<sum1:ImporteTotal>)([^<]*)(<\/sum1:ImporteTotal>)/,
      (_m, a: string, _v: string, b: string) => `${a}1.00${b}`,
    );
    expect(verifyChain(parseRegFactuXml(tampered))).toBe(0);
  });

  it.skipIf(skipXsd)('is valid against the AEAT schema, for both issuers', async () => {
    expect(xsdMissing, `XSD validation needs ${xsdMissing.join(' and ')}`).toEqual([]);
    for (const nif of [THERAPIST_NIF, CLINIC_CIF]) {
      const result = validateAgainstXsd((await exportXml(c.owner, nif)).body, `${nif}.xml`);
      expect(result.ok, result.output).toBe(true);
    }
  });

  it('records an invoice with withholding at base + VAT (ImporteTotal 242.00, not the 212.00 the buyer pays), valid against the AEAT schema; the QR says the same', async () => {
    expect([withheld.subtotalCents, withheld.vatCents, withheld.withholdingCents, withheld.totalCents]).toEqual([20000, 4200, 3000, 21200]);
    const xml = (await exportXml(c.owner, THERAPIST_NIF)).body;
    const record = parseRegFactuXml(xml).find((r) => r.number === withheld.number)!;
    expect(record).toMatchObject({ kind: 'registration', invoiceType: 'F1', vatTotalCents: 4200, totalCents: 24200 });
    const alta = xml.slice(
      xml.indexOf(`<sum1:NumSerieFactura>${withheld.number}<`),
      xml.indexOf('</sum1:RegistroAlta>', xml.indexOf(`<sum1:NumSerieFactura>${withheld.number}<`)),
    );
    expect(alta).toContain('<sum1:BaseImponibleOimporteNoSujeto>200.00</sum1:BaseImponibleOimporteNoSujeto>');
    expect(alta).toContain('<sum1:CuotaRepercutida>42.00</sum1:CuotaRepercutida>');
    expect(alta).toContain('<sum1:CuotaTotal>42.00</sum1:CuotaTotal>');
    expect(alta).toContain('<sum1:ImporteTotal>242.00</sum1:ImporteTotal>');
    expect(new URL(withheld.verifactu!.qrUrl).searchParams.get('importe')).toBe('242.00');
    expect(verifyChain(parseRegFactuXml(xml))).toBeNull();
    if (!skipXsd) {
      const valid = validateAgainstXsd(xml, 'retencion.xml');
      expect(valid.ok, valid.output).toBe(true);
    }
  });

  it('names the configured software producer and installation in every record, not a placeholder', async () => {
    const xml = (await exportXml(c.owner, CLINIC_CIF)).body;
    const systems = xml.match(/<sum1:SistemaInformatico>[\s\S]*?<\/sum1:SistemaInformatico>/g)!;
    expect(systems).toHaveLength(3);
    for (const s of systems) {
      for (const part of [
        '<sum1:NombreRazon>Diván Software SL<',
        '<sum1:NIF>B87654323<',
        '<sum1:IdSistemaInformatico>D1<',
        '<sum1:Version>2.4.0<',
        '<sum1:NumeroInstalacion>divan-cloud-01<',
      ])
        expect(s).toContain(part);
    }
    expect(xml).not.toContain('B00000000');
  });

  it('gives a therapist who reads only her own invoices nothing of the clinic’s', async () => {
    expect((await exportXml(c.tere, CLINIC_CIF)).statusCode).toBe(204);
    expect((await exportXml(c.tere, THERAPIST_NIF)).statusCode).toBe(200);
  });
});

describe('voiding a wrongly issued invoice (RegistroAnulacion)', () => {
  const voidIt = (id: string, reason = 'Emitida dos veces por error') =>
    t.post(`${I()}/${id}/void`, { reason }, { token: c.tere.accessToken });
  const error = async (res: ReturnType<typeof voidIt>) => {
    const r = await res;
    return [r.statusCode, (r.json() as { code: string; message: string }).code, (r.json() as { message: string }).message];
  };

  it('chains a cancellation record, keeps the invoice marked voided, frees its session; the export carries it, valid and chained', async () => {
    const made = await t.post(
      `${W(c.ws.id)}/sessions`,
      { patientId: c.ana, therapistId: c.tere.userId, day: nextWeek(0), from: '09:00', to: '09:50' },
      { token: c.tere.accessToken },
    );
    const sessionId = (made.json() as { session: Session }).session.id;
    expect((await t.post(`${W(c.ws.id)}/sessions/${sessionId}/complete`, undefined, { token: c.tere.accessToken })).statusCode).toBe(200);
    const draft = await t.post(`${I()}/from-sessions`, { patientId: c.ana, sessionIds: [sessionId] }, { token: c.tere.accessToken });
    const inv = (await t.post(`${I()}/${(draft.json() as Invoice).id}/issue`, undefined, { token: c.tere.accessToken })).json() as Invoice;

    const res = await voidIt(inv.id);
    expect(res.statusCode, res.body).toBe(200);
    const voided = res.json() as Invoice;
    expect(voided).toMatchObject({
      id: inv.id,
      status: 'voided',
      number: inv.number,
      totalCents: inv.totalCents,
      voided: { reason: 'Emitida dos veces por error' },
    });
    expect(voided.verifactu?.fingerprint).toBe(inv.verifactu?.fingerprint);
    expect(((await t.get(`${W(c.ws.id)}/sessions/${sessionId}`, { token: c.tere.accessToken })).json() as Session).invoiced).toBe(false);

    const xml = await exportXml(c.tere, THERAPIST_NIF);
    expect(xml.statusCode, xml.body).toBe(200);
    const records = parseRegFactuXml(xml.body);
    expect(records.map((r) => r.kind)).toEqual(['registration', 'registration', 'registration', 'registration', 'cancellation']);
    const cancellation = records.at(-1)!;
    expect([cancellation.number, cancellation.issueDate, cancellation.previous?.number]).toEqual([inv.number, inv.issueDate, inv.number]);
    // Every fingerprint, the cancellation's included, recomputed from the XML's own fields.
    expect(verifyChain(records)).toBeNull();
    expect(xml.body).toContain('<sum1:RegistroAnulacion>');
    expect(xml.body).toContain(`<sum1:NumSerieFacturaAnulada>${inv.number}</sum1:NumSerieFacturaAnulada>`);
    if (!skipXsd) {
      const valid = validateAgainstXsd(xml.body, 'anulacion.xml');
      expect(valid.ok, valid.output).toBe(true);
    }
  });

  it('refuses voiding twice, a draft, or an invoice with rectifying invoices, in Spanish', async () => {
    const list = (await t.get(`${I()}?status=voided`, { token: c.tere.accessToken })).json() as {
      items: Invoice[];
      total: number;
      totals: { totalCents: number };
    };
    const [voided] = list.items;
    // Listed, but counting for nothing in the sums.
    expect([list.total, voided!.totalCents > 0, list.totals.totalCents]).toEqual([1, true, 0]);
    expect(await error(voidIt(voided!.id))).toEqual([409, 'invoice_already_voided', 'Esta factura ya está anulada.']);
    const draft = (
      await t.post(I(), { patientId: c.ana, lines: [{ description: 'Sesión', unitPriceCents: 6000 }] }, { token: c.tere.accessToken })
    ).json() as Invoice;
    expect(await error(voidIt(draft.id))).toEqual([
      409,
      'invoice_void_draft',
      'Un borrador no se anula: bórralo. Solo se anula una factura emitida.',
    ]);
    expect((await error(voidIt(t1.id))).slice(0, 2)).toEqual([409, 'invoice_void_rectified']);
    expect((await t.post(`${I()}/${voided!.id}/payment`, { paymentType: 'cash' }, { token: c.tere.accessToken })).statusCode).toBe(409);
    const bad = await t.post(`${I()}/${draft.id}/void`, { reason: '  ' }, { token: c.tere.accessToken });
    expect(bad.statusCode).toBe(400);
    // Voided stays voided, even in SQL: not back to issued, not deleted.
    const refused = (q: ReturnType<typeof sql>) =>
      t.rows(q).then(
        () => 'done',
        (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ''}`,
      );
    expect(
      await refused(sql`update invoices set status = 'issued', voided_at = null, void_reason = null where id = ${voided!.id}`),
    ).toMatch(/rectifying/);
    expect(await refused(sql`delete from invoices where id = ${voided!.id}`)).toMatch(/cannot be deleted/);
  });

  it('lists, on the rectified invoice, the rectifying one that corrects it (both ways)', async () => {
    const original = (await t.get(`${I()}/${t1.id}`, { token: c.tere.accessToken })).json() as Invoice;
    expect(original.rectifiedBy).toHaveLength(1);
    const [by] = original.rectifiedBy;
    expect(by).toMatchObject({ method: 'difference', status: 'issued', issueDate: today });
    expect(by!.number).toMatch(/^R\d{4}-0001$/);
    const rectifying = (await t.get(`${I()}/${by!.id}`, { token: c.tere.accessToken })).json() as Invoice;
    expect(rectifying.rectifies).toMatchObject({ id: t1.id, number: t1.number });
    expect(rectifying.rectifiedBy).toEqual([]);
  });
});
