import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  OUTSIDE_VAT_TERRITORY_LEGEND,
  REVERSE_CHARGE_LEGEND,
  unitPriceOf,
  type BillingDetailsResponse,
  type DivanInvoices,
} from '@divan/core';
import { FRENCH_BUSINESS, giveBillingDetails, platformEventsTaken, postPlatformEvent, subscribe } from '../../test/billing-fixtures';
import { pdfText, skipPdfChecks } from '../../test/pdf-tools';
import { createTestApp, type TestApp } from '../../test/test-app';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';
import { buildRegFactuXml, parseRegFactuXml, verifyChain } from '../invoices/verifactu';
import { softwareOf, toRecord } from '../invoices/verifactu/verifactu-export.service';
import { skipXsd, validateAgainstXsd } from '../invoices/verifactu/xsd.testkit';

// Diván's own invoices (issue 27, slice 3): the billing data of Ajustes › Pagos, a plan paid through the
// sandbox's Checkout with the tax its data give, and Diván's invoice for each charge — in Diván's series,
// gapless, chained under Diván's NIF — in the three tax cases: Spain 21 %, an EU business (reverse
// charge) and the Canary Islands (no IVA).
let t: TestApp;
const ok = async <T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as T;
};
const B = (wid: string) => `/api/v1/workspaces/${wid}/billing`;
const MONTH = unitPriceOf('advance', 'month')!;
const DEV_NIF = 'B00000000';

type Paid = { owner: Therapist; wid: string; invoices: DivanInvoices };
async function paidWorkspace(name: string, email: string, details: Parameters<typeof giveBillingDetails>[3]): Promise<Paid> {
  const { owner, ws } = await withWorkspace(t, name, { owner: { email, firstName: name.split(' ')[1] ?? 'Ana' } });
  await giveBillingDetails(t, owner, ws.id, details);
  await subscribe(t, owner, ws.id, { planId: 'advance', interval: 'month' });
  await platformEventsTaken(t);
  const invoices = await ok<DivanInvoices>(t.get(`${B(ws.id)}/invoices`, { token: owner.accessToken }));
  return { owner, wid: ws.id, invoices };
}
const pdfOf = async (p: Paid) => {
  const res = await t.get(`${B(p.wid)}/invoices/${p.invoices.items[0]!.id}/pdf`, { token: p.owner.accessToken });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return res.rawPayload;
};

let spain: Paid;
let france: Paid;
let canarias: Paid;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('the billing data of Ajustes › Pagos', () => {
  it('refuses a wrong NIF, a VAT id of another country, and a member who does not manage the plan', async () => {
    const { owner, ws, members } = await withWorkspace(t, 'Consulta Datos', {
      owner: { email: 'datos@pagos.test', firstName: 'Dora' },
      members: { tere: { email: 'tere@pagos.test', firstName: 'Tere', role: 'Terapeuta' } },
    });
    const put = (body: object, who = owner) => t.put(`${B(ws.id)}/details`, body, { token: who.accessToken });
    const base = { name: 'Dora Gil', country: 'ES', line1: 'Calle Mayor 1', city: 'Madrid', postalCode: '28001' };
    const bad = await put({ ...base, taxId: '12345678A' });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().fields).toContainEqual({ path: 'taxId', message: 'El NIF o CIF no es válido: revisa el carácter de control.' });
    const noNif = await put(base);
    expect(noNif.json().fields).toContainEqual({ path: 'taxId', message: 'Escribe el NIF, NIE o CIF' });
    const wrongCountry = await put({ ...base, country: 'FR', postalCode: '75001', vatId: 'DE123456789' });
    expect(wrongCountry.statusCode).toBe(400);
    expect(wrongCountry.json().fields[0]).toMatchObject({ path: 'vatId' });
    // Outside Spain, a tax number or the VAT id: Diván's invoice is never a simplified one.
    const none = await put({ ...base, country: 'US', postalCode: '10001', city: 'Nueva York' });
    expect(none.json().fields).toEqual([{ path: 'taxId', message: expect.stringContaining('número de identificación fiscal') }]);
    // Nothing was saved by the refusals.
    expect(await ok<BillingDetailsResponse>(t.get(`${B(ws.id)}/details`, { token: owner.accessToken }))).toEqual({
      details: null,
      tax: null,
      vatCheck: null,
    });
    expect((await put({ ...base, taxId: '12345678Z' }, members.tere)).statusCode).toBe(403);
    expect((await t.get(`${B(ws.id)}/details`, { token: members.tere.accessToken })).statusCode).toBe(403);
    expect((await t.get(`${B(ws.id)}/invoices`, { token: members.tere.accessToken })).statusCode).toBe(403);
    // Checkout asks for them first.
    const checkout = await t.post(`${B(ws.id)}/checkout`, { planId: 'advance', interval: 'month' }, { token: owner.accessToken });
    expect([checkout.statusCode, checkout.json().code]).toEqual([409, 'billing_details_missing']);
    const saved = await ok<BillingDetailsResponse>(put({ ...base, taxId: '12345678-z' }));
    expect(saved).toEqual({
      details: { ...base, taxId: '12345678Z', vatId: null, email: null },
      tax: { case: 'spain', vatRate: 21, legend: null },
      vatCheck: null,
    });
  });
});

describe("Diván's invoice for each charge", () => {
  beforeAll(async () => {
    // One after the other: their numbers follow in Diván's series.
    spain = await paidWorkspace('Consulta Ana', 'ana@pagos.test', {});
    france = await paidWorkspace('Cabinet Marie', 'marie@pagos.test', FRENCH_BUSINESS);
    canarias = await paidWorkspace('Consulta Nayra', 'nayra@pagos.test', {
      name: 'Nayra Santana',
      taxId: '00000000T',
      line1: 'Calle Triana 5',
      city: 'Las Palmas de Gran Canaria',
      postalCode: '35002',
    });
  });

  it('charges 21 % IVA in Spain and invoices it from Diván’s series, what the card paid', async () => {
    const vat = Math.round(MONTH * 0.21);
    expect(spain.invoices.items).toEqual([
      expect.objectContaining({ number: `D${new Date().getFullYear()}-0001`, subtotal: MONTH, vat, total: MONTH + vat, vatRate: 21 }),
    ]);
    const [row] = await t.rows<{ provider_total: number | null; amount_paid: number }>(
      sql`select b.provider_total, (o.data->>'amount_paid')::int as amount_paid from billing_invoices b
          join sandbox_stripe_objects o on o.id = b.provider_invoice_id where b.workspace_id = ${spain.wid}`,
    );
    // The card was charged exactly the invoice's total (the provider's arithmetic agreed).
    expect(row).toEqual({ provider_total: null, amount_paid: MONTH + vat });
    // And the invoice was mailed (its PDF attached) to the owner, once.
    const mails = await t.rows<{ key: string }>(sql`select key from mail_outbox where purpose = 'invoice' and workspace_id = ${spain.wid}`);
    expect(mails).toEqual([{ key: `divan-invoice:${spain.invoices.items[0]!.id}` }]);
  });

  it('gives the provider’s customer the billing data and the VAT id (its receipts and portal say the same)', async () => {
    const [customer] = await t.rows<{ name: string; address: Record<string, string>; tax_ids: unknown }>(
      sql`select data->>'name' as name, data->'address' as address, data->'tax_ids' as tax_ids from sandbox_stripe_objects
          where id = (select customer_id from billing_customers where workspace_id = ${france.wid})`,
    );
    expect(customer).toEqual({
      name: 'Cabinet Marie SARL',
      address: { line1: '3 rue de Rivoli', city: 'París', postal_code: '75001', country: 'FR' },
      // The VAT id too, which Stripe checks against VIES (the sandbox's VIES knows it).
      tax_ids: [
        {
          id: expect.stringMatching(/^txi_/),
          object: 'tax_id',
          customer: expect.stringMatching(/^cus_/),
          type: 'eu_vat',
          value: 'FR12345678901',
          verification: { status: 'verified', verified_name: 'CABINET MARIE SARL' },
        },
      ],
    });
  });

  it('is not subject for an EU business with a VAT id (reverse charge) and for the Canary Islands, with each legend', async () => {
    for (const [paid, number, legend] of [
      [france, 2, REVERSE_CHARGE_LEGEND],
      [canarias, 3, OUTSIDE_VAT_TERRITORY_LEGEND],
    ] as const) {
      expect(paid.invoices.items).toEqual([
        expect.objectContaining({ number: `D${new Date().getFullYear()}-000${number}`, subtotal: MONTH, vat: 0, total: MONTH, vatRate: 0 }),
      ]);
      const [line] = await t.rows<{ exemption: string | null; vat_rate: number; footer: string | null }>(
        sql`select l.exemption, l.vat_rate, i.footer from invoice_lines l join invoices i on i.id = l.invoice_id where i.id = ${paid.invoices.items[0]!.id}`,
      );
      expect(line).toEqual({ exemption: 'N2', vat_rate: 0, footer: legend });
    }
  });

  it.skipIf(skipPdfChecks)('gives each invoice as a PDF: seller Diván, buyer, IVA or the legend', async () => {
    const es = pdfText(await pdfOf(spain)).replace(/\s+/g, ' ');
    expect(es).toContain('Diván (desarrollo: facturas de prueba)');
    expect(es).toContain(DEV_NIF);
    expect(es).toContain('12345678Z');
    expect(es).toContain('21 %');
    const fr = pdfText(await pdfOf(france)).replace(/\s+/g, ' ');
    expect(fr).toContain('FR12345678901');
    expect(fr).toContain(REVERSE_CHARGE_LEGEND);
    expect(fr).toContain('No sujeta');
    // Another workspace cannot read it.
    const res = await t.get(`${B(canarias.wid)}/invoices/${spain.invoices.items[0]!.id}/pdf`, { token: canarias.owner.accessToken });
    expect([res.statusCode, res.json().code]).toEqual([404, 'billing_invoice_not_found']);
  });

  it('issues one invoice per charge whatever the webhooks do: invoice.paid replayed three times', async () => {
    const [charge] = await t.rows<{ id: string; data: Record<string, unknown> }>(
      sql`select provider_invoice_id as id, (select data from sandbox_stripe_objects where id = provider_invoice_id) as data
          from billing_invoices where workspace_id = ${spain.wid}`,
    );
    const answers = await Promise.all([1, 2, 3].map(() => postPlatformEvent(t, 'invoice.paid', charge!.data)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const [count] = await t.rows<{ n: number }>(sql`select count(*)::int as n from billing_invoices where workspace_id = ${spain.wid}`);
    expect(count!.n).toBe(1);
    const [issued] = await t.rows<{ n: number }>(sql`select count(*)::int as n from invoices where seller ->> 'taxId' = ${DEV_NIF}`);
    expect(issued!.n).toBe(3);
  });

  it('chains the three records under Diván’s NIF: recomputed, and valid XML for the AEAT (IDOtro for the French buyer)', async () => {
    const records = (
      await t.rows<Parameters<typeof toRecord>[0]>(
        sql`select id, issuer_tax_id as "issuerTaxId", issuer_name as "issuerName", position, record_type as "recordType", invoice_id as "invoiceId",
              workspace_id as "workspaceId", invoice_number as "invoiceNumber", issue_date::text as "issueDate", invoice_type as "invoiceType",
              vat_total as "vatTotal", total, previous_fingerprint as "previousFingerprint", fingerprint, generated_at as "generatedAt", detail
            from verifactu_records where issuer_tax_id = ${DEV_NIF} order by position`,
      )
    ).map((r) => ({ ...r, position: Number(r.position) }));
    expect(records.map((r) => [r.position, r.invoiceNumber, r.invoiceType])).toEqual([
      [1, `D${new Date().getFullYear()}-0001`, 'F1'],
      [2, `D${new Date().getFullYear()}-0002`, 'F1'],
      [3, `D${new Date().getFullYear()}-0003`, 'F1'],
    ]);
    const xml = buildRegFactuXml({
      issuer: { name: records[0]!.issuerName, taxId: DEV_NIF },
      software: softwareOf(),
      records: records.map(toRecord),
    });
    // verifyChain answers the index of the first broken record, or null.
    expect(verifyChain(parseRegFactuXml(xml))).toBeNull();
    expect(xml).toMatch(
      /<sum1:IDOtro>\s*<sum1:CodigoPais>FR<\/sum1:CodigoPais>\s*<sum1:IDType>02<\/sum1:IDType>\s*<sum1:ID>FR12345678901</,
    );
    expect(xml.match(/<sum1:CalificacionOperacion>N2</g)).toHaveLength(2);
    if (!skipXsd) {
      const valid = validateAgainstXsd(xml, 'divan-invoices.xml');
      expect(valid.ok, valid.output).toBe(true);
    }
  });
});
