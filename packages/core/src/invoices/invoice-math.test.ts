import { describe, expect, it } from 'vitest';
import {
  allocateCents,
  DEFAULT_RECTIFYING_PREFIX,
  formatInvoiceNumber,
  invoiceTotals,
  lineTotals,
  parseInvoiceNumber,
  seriesPrefixProblem,
  seriesPrefixes,
  quantityHundredths,
  type InvoiceLineInput,
  type InvoiceNumberParts,
} from './invoice-math';

const line = (over: Partial<InvoiceLineInput> = {}): InvoiceLineInput => ({
  description: 'Sesión de terapia individual',
  unitPriceCents: 6000,
  quantity: 1,
  vatRate: 0,
  withholdingRate: 0,
  exemption: 'E1',
  ...over,
});

describe('lineTotals', () => {
  it('a therapy session for a patient: exempt, no withholding', () => {
    expect(lineTotals(line())).toEqual({ baseCents: 6000, vatCents: 0, withholdingCents: 0, totalCents: 6000 });
  });

  it('a therapy session for an insurer: exempt, 15% withheld', () => {
    expect(lineTotals(line({ withholdingRate: 15 }))).toEqual({ baseCents: 6000, vatCents: 0, withholdingCents: 900, totalCents: 5100 });
  });

  it('a report for an insurer: 21% VAT and 15% withheld', () => {
    const report = line({ description: 'Informe pericial', unitPriceCents: 15000, vatRate: 21, withholdingRate: 15, exemption: null });
    expect(lineTotals(report)).toEqual({ baseCents: 15000, vatCents: 3150, withholdingCents: 2250, totalCents: 15900 });
  });

  it('multiplies by quantities with two decimals exactly', () => {
    expect(lineTotals(line({ unitPriceCents: 100, quantity: 0.29 })).baseCents).toBe(29);
    expect(lineTotals(line({ unitPriceCents: 6000, quantity: 1.5 })).baseCents).toBe(9000);
    expect(lineTotals(line({ unitPriceCents: 1999, quantity: 0.01 })).baseCents).toBe(20);
    expect(lineTotals(line({ unitPriceCents: 4000, quantity: 12 })).baseCents).toBe(48000);
  });

  it('rounds the base half away from zero', () => {
    expect(lineTotals(line({ unitPriceCents: 3333, quantity: 1.5 })).baseCents).toBe(5000); // 4999.5
    expect(lineTotals(line({ unitPriceCents: -3333, quantity: 1.5 })).baseCents).toBe(-5000);
    expect(lineTotals(line({ unitPriceCents: 3333, quantity: 0.25 })).baseCents).toBe(833); // 833.25
    expect(lineTotals(line({ unitPriceCents: 3333, quantity: 0.75 })).baseCents).toBe(2500); // 2499.75
  });

  it('rounds VAT and withholding half away from zero, per line', () => {
    const taxed = (unitPriceCents: number, vatRate: number, withholdingRate: number) =>
      lineTotals(line({ unitPriceCents, vatRate, withholdingRate, exemption: null }));
    expect(taxed(50, 21, 0).vatCents).toBe(11); // 10.5
    expect(taxed(-50, 21, 0).vatCents).toBe(-11);
    expect(taxed(5, 10, 0).vatCents).toBe(1); // 0.5
    expect(taxed(15, 21, 0).vatCents).toBe(3); // 3.15
    expect(taxed(12, 4, 0).vatCents).toBe(0); // 0.48
    expect(taxed(10, 0, 15).withholdingCents).toBe(2); // 1.5
    expect(taxed(-10, 0, 15).withholdingCents).toBe(-2);
    expect(taxed(50, 0, 7).withholdingCents).toBe(4); // 3.5
    expect(taxed(1003, 21, 19)).toEqual({ baseCents: 1003, vatCents: 211, withholdingCents: 191, totalCents: 1023 }); // 210.63, 190.57
  });

  it('a rectifying line is negative throughout', () => {
    expect(lineTotals(line({ unitPriceCents: -6000, withholdingRate: 15 }))).toEqual({
      baseCents: -6000,
      vatCents: 0,
      withholdingCents: -900,
      totalCents: -5100,
    });
    expect(lineTotals(line({ unitPriceCents: -15000, vatRate: 21, withholdingRate: 7, exemption: null }))).toEqual({
      baseCents: -15000,
      vatCents: -3150,
      withholdingCents: -1050,
      totalCents: -17100,
    });
  });

  it('keeps the cents of large amounts', () => {
    expect(lineTotals(line({ unitPriceCents: 999_999_999_99, quantity: 99.99, vatRate: 21, exemption: null }))).toEqual({
      baseCents: 9_998_999_999_900,
      vatCents: 2_099_789_999_979,
      withholdingCents: 0,
      totalCents: 12_098_789_999_879,
    });
  });

  it.each([
    [{ quantity: 0 }, 'zero quantity'],
    [{ quantity: -1 }, 'negative quantity'],
    [{ quantity: 1.005 }, 'three decimals'],
    [{ quantity: 0.001 }, 'a thousandth'],
    [{ quantity: Number.NaN }, 'NaN quantity'],
    [{ quantity: Number.POSITIVE_INFINITY }, 'infinite quantity'],
    [{ unitPriceCents: 12.5 }, 'a fraction of a cent'],
    [{ unitPriceCents: Number.NaN }, 'NaN price'],
    [{ vatRate: 5, exemption: null }, 'a VAT rate Spain does not have'],
    [{ vatRate: 0.21, exemption: null }, 'a fraction instead of a percent'],
    [{ withholdingRate: 10 }, 'a withholding rate Spain does not have'],
    [{ vatRate: 21, exemption: 'E1' }, 'an exempt line with VAT'],
    [{ exemption: 'E2' as 'E1' }, 'an unknown exemption'],
  ] as [Partial<InvoiceLineInput>, string][])('refuses %j (%s)', (over) => {
    expect(() => lineTotals(line(over))).toThrow(RangeError);
  });

  it('refuses a result beyond the safe integers', () => {
    expect(() => lineTotals(line({ unitPriceCents: Number.MAX_SAFE_INTEGER, quantity: 2 }))).toThrow(RangeError);
  });
});

describe('quantityHundredths', () => {
  it('reads quantities as exact hundredths, whatever the double says', () => {
    expect(quantityHundredths(1)).toBe(100);
    expect(quantityHundredths(0.29)).toBe(29); // 0.29 * 100 === 28.999999999999996
    expect(quantityHundredths(1.15)).toBe(115); // 1.15 * 100 === 114.99999999999999
    expect(quantityHundredths(0.01)).toBe(1);
    expect(quantityHundredths(123456.78)).toBe(12345678);
  });
});

describe('invoiceTotals', () => {
  const therapy = line({ withholdingRate: 15 });
  const report = line({ description: 'Informe', unitPriceCents: 15000, vatRate: 21, withholdingRate: 15, exemption: null });
  const training = line({ description: 'Taller', unitPriceCents: 5000, quantity: 2, vatRate: 21, withholdingRate: 7, exemption: null });
  const notSubject = line({ description: 'Suplido', unitPriceCents: 1000, vatRate: 0, withholdingRate: 0, exemption: null });

  it('adds up the lines and breaks them down by rate', () => {
    const totals = invoiceTotals([report, therapy, training, notSubject, therapy]);
    expect(totals.lines).toHaveLength(5);
    expect(totals).toMatchObject({ subtotalCents: 38000, vatCents: 5250, withholdingCents: 4750, totalCents: 38500 });
    expect(totals.vatBreakdown).toEqual([
      { vatRate: 0, exemption: null, baseCents: 1000, vatCents: 0 },
      { vatRate: 0, exemption: 'E1', baseCents: 12000, vatCents: 0 },
      { vatRate: 21, exemption: null, baseCents: 25000, vatCents: 5250 },
    ]);
    expect(totals.withholdingBreakdown).toEqual([
      { rate: 7, baseCents: 10000, withholdingCents: 700 },
      { rate: 15, baseCents: 27000, withholdingCents: 4050 },
    ]);
  });

  it('rounds per line, so the VAT is the sum of the rounded lines', () => {
    // Three lines of 0.50 € at 21%: 0.105 € each, 0.11 € per line, 0.33 € in all (not 0.32 €).
    const cheap = line({ unitPriceCents: 50, vatRate: 21, exemption: null });
    const totals = invoiceTotals([cheap, cheap, cheap]);
    expect(totals.vatCents).toBe(33);
    expect(totals.vatBreakdown).toEqual([{ vatRate: 21, exemption: null, baseCents: 150, vatCents: 33 }]);
  });

  it('a rectifying invoice that cancels a session is the exact opposite', () => {
    const original = invoiceTotals([therapy, report]);
    const rectifying = invoiceTotals([line({ ...therapy, unitPriceCents: -6000 }), line({ ...report, unitPriceCents: -15000 })]);
    expect(rectifying.totalCents).toBe(-original.totalCents);
    expect(rectifying.vatBreakdown.map((r) => r.vatCents)).toEqual(original.vatBreakdown.map((r) => -r.vatCents || 0));
  });

  it('an invoice without lines is all zeros', () => {
    expect(invoiceTotals([])).toEqual({
      lines: [],
      subtotalCents: 0,
      vatCents: 0,
      withholdingCents: 0,
      totalCents: 0,
      vatBreakdown: [],
      withholdingBreakdown: [],
    });
  });

  it('throws on an invalid line', () => {
    expect(() => invoiceTotals([therapy, line({ quantity: 0 })])).toThrow(RangeError);
  });
});

describe('allocateCents', () => {
  it('splits by the largest remainder, the earliest first on a tie', () => {
    expect(allocateCents(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateCents(200, [1, 1, 1])).toEqual([67, 67, 66]);
    expect(allocateCents(7, [2, 3, 5])).toEqual([1, 2, 4]); // 1.4, 2.1, 3.5
    expect(allocateCents(1, [1, 1])).toEqual([1, 0]);
    expect(allocateCents(10000, [6000, 4000])).toEqual([6000, 4000]);
    expect(allocateCents(10, [1, 2, 3, 4])).toEqual([1, 2, 3, 4]);
    expect(allocateCents(11, [1, 2, 3, 4])).toEqual([1, 2, 3, 5]); // 1.1, 2.2, 3.3, 4.4: the cent left goes to .4
  });

  it('splits a negative total like its opposite', () => {
    expect(allocateCents(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    expect(allocateCents(-7, [2, 3, 5])).toEqual([-1, -2, -4]);
  });

  it('gives nothing to a zero weight, and never -0', () => {
    expect(allocateCents(100, [0, 1, 1])).toEqual([0, 50, 50]);
    expect(allocateCents(5, [0, 0, 1])).toEqual([0, 0, 5]);
    const parts = allocateCents(-1, [0, 1]);
    expect(parts).toEqual([0, -1]);
    expect(Object.is(parts[0], 0)).toBe(true);
    expect(allocateCents(0, [1, 2]).every((p) => Object.is(p, 0))).toBe(true);
  });

  it('is exact with fractional weights', () => {
    expect(allocateCents(1000, [0.1, 0.2, 0.7])).toEqual([100, 200, 700]);
    expect(allocateCents(100, [1 / 3, 1 / 3, 1 / 3])).toEqual([34, 33, 33]);
    expect(allocateCents(3, [1e-300, 1e300, 1])).toEqual([0, 3, 0]);
    expect(allocateCents(1, [Number.MIN_VALUE, Number.MIN_VALUE])).toEqual([1, 0]);
  });

  it.each([
    [1, [], 'no weights'],
    [1, [0, 0], 'all weights zero'],
    [1, [-1, 2], 'a negative weight'],
    [1, [Number.NaN], 'a NaN weight'],
    [1, [Number.POSITIVE_INFINITY, 1], 'an infinite weight'],
    [1.5, [1], 'a fraction of a cent'],
  ] as [number, number[], string][])('throws on (%j, %j): %s', (total, weights) => {
    expect(() => allocateCents(total, weights)).toThrow(RangeError);
  });
});

describe('invoice numbers', () => {
  it('writes prefix, year and the padded sequence', () => {
    expect(formatInvoiceNumber({ prefix: '', year: 2026, sequence: 1 })).toBe('2026-0001');
    expect(formatInvoiceNumber({ prefix: 'F', year: 2026, sequence: 1 })).toBe('F2026-0001');
    expect(formatInvoiceNumber({ prefix: DEFAULT_RECTIFYING_PREFIX, year: 2026, sequence: 12 })).toBe('R2026-0012');
    expect(formatInvoiceNumber({ prefix: 'FA', year: 2027, sequence: 7, digits: 6 })).toBe('FA2027-000007');
    expect(formatInvoiceNumber({ prefix: '', year: 2026, sequence: 12345 })).toBe('2026-12345'); // never cut
    expect(formatInvoiceNumber({ prefix: 'F-', year: 2026, sequence: 1 })).toBe('F-2026-0001');
    expect(formatInvoiceNumber({ prefix: 'RCL/2-', year: 2026, sequence: 3 })).toBe('RCL/2-2026-0003');
  });

  it.each([
    [{ prefix: 'f', year: 2026, sequence: 1 }, 'a lower-case prefix'],
    [{ prefix: 'F1', year: 2026, sequence: 1 }, 'a prefix ending in a digit'],
    [{ prefix: '-F', year: 2026, sequence: 1 }, 'a prefix starting with a dash'],
    [{ prefix: 'F.', year: 2026, sequence: 1 }, 'a dot in the prefix'],
    [{ prefix: 'ABCDEFGHIJKL', year: 2026, sequence: 1 }, 'a 12-letter prefix'],
    [{ prefix: '', year: 26, sequence: 1 }, 'a two-digit year'],
    [{ prefix: '', year: 2026, sequence: 0 }, 'sequence 0'],
    [{ prefix: '', year: 2026, sequence: 1.5 }, 'a fractional sequence'],
    [{ prefix: '', year: 2026, sequence: 1, digits: 0 }, 'zero digits'],
  ] as [InvoiceNumberParts, string][])('refuses %j (%s)', (parts) => {
    expect(() => formatInvoiceNumber(parts)).toThrow(RangeError);
  });

  it('reads an invoice number back', () => {
    expect(parseInvoiceNumber('2026-0001')).toEqual({ prefix: '', year: 2026, sequence: 1, digits: 4 });
    expect(parseInvoiceNumber('F2026-0001')).toEqual({ prefix: 'F', year: 2026, sequence: 1, digits: 4 });
    expect(parseInvoiceNumber(' r2026-0012 ')).toEqual({ prefix: 'R', year: 2026, sequence: 12, digits: 4 });
    expect(parseInvoiceNumber('FA2027-000007')).toEqual({ prefix: 'FA', year: 2027, sequence: 7, digits: 6 });
    expect(parseInvoiceNumber('2026-12345')).toEqual({ prefix: '', year: 2026, sequence: 12345, digits: 5 });
    expect(parseInvoiceNumber('F-2026-0001')).toEqual({ prefix: 'F-', year: 2026, sequence: 1, digits: 4 });
    expect(parseInvoiceNumber('RCL/2-2026-0003')).toEqual({ prefix: 'RCL/2-', year: 2026, sequence: 3, digits: 4 });
  });

  it.each([
    '',
    '2026',
    '2026-',
    '-0001',
    '2026-0000',
    '0999-0001',
    '26-0001',
    '-2026-0001',
    'F1-2026',
    '2026/0001',
    'F12026-0001x',
    'Ñ2026-0001',
    '2026-00a1',
  ])('%j is not an invoice number', (text) => {
    expect(parseInvoiceNumber(text)).toBeNull();
  });

  it('refuses a digit right before the year (a prefix never ends in one)', () => {
    expect(parseInvoiceNumber('12026-0001')).toBeNull();
    expect(parseInvoiceNumber('F12026-0001')).toBeNull();
  });
});

describe('series prefixes', () => {
  it.each(['', 'F', 'F-', 'CL/', 'A1-', 'FACT/2026/', 'ABCDEFGHIJ'])('%j is a valid prefix', (p) => {
    expect(seriesPrefixProblem(p)).toBeNull();
    expect(() => formatInvoiceNumber({ prefix: seriesPrefixes(p).rectifying, year: 2026, sequence: 1 })).not.toThrow();
  });

  it.each([
    ['ABCDEFGHIJK', 'El prefijo admite como mucho 10 caracteres.'],
    ['F.', 'El prefijo solo admite letras sin tilde (A–Z), números, guion (-) y barra (/).'],
    ['Ñ', 'El prefijo solo admite letras sin tilde (A–Z), números, guion (-) y barra (/).'],
    ['-F', 'El prefijo empieza por una letra.'],
    ['REC', 'El prefijo no puede empezar por R: la serie rectificativa es la misma con una R delante.'],
    ['F1', 'El prefijo no puede acabar en un número (se confundiría con el año): añade un guion, p. ej. «F1-».'],
  ])('%j is refused in Spanish', (p, message) => {
    expect(seriesPrefixProblem(p)).toBe(message);
  });

  it('puts an R before the rectifying series', () => {
    expect(seriesPrefixes('')).toEqual({ ordinary: '', rectifying: 'R' });
    expect(seriesPrefixes('F-')).toEqual({ ordinary: 'F-', rectifying: 'RF-' });
  });
});
