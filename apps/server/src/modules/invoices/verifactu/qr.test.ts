import { describe, expect, it } from 'vitest';
import { VERIFACTU_LEGEND, VERIFACTU_QR_TEST_BASE_URL, VERIFACTU_VERIFIABLE_SENTENCE, verifactuQrUrl } from './qr';

const invoice = { issuerTaxId: '89890001K', number: '12345678&G33', issueDate: '2024-09-01', totalCents: 24140 };

describe('verifactuQrUrl', () => {
  it('points at the production service with the four parameters, URL-encoded', () => {
    expect(verifactuQrUrl(invoice)).toBe(
      'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%26G33&fecha=01-09-2024&importe=241.40',
    );
  });

  it('uses the test environment when asked', () => {
    expect(verifactuQrUrl({ ...invoice, number: 'A/2024 1' }, VERIFACTU_QR_TEST_BASE_URL)).toBe(
      'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=A%2F2024%201&fecha=01-09-2024&importe=241.40',
    );
  });

  it('round-trips every value through a standard URL parser', () => {
    const url = new URL(verifactuQrUrl({ ...invoice, number: 'Ñ-1?=#+%', totalCents: -5 }));
    expect(Object.fromEntries(url.searchParams)).toEqual({ nif: '89890001K', numserie: 'Ñ-1?=#+%', fecha: '01-09-2024', importe: '-0.05' });
  });

  it('writes the total with two decimals and refuses bad dates', () => {
    expect(verifactuQrUrl({ ...invoice, totalCents: 10000 })).toMatch(/&importe=100\.00$/);
    expect(() => verifactuQrUrl({ ...invoice, issueDate: '01-09-2024' })).toThrow(RangeError);
  });

  it('exposes the legend and the sentence printed with the QR', () => {
    expect(VERIFACTU_LEGEND).toBe('VERI*FACTU');
    expect(VERIFACTU_VERIFIABLE_SENTENCE).toBe('Factura verificable en la sede electrónica de la AEAT');
  });
});
