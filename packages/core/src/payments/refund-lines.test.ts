import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invoiceTotals, lineTotals } from '../invoices/invoice-math';
import { refundLinesOf, refundLinesOfStored, type RefundSourceLine } from './refund-lines';

const therapy = (total: number): RefundSourceLine => ({
  description: 'Sesión',
  vatRate: 0,
  withholdingRate: 0,
  exemption: 'E1',
  totalCents: total,
});

describe('refundLinesOf', () => {
  it('refunds an exempt session exactly, whole or in part', () => {
    expect(refundLinesOf([therapy(6000)], 6000)).toEqual({
      totalCents: -6000,
      lines: [expect.objectContaining({ unitPriceCents: -6000, quantity: 1, exemption: 'E1', description: 'Devolución: Sesión' })],
    });
    expect(refundLinesOf([therapy(6000)], 2550).totalCents).toBe(-2550);
  });

  it('shares a refund among lines by their totals, with their taxes', () => {
    const report: RefundSourceLine = { description: 'Informe', vatRate: 21, withholdingRate: 15, exemption: null, totalCents: 10600 };
    const r = refundLinesOf([therapy(6000), report], 8300);
    expect(r.totalCents).toBe(-8300);
    expect(r.lines[1]).toMatchObject({ vatRate: 21, withholdingRate: 15 });
    expect(invoiceTotals(r.lines).totalCents).toBe(-8300);
  });

  it('reads stored lines (total in `total`, an exemption that may be missing) as refundLinesOf does', () => {
    const stored = [
      { description: 'Sesión', vatRate: 0, withholdingRate: 0, exemption: 'E1' as const, total: 6000 },
      { description: 'Informe', vatRate: 21, withholdingRate: 15, total: 10600 },
    ];
    const r = refundLinesOfStored(stored, 8300);
    expect(r).toEqual(refundLinesOf([therapy(6000), { ...stored[1]!, exemption: null, totalCents: 10600 }], 8300));
    expect(r.lines[1]!.exemption).toBeNull();
  });

  it('property: the rectifying total is the refund, to the cent, for single-rate invoices', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          [0, 0, 'E1'] as const,
          [21, 0, null] as const,
          [21, 15, null] as const,
          [21, 7, null] as const,
          [0, 15, 'E1'] as const,
        ),
        fc.array(fc.integer({ min: 100, max: 500_000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        ([vat, wh, ex], bases, pick) => {
          const lines = bases.map((b) => ({
            description: 'x',
            vatRate: vat,
            withholdingRate: wh,
            exemption: ex,
            totalCents: lineTotals({ description: 'x', unitPriceCents: b, quantity: 1, vatRate: vat, withholdingRate: wh, exemption: ex })
              .totalCents,
          }));
          const invoiced = lines.reduce((s, l) => s + l.totalCents, 0);
          const refund = 1 + (pick % invoiced);
          const r = refundLinesOf(lines, refund);
          expect(Math.abs(r.totalCents + refund)).toBeLessThanOrEqual(vat === 0 && wh === 0 ? 0 : 1);
          expect(invoiceTotals(r.lines).totalCents).toBe(r.totalCents);
          expect(r.lines.every((l) => l.unitPriceCents < 0)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
