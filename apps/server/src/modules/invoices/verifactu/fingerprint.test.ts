import { describe, expect, it } from 'vitest';
import {
  cancellationFingerprint,
  cancellationHashInput,
  cancellationValues,
  formatGeneratedAt,
  registrationFingerprint,
  registrationHashInput,
  registrationHashParts,
  registrationValues,
  type RegistrationFingerprintInput,
} from './fingerprint';
import { formatAmount, formatRate, fromAeatDate, parseAmount, toAeatDate } from './format';

// The AEAT's published examples ("Detalle de las especificaciones técnicas para generación de la
// huella o hash de los registros de facturación", v0.1.2, §6).
const CASE_1 = {
  string:
    'IDEmisorFactura=89890001K&NumSerieFactura=12345678/G33&FechaExpedicionFactura=01-01-2024&TipoFactura=F1&CuotaTotal=12.35&ImporteTotal=123.45&Huella=&FechaHoraHusoGenRegistro=2024-01-01T19:20:30+01:00',
  huella: '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60',
};
const CASE_2 = {
  string:
    'IDEmisorFactura=89890001K&NumSerieFactura=12345679/G34&FechaExpedicionFactura=01-01-2024&TipoFactura=F1&CuotaTotal=12.35&ImporteTotal=123.45&Huella=3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60&FechaHoraHusoGenRegistro=2024-01-01T19:20:35+01:00',
  huella: 'F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97',
};
const CASE_3 = {
  string:
    'IDEmisorFacturaAnulada=89890001K&NumSerieFacturaAnulada=12345679/G34&FechaExpedicionFacturaAnulada=01-01-2024&Huella=F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97&FechaHoraHusoGenRegistro=2024-01-01T19:20:40+01:00',
  huella: '177547C0D57AC74748561D054A9CEC14B4C4EA23D1BEFD6F2E69E3A388F90C68',
};

const first: RegistrationFingerprintInput = {
  issuerTaxId: '89890001K',
  number: '12345678/G33',
  issueDate: '2024-01-01',
  invoiceType: 'F1',
  vatTotalCents: 1235,
  totalCents: 12345,
  previousFingerprint: null,
  generatedAt: '2024-01-01T19:20:30+01:00',
};

describe('registrationFingerprint', () => {
  it('reproduces the AEAT case 1 (first record of the chain)', () => {
    expect(registrationHashInput(registrationValues(first))).toBe(CASE_1.string);
    expect(registrationFingerprint(first)).toBe(CASE_1.huella);
  });

  it('reproduces the AEAT case 2 (chained on case 1)', () => {
    const second = {
      ...first,
      number: '12345679/G34',
      previousFingerprint: registrationFingerprint(first),
      generatedAt: '2024-01-01T19:20:35+01:00',
    };
    expect(registrationHashInput(registrationValues(second))).toBe(CASE_2.string);
    expect(registrationFingerprint(second)).toBe(CASE_2.huella);
  });

  it('cuts the hashed string around the number, the previous fingerprint and the generation time, for the database to fill in (both AEAT cases)', () => {
    const { number: _n, previousFingerprint: _p, generatedAt: _g, ...rest } = first;
    const [a, b, c, d] = registrationHashParts(rest);
    expect(a + first.number + b + '' + c + '2024-01-01T19:20:30+01:00' + d).toBe(CASE_1.string);
    expect(a + '12345679/G34' + b + CASE_1.huella + c + '2024-01-01T19:20:35+01:00' + d).toBe(CASE_2.string);
  });

  it('trims every value, as the spec requires, and keeps inner spaces', () => {
    const padded = { ...first, issuerTaxId: ' 89890001K ', number: '  12345678/G33 ', generatedAt: ' 2024-01-01T19:20:30+01:00 ' };
    expect(registrationFingerprint(padded)).toBe(CASE_1.huella);
    expect(registrationHashInput(registrationValues({ ...first, number: ' A 1 ' }))).toContain('&NumSerieFactura=A 1&');
  });

  it('writes amounts with two decimals, a dot and a leading minus', () => {
    const text = registrationHashInput(registrationValues({ ...first, invoiceType: 'R4', vatTotalCents: -1250, totalCents: 10000 }));
    expect(text).toContain('&TipoFactura=R4&CuotaTotal=-12.50&ImporteTotal=100.00&');
  });

  it('refuses malformed input instead of hashing it', () => {
    expect(() => registrationFingerprint({ ...first, totalCents: 12.5 })).toThrow(RangeError);
    expect(() => registrationFingerprint({ ...first, issueDate: '2024-02-30' })).toThrow(RangeError);
    expect(() => registrationFingerprint({ ...first, generatedAt: '2024-01-01T19:20:30' })).toThrow(RangeError);
    expect(() => registrationFingerprint({ ...first, previousFingerprint: 'abc' })).toThrow(RangeError);
  });
});

describe('cancellationFingerprint', () => {
  it('reproduces the AEAT case 3 (cancellation chained on case 2)', () => {
    const r = {
      issuerTaxId: '89890001K',
      number: '12345679/G34',
      issueDate: '2024-01-01',
      previousFingerprint: CASE_2.huella,
      generatedAt: '2024-01-01T19:20:40+01:00',
    };
    expect(cancellationHashInput(cancellationValues(r))).toBe(CASE_3.string);
    expect(cancellationFingerprint(r)).toBe(CASE_3.huella);
  });

  it('writes an empty Huella for the first record of a chain', () => {
    const r = {
      issuerTaxId: '89890001K',
      number: 'A-1',
      issueDate: '2025-03-09',
      previousFingerprint: null,
      generatedAt: '2025-03-09T10:00:00+01:00',
    };
    expect(cancellationHashInput(cancellationValues(r))).toBe(
      'IDEmisorFacturaAnulada=89890001K&NumSerieFacturaAnulada=A-1&FechaExpedicionFacturaAnulada=09-03-2025&Huella=&FechaHoraHusoGenRegistro=2025-03-09T10:00:00+01:00',
    );
    expect(cancellationFingerprint(r)).toMatch(/^[0-9A-F]{64}$/);
  });
});

describe('formatGeneratedAt', () => {
  it('gives Madrid wall-clock time with its winter and summer offsets', () => {
    expect(formatGeneratedAt(new Date('2024-01-01T18:20:30.999Z'))).toBe('2024-01-01T19:20:30+01:00');
    expect(formatGeneratedAt(new Date('2024-07-01T17:20:30Z'))).toBe('2024-07-01T19:20:30+02:00');
  });

  it('follows the daylight-saving change to the second', () => {
    // Spain moved to summer time at 2024-03-31T01:00:00Z (02:00 → 03:00 local).
    expect(formatGeneratedAt(new Date('2024-03-31T00:59:59Z'))).toBe('2024-03-31T01:59:59+01:00');
    expect(formatGeneratedAt(new Date('2024-03-31T01:00:00Z'))).toBe('2024-03-31T03:00:00+02:00');
  });

  it('works for other zones, including negative and non-hour offsets', () => {
    expect(formatGeneratedAt(new Date('2024-01-01T00:00:00Z'), 'Atlantic/Canary')).toBe('2024-01-01T00:00:00+00:00');
    expect(formatGeneratedAt(new Date('2024-01-01T12:00:00Z'), 'America/New_York')).toBe('2024-01-01T07:00:00-05:00');
    expect(formatGeneratedAt(new Date('2024-01-01T12:00:00Z'), 'Asia/Kolkata')).toBe('2024-01-01T17:30:00+05:30');
    expect(formatGeneratedAt(new Date('2024-01-01T00:00:00Z'), 'UTC')).toBe('2024-01-01T00:00:00+00:00');
  });
});

describe('value formats', () => {
  it('formats and parses amounts in cents', () => {
    expect([12345, 10000, 1250, 5, 0, -50, -123456].map(formatAmount)).toEqual([
      '123.45',
      '100.00',
      '12.50',
      '0.05',
      '0.00',
      '-0.50',
      '-1234.56',
    ]);
    expect(['123.1', '123.10', '100', '-0.5', '+7.05', ' 12.35 '].map(parseAmount)).toEqual([12310, 12310, 10000, -50, 705, 1235]);
    expect(() => parseAmount('1,50')).toThrow(RangeError);
    expect(() => formatAmount(1e15)).toThrow(RangeError);
  });

  it('formats rates and converts dates both ways', () => {
    expect([21, 10, 4, 5.2, 0].map(formatRate)).toEqual(['21.00', '10.00', '4.00', '5.20', '0.00']);
    expect(() => formatRate(21.005)).toThrow(RangeError);
    expect(toAeatDate('2024-02-29')).toBe('29-02-2024');
    expect(fromAeatDate('29-02-2024')).toBe('2024-02-29');
    expect(() => toAeatDate('2023-02-29')).toThrow(RangeError);
  });
});
