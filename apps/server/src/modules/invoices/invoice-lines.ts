import {
  formatDayEs,
  invoiceTotals,
  lineTotals,
  resolveLineTaxes,
  quantityHundredths,
  withholdingProblem,
  type BuyerKind,
  type createInvoiceBody,
} from '@divan/core';
import type { z } from 'zod';
import { AppError } from '../../platform/errors';
import type { InvoiceLineRow } from './invoices.tables';

export type LineBody = z.output<typeof createInvoiceBody>['lines'][number];

/** Reads shared by the invoices of one transaction (a batch's chunk): member terms and billing data, read once each. */
export type ReadCache = Map<string, Promise<unknown>>;
export function readOnce<T>(cache: ReadCache | undefined, key: string, read: () => Promise<T>): Promise<T> {
  if (!cache) return read();
  let p = cache.get(key) as Promise<T> | undefined;
  if (!p) {
    p = read();
    cache.set(key, p);
    p.catch(() => cache.delete(key));
  }
  return p;
}

/** The lines as stored: each line's taxes default to the rule of its kind and the buyer; totals per line in cents. */
export function lineRowsOf(lines: LineBody[], buyerKind: BuyerKind, withholdingRate: 7 | 15) {
  return lines.map((l, position) => {
    const taxes = resolveLineTaxes(l, buyerKind, { withholdingRate });
    if (!taxes)
      throw new AppError('invalid_argument', [
        { path: `lines.${position}.vatRate`, message: 'Una línea exenta de IVA lleva un tipo del 0 %.' },
      ]);
    const withheld = withholdingProblem(buyerKind, taxes.withholdingRate);
    if (withheld) throw withholdingRefused(position, withheld);
    const input = { description: l.description, unitPriceCents: l.unitPriceCents, quantity: l.quantity, ...taxes };
    const t = lineTotals(input);
    return {
      position,
      description: input.description,
      itemKind: l.itemKind,
      unitPrice: input.unitPriceCents,
      quantityHundredths: quantityHundredths(input.quantity),
      vatRate: input.vatRate,
      withholdingRate: input.withholdingRate,
      exemption: input.exemption,
      base: t.baseCents,
      vat: t.vatCents,
      withholding: t.withholdingCents,
      total: t.totalCents,
      sessionId: l.sessionId ?? null,
    };
  });
}

/** A line withheld from a buyer who does not withhold: refused at the line's field, never issued. */
export const withholdingRefused = (position: number, message: string) =>
  new AppError('invalid_argument', [{ path: `lines.${position}.withholdingRate`, message }], message);

type StoredLine = Pick<
  ReturnType<typeof lineRowsOf>[number],
  'description' | 'unitPrice' | 'quantityHundredths' | 'vatRate' | 'withholdingRate' | 'exemption'
>;

/** The invoice's totals as stored, from its lines by core's invoiceTotals (each the exact sum of the rounded lines). */
export function totalsOf(rows: StoredLine[]) {
  const t = invoiceTotals(
    rows.map((r) => ({
      description: r.description,
      unitPriceCents: r.unitPrice,
      quantity: r.quantityHundredths / 100,
      vatRate: r.vatRate,
      withholdingRate: r.withholdingRate,
      exemption: r.exemption,
    })),
  );
  return { subtotal: t.subtotalCents, vat: t.vatCents, withholding: t.withholdingCents, total: t.totalCents };
}

/** A stored line as a line body again (the draft's lines rewritten for a new buyer). */
export const bodyOf = (l: InvoiceLineRow): LineBody => ({
  description: l.description,
  itemKind: l.itemKind,
  unitPriceCents: l.unitPrice,
  quantity: l.quantityHundredths / 100,
  // The VAT chosen stays; the withholding follows the (new) buyer.
  vatRate: l.vatRate as 0 | 4 | 10 | 21,
  exemption: l.exemption ?? null,
  sessionId: l.sessionId,
});

/** One line per session, at its price (a draft from sessions, a batch, an automatic invoice). */
export function sessionLines(sessions: { id: string; day: string; price: number; modality: 'online' | 'presential' }[]): LineBody[] {
  return sessions.map((s) => ({
    description: `Sesión de psicoterapia (${s.modality === 'online' ? 'online' : 'presencial'}) del ${formatDayEs(s.day)}`,
    itemKind: 'therapy',
    unitPriceCents: s.price,
    quantity: 1,
    sessionId: s.id,
  }));
}

/** The sessions a stored invoice's lines invoice. */
export const sessionIdsOf = (lines: InvoiceLineRow[]) => lines.map((l) => l.sessionId).filter((x): x is string => !!x);
