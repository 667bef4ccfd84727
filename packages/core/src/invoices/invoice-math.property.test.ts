import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateCents,
  formatInvoiceNumber,
  invoiceTotals,
  lineTotals,
  parseInvoiceNumber,
  VAT_RATES,
  WITHHOLDING_RATES,
  type InvoiceLineInput,
  type LineTotals,
} from './invoice-math';

const RUNS = { numRuns: 500 };

/** A valid line: price up to ±100,000 €, quantity 0.01 to 1,000 in hundredths, Spanish rates. */
const lineArb: fc.Arbitrary<InvoiceLineInput> = fc
  .record({
    unitPriceCents: fc.integer({ min: -10_000_000, max: 10_000_000 }),
    hundredths: fc.integer({ min: 1, max: 100_000 }),
    vatRate: fc.constantFrom(...VAT_RATES),
    withholdingRate: fc.constantFrom(...WITHHOLDING_RATES),
    exempt: fc.boolean(),
  })
  .map(({ unitPriceCents, hundredths, vatRate, withholdingRate, exempt }) => ({
    description: 'Línea',
    unitPriceCents,
    quantity: hundredths / 100,
    vatRate,
    withholdingRate,
    exemption: exempt && vatRate === 0 ? 'E1' : null,
  }));

const linesArb = fc.array(lineArb, { maxLength: 30 });
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const sumOf = (lines: LineTotals[], key: keyof LineTotals) => sum(lines.map((l) => l[key]));

describe('invoice totals (properties)', () => {
  it('every line is integer cents and total = base + VAT − withholding', () => {
    fc.assert(
      fc.property(lineArb, (line) => {
        const t = lineTotals(line);
        for (const v of Object.values(t)) expect(Number.isSafeInteger(v)).toBe(true);
        expect(t.totalCents).toBe(t.baseCents + t.vatCents - t.withholdingCents);
      }),
      RUNS,
    );
  });

  it('the base is within half a cent of unit price × quantity', () => {
    fc.assert(
      fc.property(lineArb, (line) => {
        const exactTimes100 = BigInt(line.unitPriceCents) * BigInt(Math.round(line.quantity * 100));
        const diff = BigInt(lineTotals(line).baseCents) * 100n - exactTimes100;
        expect(diff <= 50n && diff >= -50n).toBe(true);
      }),
      RUNS,
    );
  });

  it('the VAT and the withholding of a line are never more than half a cent off the exact value', () => {
    fc.assert(
      fc.property(lineArb, (line) => {
        const t = lineTotals(line);
        // |rounded × 100 − base × rate| ≤ 50 ⇔ |rounded − base × rate / 100| ≤ 0.5 cent.
        expect(Math.abs(t.vatCents * 100 - t.baseCents * line.vatRate)).toBeLessThanOrEqual(50);
        expect(Math.abs(t.withholdingCents * 100 - t.baseCents * line.withholdingRate)).toBeLessThanOrEqual(50);
        if (line.exemption === 'E1') expect(t.vatCents).toBe(0);
      }),
      RUNS,
    );
  });

  it('a negated line gives exactly the negated totals (rounding is symmetric)', () => {
    fc.assert(
      fc.property(lineArb, (line) => {
        const t = lineTotals(line);
        const n = lineTotals({ ...line, unitPriceCents: -line.unitPriceCents });
        expect([n.baseCents, n.vatCents, n.withholdingCents, n.totalCents]).toEqual([
          -t.baseCents || 0,
          -t.vatCents || 0,
          -t.withholdingCents || 0,
          -t.totalCents || 0,
        ]);
      }),
      RUNS,
    );
  });

  it('the invoice totals are always the sum of the lines', () => {
    fc.assert(
      fc.property(linesArb, (lines) => {
        const totals = invoiceTotals(lines);
        expect(totals.lines).toEqual(lines.map(lineTotals));
        expect(totals.subtotalCents).toBe(sumOf(totals.lines, 'baseCents'));
        expect(totals.vatCents).toBe(sumOf(totals.lines, 'vatCents'));
        expect(totals.withholdingCents).toBe(sumOf(totals.lines, 'withholdingCents'));
        expect(totals.totalCents).toBe(sumOf(totals.lines, 'totalCents'));
        expect(totals.totalCents).toBe(totals.subtotalCents + totals.vatCents - totals.withholdingCents);
      }),
      RUNS,
    );
  });

  it('the breakdowns add up to the totals, and each row to its own lines', () => {
    fc.assert(
      fc.property(linesArb, (lines) => {
        const totals = invoiceTotals(lines);
        const { vatBreakdown: vat, withholdingBreakdown: withheld } = totals;
        expect(sum(vat.map((r) => r.baseCents))).toBe(totals.subtotalCents);
        expect(sum(vat.map((r) => r.vatCents))).toBe(totals.vatCents);
        expect(sum(withheld.map((r) => r.withholdingCents))).toBe(totals.withholdingCents);

        for (const row of vat) {
          const mine = totals.lines.filter((_, i) => lines[i]!.vatRate === row.vatRate && lines[i]!.exemption === row.exemption);
          expect(mine.length).toBeGreaterThan(0);
          expect(row.baseCents).toBe(sumOf(mine, 'baseCents'));
          expect(row.vatCents).toBe(sumOf(mine, 'vatCents'));
        }
        for (const row of withheld) {
          const mine = totals.lines.filter((_, i) => lines[i]!.withholdingRate === row.rate);
          expect(row.rate).toBeGreaterThan(0);
          expect(mine.length).toBeGreaterThan(0);
          expect(row.baseCents).toBe(sumOf(mine, 'baseCents'));
          expect(row.withholdingCents).toBe(sumOf(mine, 'withholdingCents'));
        }

        // One row per (rate, exemption) present, sorted by rate, the taxed row before the exempt one.
        const keys = vat.map((r) => `${r.vatRate}|${r.exemption ?? ''}`);
        expect(new Set(keys).size).toBe(keys.length);
        expect(keys.length).toBe(new Set(lines.map((l) => `${l.vatRate}|${l.exemption ?? ''}`)).size);
        const order = (r: { vatRate: number; exemption: string | null }) => r.vatRate * 2 + (r.exemption ? 1 : 0);
        expect(vat.map(order)).toEqual([...vat.map(order)].sort((a, b) => a - b));
        expect(withheld.map((r) => r.rate)).toEqual(
          [...new Set(lines.map((l) => l.withholdingRate).filter((r) => r > 0))].sort((a, b) => a - b),
        );
      }),
      RUNS,
    );
  });
});

describe('allocateCents (properties)', () => {
  const totalArb = fc.integer({ min: -100_000_000, max: 100_000_000 });
  // Integer weights (cents, counts) with zeros mixed in, at least one above zero.
  const intWeightsArb = fc
    .array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_000_000 })), { minLength: 1, maxLength: 20 })
    .filter((ws) => ws.some((w) => w > 0));

  it('never loses or invents a cent, and each part is within one cent of its exact share', () => {
    fc.assert(
      fc.property(totalArb, intWeightsArb, (total, weights) => {
        const parts = allocateCents(total, weights);
        expect(parts).toHaveLength(weights.length);
        expect(sum(parts)).toBe(total);
        const W = BigInt(sum(weights));
        parts.forEach((part, i) => {
          expect(Number.isSafeInteger(part)).toBe(true);
          // |part − total × w / W| < 1 ⇔ |part × W − total × w| < W, checked exactly.
          const diff = BigInt(part) * W - BigInt(total) * BigInt(weights[i]!);
          expect(diff < W && diff > -W).toBe(true);
          if (weights[i] === 0) expect(Object.is(part, 0)).toBe(true);
        });
      }),
      RUNS,
    );
  });

  it('is the largest-remainder split: only the largest remainders (earliest first) are rounded up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), intWeightsArb, (total, weights) => {
        const parts = allocateCents(total, weights);
        const W = BigInt(sum(weights));
        const remainders = weights.map((w) => (BigInt(total) * BigInt(w)) % W);
        const roundedUp = parts.map((p, i) => BigInt(p) * W > BigInt(total) * BigInt(weights[i]!));
        for (let i = 0; i < parts.length; i++) {
          for (let j = 0; j < parts.length; j++) {
            if (!roundedUp[i] || roundedUp[j]) continue;
            // i got a cent and j did not: j's remainder is smaller, or equal and j comes later.
            expect(remainders[j]! < remainders[i]! || (remainders[j] === remainders[i] && j > i)).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });

  it('splits a negative total as the opposite of the positive one', () => {
    fc.assert(
      fc.property(totalArb, intWeightsArb, (total, weights) => {
        expect(allocateCents(-total, weights)).toEqual(allocateCents(total, weights).map((p) => -p || 0));
      }),
      RUNS,
    );
  });

  it('works with fractional weights too', () => {
    const floatWeightsArb = fc
      .array(fc.oneof(fc.constant(0), fc.double({ min: 1e-6, max: 1e6, noNaN: true })), { minLength: 1, maxLength: 20 })
      .filter((ws) => ws.some((w) => w > 0));
    fc.assert(
      fc.property(totalArb, floatWeightsArb, (total, weights) => {
        const parts = allocateCents(total, weights);
        expect(sum(parts)).toBe(total);
        const W = sum(weights);
        parts.forEach((part, i) => {
          expect(Number.isSafeInteger(part)).toBe(true);
          expect(Math.abs(part - (total * weights[i]!) / W)).toBeLessThan(1 + 1e-6);
          if (weights[i] === 0) expect(part).toBe(0);
        });
      }),
      RUNS,
    );
  });
});

describe('invoice numbers (properties)', () => {
  it('parseInvoiceNumber reads back what formatInvoiceNumber writes', () => {
    const partsArb = fc.record({
      prefix: fc.stringMatching(/^[A-Z]{0,10}$/),
      year: fc.integer({ min: 2000, max: 2200 }),
      digits: fc.integer({ min: 1, max: 8 }),
      sequence: fc.integer({ min: 1, max: 99_999_999 }),
    });
    fc.assert(
      fc.property(partsArb, (parts) => {
        const text = formatInvoiceNumber(parts);
        const back = parseInvoiceNumber(text);
        expect(back).toEqual({ ...parts, digits: Math.max(parts.digits, String(parts.sequence).length) });
        expect(formatInvoiceNumber(back!)).toBe(text);
      }),
      RUNS,
    );
  });
});
