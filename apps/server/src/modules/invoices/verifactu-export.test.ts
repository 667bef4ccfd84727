// Issue 11 "Must show": a chain of issued and rectified invoices of two issuers, exported as the AEAT's
// XML through the API, valid against the XSD, each fingerprint recomputed from the XML's own fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn, type Invoice } from '@divan/core';
import { createTestApp, type TestApp } from '../../test/test-app';
import { clinic, W, type Clinic } from '../../test/session-fixtures';
import type { Therapist } from '../../test/workspace-fixtures';
import { parseRegFactuXml, verifyChain } from './verifactu';
import { skipXsd, validateAgainstXsd, xsdMissing } from './verifactu/xsd.testing';

let t: TestApp;
let c: Clinic;
const today = todayIn('Europe/Madrid');
const THERAPIST_NIF = '12345678Z';
const CLINIC_CIF = 'B12345674';
const I = () => `${W(c.ws.id)}/invoices`;

async function issued(who: Therapist, body: object): Promise<Invoice> {
  const draft = await t.post(I(), body, { token: who.accessToken });
  expect(draft.statusCode, draft.body).toBe(201);
  const res = await t.post(`${I()}/${(draft.json() as Invoice).id}/issue`, undefined, { token: who.accessToken });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Invoice;
}
const exportXml = (who: Therapist, issuerTaxId: string) => t.get(`${I()}/verifactu?issuerTaxId=${issuerTaxId}&from=${today}&to=${today}`, { token: who.accessToken });

beforeAll(async () => {
  t = await createTestApp();
  c = await clinic(t, 'verifactu');
  expect((await t.put('/api/v1/me/billing', { fullName: 'Teresa Terapeuta', taxId: THERAPIST_NIF, city: 'Madrid' }, { token: c.tere.accessToken })).statusCode).toBe(200);
  const billing = { fullName: 'Clínica Verifactu SL', taxId: CLINIC_CIF, line1: 'Calle Alcalá 1', city: 'Madrid', zipCode: '28009', country: 'España' };
  expect((await t.put(`${W(c.ws.id)}/billing-info`, billing, { token: c.owner.accessToken })).statusCode).toBe(200);
  // Interleaved: Tere (paid herself) and the clinic (Tomás is paid through the workspace).
  const company = { kind: 'company', fullName: 'Mutua Ejemplo SA', taxId: 'A58818501' };
  const t1 = await issued(c.tere, { patientId: c.ana, lines: [{ description: 'Sesión', unitPriceCents: 6000 }] });
  await issued(c.owner, { therapistId: c.tomas.userId, patientId: c.bruno, lines: [{ description: 'Sesión', unitPriceCents: 5555 }] });
  await issued(c.tere, { buyer: company, lines: [{ description: 'Informe pericial', itemKind: 'report', unitPriceCents: 20000 }] });
  const w2 = await issued(c.owner, { therapistId: c.tomas.userId, buyer: company, lines: [{ description: 'Informe', itemKind: 'report', unitPriceCents: 15000, quantity: 1.5 }] });
  // Rectifying invoices of each issuer: one cancels by difference, one substitutes with a new amount.
  expect((await t.post(`${I()}/${t1.id}/rectify`, { method: 'difference', reason: 'Sesión no realizada' }, { token: c.tere.accessToken })).statusCode).toBe(201);
  const sub = await t.post(`${I()}/${w2.id}/rectify`, { method: 'substitution', reason: 'Importe corregido', lines: [{ description: 'Informe', itemKind: 'report', unitPriceCents: 15000 }] }, { token: c.owner.accessToken });
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
    const tampered = res.body.replace(/(<sum1:ImporteTotal>)([^<]*)(<\/sum1:ImporteTotal>)/, (_m, a: string, _v: string, b: string) => `${a}1.00${b}`);
    expect(verifyChain(parseRegFactuXml(tampered))).toBe(0);
  });

  it.skipIf(skipXsd)('is valid against the AEAT schema, for both issuers', async () => {
    expect(xsdMissing).toEqual([]);
    for (const nif of [THERAPIST_NIF, CLINIC_CIF]) {
      const result = validateAgainstXsd((await exportXml(c.owner, nif)).body, `${nif}.xml`);
      expect(result.ok, result.output).toBe(true);
    }
  });

  it('gives a therapist who reads only her own invoices nothing of the clinic’s', async () => {
    expect((await exportXml(c.tere, CLINIC_CIF)).statusCode).toBe(204);
    expect((await exportXml(c.tere, THERAPIST_NIF)).statusCode).toBe(200);
  });
});
