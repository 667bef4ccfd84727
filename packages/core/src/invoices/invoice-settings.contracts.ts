// A seller's series prefix and a member's automatic invoices (issue 11): what the settings take and answer.
import { z } from 'zod';
import { msg } from '../messages';
import { textField } from '../fields';
import { seriesPrefixProblem, SERIES_PREFIX_MAX } from './invoice-math';

/**
 * The prefix of a seller's invoice series ('' gives 2026-0001; "F-" gives F-2026-0001 and, for the
 * rectifying series, RF-2026-0001). Trimmed and upper-cased; a new prefix starts a new series.
 */
export const seriesPrefixSchema = textField('Prefijo de serie')
  .trim()
  .max(SERIES_PREFIX_MAX + 20, { error: msg.maxLength(SERIES_PREFIX_MAX) })
  .transform((v) => v.toUpperCase())
  .superRefine((v, ctx) => {
    const problem = seriesPrefixProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** «Facturas automáticas al completar una sesión»: Advance and Team plans (the plan's invoice batches feature). */
export const invoiceSettingsBody = z.object({ autoInvoice: z.boolean({ error: msg.invalid('Facturas automáticas') }) });
export const invoiceSettingsResponse = z.object({
  autoInvoice: z.boolean(),
  /** Whether the workspace's plan allows it (Basic does not; a downgraded workspace stops invoicing automatically). */
  autoInvoiceAllowed: z.boolean(),
  /** The latest sessions the automatic invoices could not invoice, and why (in Spanish). */
  skipped: z.array(z.object({ sessionId: z.uuid(), reason: z.string(), at: z.string() })),
});
export type InvoiceSettings = z.infer<typeof invoiceSettingsResponse>;
