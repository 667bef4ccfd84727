// What the invoice PDF routes take and answer.
import { invoiceIdParams, msg } from '@divan/core';
import { z } from 'zod';

/** The workspace and the invoice, both UUIDs. */
export const invoicePdfParams = invoiceIdParams;

/** The PDF's bytes (`application/pdf`), sent as a download. */
export const invoicePdfResponse = z.string().describe('El PDF de la factura (application/pdf), como descarga.');

export const sendInvoiceBody = z
  .object({
    /** Omitted: the buyer's email on the invoice. */
    email: z
      .email({ error: msg.invalidEmail() })
      .max(254, { error: msg.maxLength(254) })
      .optional(),
  })
  .default({});

export const sendInvoiceResponse = z.object({
  /** The outbox mail that carries the PDF (relayed by a job; its status is the mail's). */
  mailId: z.uuid().nullable(),
  /** Where it went. */
  to: z.string(),
  /** The attachment's name. */
  filename: z.string(),
});
export type SendInvoiceResult = z.infer<typeof sendInvoiceResponse>;
