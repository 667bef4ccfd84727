// The next numbers of a seller's series (issue 24): what the billing settings say under the prefix being typed.
import { z } from 'zod';
import { formatInvoiceNumber, seriesPrefixes, seriesPrefixProblem } from './invoice-math';

/** A seller's counters of this year (GET /me/invoice-series, …/workspaces/:id/invoice-series): the last number each series gave. */
export const invoiceSeriesCountersResponse = z.object({
  year: z.number().int(),
  counters: z.array(z.object({ kind: z.enum(['ordinary', 'rectifying']), prefix: z.string(), last: z.number().int() })),
});
export type InvoiceSeriesCounters = z.infer<typeof invoiceSeriesCountersResponse>;

/**
 * The numbers the seller's next invoices will take with the prefix `typed` (the counter's next, 1 in a new
 * series; going back to an old prefix carries on where it stopped); null while the prefix is not valid.
 */
export function nextInvoiceNumbers(typed: string, series: InvoiceSeriesCounters): { ordinary: string; rectifying: string } | null {
  const prefix = typed.trim().toUpperCase();
  if (seriesPrefixProblem(prefix)) return null;
  const prefixes = seriesPrefixes(prefix);
  const next = (kind: 'ordinary' | 'rectifying') =>
    formatInvoiceNumber({
      prefix: prefixes[kind],
      year: series.year,
      sequence: (series.counters.find((c) => c.kind === kind && c.prefix === prefixes[kind])?.last ?? 0) + 1,
    });
  return { ordinary: next('ordinary'), rectifying: next('rectifying') };
}

/** «Tu próxima factura será la 2026-0002 (rectificativa: R2026-0001).», or «La próxima factura del espacio será…». */
export function nextInvoiceText(typed: string, series: InvoiceSeriesCounters, whose: 'mine' | 'workspace'): string | null {
  const next = nextInvoiceNumbers(typed, series);
  if (!next) return null;
  return `${whose === 'mine' ? 'Tu próxima factura' : 'La próxima factura del espacio'} será la ${next.ordinary} (rectificativa: ${next.rectifying}).`;
}
