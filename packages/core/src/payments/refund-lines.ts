import { allocateCents, lineTotals, type InvoiceLineInput } from '../invoices/invoice-math';

/** A line of the invoice being refunded, as stored (cents, hundredths of quantity). */
export type RefundSourceLine = Pick<InvoiceLineInput, 'description' | 'vatRate' | 'withholdingRate' | 'exemption'> & { totalCents: number };

/**
 * The lines of the rectifying invoice (by difference) for a refund of `refundCents` of an invoice:
 * the refund is shared among the original lines in proportion to their totals, and each share becomes
 * a negative line with the same taxes whose base gives that total. VAT and withholding are rounded per
 * line, so a total can be out of reach by a cent; the cent then moves to the next line. The result's
 * totals add up to exactly −refundCents when any base reaches it (always, for the exempt and the
 * single-rate invoices a practice issues), and `totalCents` says what it is.
 */
export function refundLinesOf(lines: readonly RefundSourceLine[], refundCents: number): { lines: InvoiceLineInput[]; totalCents: number } {
  if (!Number.isSafeInteger(refundCents) || refundCents <= 0)
    throw new RangeError(`A refund is positive integer cents, got ${String(refundCents)}`);
  const positive = lines.filter((l) => l.totalCents > 0);
  if (!positive.length) throw new RangeError('Nothing to refund: no line with a positive total');
  const shares = allocateCents(
    refundCents,
    positive.map((l) => l.totalCents),
  );
  const out: InvoiceLineInput[] = [];
  let carry = 0;
  positive.forEach((l, i) => {
    const target = shares[i]! + carry;
    if (target === 0) return;
    const base = baseFor(l, target);
    const line: InvoiceLineInput = {
      description: `Devolución: ${l.description}`.slice(0, 300),
      unitPriceCents: -base,
      quantity: 1,
      vatRate: l.vatRate,
      withholdingRate: l.withholdingRate,
      exemption: l.exemption,
    };
    const got = -lineTotals(line).totalCents;
    carry = target - got;
    out.push(line);
  });
  return { lines: out, totalCents: -out.reduce((s, l) => s + -lineTotals(l).totalCents, 0) };
}

/** A line as the invoice repositories return it (its total in `total`; an older row may lack the exemption). */
export type StoredRefundSourceLine = Omit<RefundSourceLine, 'totalCents' | 'exemption'> & {
  exemption?: RefundSourceLine['exemption'] | undefined;
  total: number;
};

/** `refundLinesOf` over the stored lines of the invoice being refunded. */
export function refundLinesOfStored(lines: readonly StoredRefundSourceLine[], refundCents: number): ReturnType<typeof refundLinesOf> {
  return refundLinesOf(
    lines.map((l) => ({
      description: l.description,
      vatRate: l.vatRate,
      withholdingRate: l.withholdingRate,
      exemption: l.exemption ?? null,
      totalCents: l.total,
    })),
    refundCents,
  );
}

/** The base (positive cents) whose line total is `target`, or the nearest below it. */
function baseFor(l: RefundSourceLine, target: number): number {
  const factor = 1 + l.vatRate / 100 - l.withholdingRate / 100;
  const guess = Math.round(target / factor);
  let best = guess;
  let bestGap = Infinity;
  for (let b = Math.max(1, guess - 3); b <= guess + 3; b++) {
    const t = lineTotals({
      description: '',
      unitPriceCents: b,
      quantity: 1,
      vatRate: l.vatRate,
      withholdingRate: l.withholdingRate,
      exemption: l.exemption,
    }).totalCents;
    const gap = target - t;
    if (gap === 0) return b;
    if (gap > 0 && gap < bestGap) [best, bestGap] = [b, gap];
  }
  return best;
}
