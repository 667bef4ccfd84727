import { describe, expect, it } from 'vitest';
import { verifyChain } from './chain';
import { twoIssuerChain, twoIssuerDocument } from './verifactu.testkit';
import { buildRegFactuXml } from './xml';
import { parseRegFactuXml } from './xml-parse';
import { skipXsd, validateAgainstXsd, xsdMissing } from './xsd.testkit';

const validate = validateAgainstXsd;

/** Rewrites one element of the record at `index` (0-based RegistroFactura) in the XML text. */
function tamper(xml: string, index: number, element: string, replace: (value: string) => string): string {
  const parts = xml.split('<sum:RegistroFactura>');
  const at = index + 1;
  const re = new RegExp(`(<sum1:${element}>)([^<]*)(</sum1:${element}>)`);
  expect(parts[at], `record ${index} has ${element}`).toMatch(re);
  parts[at] = parts[at]!.replace(re, (_, open: string, value: string, close: string) => `${open}${replace(value)}${close}`);
  return parts.join('<sum:RegistroFactura>');
}

// One document holding records of two issuers, interleaved. The AEAT's schema allows it, but a real
// submission carries only the records of its Cabecera's ObligadoEmision: send one document per issuer.
const records = twoIssuerChain();
const xml = buildRegFactuXml(twoIssuerDocument(records));

describe('a chain of two issuers, interleaved, through XML', () => {
  it.skipIf(skipXsd)('is valid against the AEAT schema (SuministroLR.xsd), offline', () => {
    expect(xsdMissing, `XSD validation needs ${xsdMissing.join(' and ')}`).toEqual([]);
    const result = validate(xml, 'chain.xml');
    expect(result.ok, result.output).toBe(true);
    expect(result.output).toContain('validates');
    // A tampered amount is still schema-valid: only the chain check can catch it.
    expect(
      validate(
        tamper(xml, 4, 'ImporteTotal', () => '999.99'),
        'tampered.xml',
      ).ok,
    ).toBe(true);
    // And the validator does catch what the schema forbids.
    expect(validate(xml.replace('<sum1:TipoHuella>01<', '<sum1:TipoHuella>02<'), 'invalid.xml').ok).toBe(false);
  });

  it('parses back every record with the fields its fingerprint is made of', () => {
    const parsed = parseRegFactuXml(xml);
    expect(parsed).toHaveLength(records.length);
    parsed.forEach((p, i) => {
      const r = records[i]!;
      expect(p).toMatchObject({
        kind: r.kind,
        issuerTaxId: r.invoice.issuerTaxId,
        number: r.invoice.number,
        issueDate: r.invoice.issueDate,
      });
      expect(p.fingerprint).toBe(r.fingerprint);
      expect(p.previous).toEqual(r.previous);
      expect(p.generatedAt).toBe(r.generatedAt);
      if (p.kind === 'registration' && r.kind === 'registration') {
        expect([p.vatTotalCents, p.totalCents, p.invoiceType]).toEqual([r.vatTotalCents, r.totalCents, r.invoiceType]);
      }
    });
  });

  it('verifies, including the record that follows a cancellation', () => {
    const parsed = parseRegFactuXml(xml);
    expect(verifyChain(parsed)).toBeNull();
    // Record 6 (Ana) points at record 3, the cancellation of A-2025-0002.
    expect(parsed[6]!.previous).toEqual({
      issuerTaxId: '89890001K',
      number: 'A-2025-0002',
      issueDate: '2025-03-04',
      fingerprint: parsed[3]!.fingerprint,
    });
  });

  it('reports the record whose amount was changed', () => {
    expect(verifyChain(parseRegFactuXml(tamper(xml, 4, 'ImporteTotal', () => '999.99')))).toBe(4);
    expect(verifyChain(parseRegFactuXml(tamper(xml, 2, 'CuotaTotal', () => '21.01')))).toBe(2);
  });

  it('accepts an amount respelled without its trailing zero, as the AEAT does', () => {
    // The spec treats "241.4" and "241.40" alike when checking a fingerprint.
    expect(verifyChain(parseRegFactuXml(tamper(xml, 1, 'ImporteTotal', (v) => v.replace(/0$/, ''))))).toBeNull();
  });

  it('reports a removed, reordered or relinked record at the first place the chain breaks', () => {
    const parsed = parseRegFactuXml(xml);
    expect(verifyChain(parsed.filter((_, i) => i !== 2))).toBe(2); // the cancellation (now index 2) points at a missing record
    expect(verifyChain([parsed[0]!, parsed[2]!, parsed[1]!, ...parsed.slice(3)])).toBeNull(); // issuers are independent
    expect(verifyChain([parsed[2]!, parsed[0]!, ...parsed.slice(3)])).toBe(0); // Ana's second record first
    expect(verifyChain(parseRegFactuXml(tamper(xml, 5, 'Huella', () => '0'.repeat(64))))).toBe(5); // RegistroAnterior/Huella
    expect(verifyChain(parseRegFactuXml(tamper(xml, 7, 'FechaHoraHusoGenRegistro', () => '2025-04-01T18:00:01+02:00')))).toBe(7);
  });

  it('verifies a slice of the chain from each issuer’s last earlier record', () => {
    const parsed = parseRegFactuXml(xml);
    const slice = parsed.slice(3);
    expect(verifyChain(slice)).toBe(0);
    const anchor = (i: number) => ({
      issuerTaxId: parsed[i]!.issuerTaxId,
      number: parsed[i]!.number,
      issueDate: parsed[i]!.issueDate,
      fingerprint: parsed[i]!.fingerprint,
    });
    expect(verifyChain(slice, { anchors: { '89890001K': anchor(2), '12345678Z': anchor(1) } })).toBeNull();
  });
});
