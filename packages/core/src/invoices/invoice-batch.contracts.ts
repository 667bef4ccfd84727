// What a batch's preview and status answer (issue 24): every invoice named by its patient and its issuer, and
// what issuing would refuse said before anything is issued. Extends the batch contracts of invoice.contracts.ts.
import { z } from 'zod';
import { invoiceBatchPreview, invoiceBatchResponse } from './invoice.contracts';

/** Who issues an invoice (§6: the member's payments receiver): the therapist or the workspace, by name. */
export const invoiceIssuer = z.object({ kind: z.enum(['therapist', 'workspace']), id: z.uuid(), name: z.string() });
export type InvoiceIssuer = z.infer<typeof invoiceIssuer>;

/** Where an issuer's billing data is completed, as the settings' menus say it. */
export const ISSUER_SETTINGS = {
  therapist: { label: 'Ajustes › Datos de facturación', path: '/settings/billing' },
  workspace: { label: 'Ajustes del espacio › Facturación', path: '/settings/workspace/billing' },
} as const;

export const batchMessages = {
  /** Issuing's refusal for an incomplete seller, naming them and where to fix it. */
  issuerIncomplete: (issuer: Pick<InvoiceIssuer, 'kind' | 'name'>) =>
    `Completa los datos de facturación de ${issuer.name} (nombre y NIF) en ${ISSUER_SETTINGS[issuer.kind].label}.`,
  nothingIssuable: (first: string) => `No se puede emitir ninguna factura de este lote. ${first}`,
  lostPermission: 'Ya no tienes permiso para facturar en este espacio.',
} as const;

/**
 * The preview: each invoice with its patient, therapist and issuer, and `problem` when issuing would refuse it
 * (the same checks, nothing written); `invoices`, `sessions` and `totalCents` count only what would be issued.
 * `issuersIncomplete` come first on the screen: nothing of theirs is issued until their data is complete.
 */
export const invoiceBatchPreviewResponse = invoiceBatchPreview.extend({
  items: z.array(
    invoiceBatchPreview.shape.items.element.extend({
      therapist: z.object({ id: z.uuid(), name: z.string() }),
      issuer: invoiceIssuer,
      problem: z.object({ code: z.string(), message: z.string() }).nullable(),
    }),
  ),
  refused: z.number().int(),
  issuersIncomplete: z.array(invoiceIssuer.extend({ message: z.string(), settingsPath: z.string().nullable() })),
});
export type InvoiceBatchPreview = z.infer<typeof invoiceBatchPreviewResponse>;

/** A batch's progress; each failure names its patient (null when it is not about one). */
export const invoiceBatchStatusResponse = invoiceBatchResponse.extend({
  errors: z.array(z.object({ patientId: z.uuid(), patientName: z.string().nullable(), message: z.string() })),
});
export type InvoiceBatchStatus = z.infer<typeof invoiceBatchStatusResponse>;
