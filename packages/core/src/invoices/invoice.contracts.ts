// What the invoices API takes and answers (issue 11). Amounts are integer cents; quantities come as
// numbers with up to two decimals. Tax rules and arithmetic: invoice-taxes.ts and invoice-math.ts.
import { z } from 'zod';
import { msg } from '../messages';
import { optionalText, requiredText, textField } from '../fields';
import { daysBetween, isIsoDay, todayIn } from '../time/zoned';
import { isoDaySchema } from '../time/time.contracts';
import { PAYMENT_STATUS, PAYMENT_TYPE } from '../sessions/session.constants';
import { isValidSpanishTaxId } from '../patients/tax-id';
import { BUYER_KINDS, INVOICE_ITEM_KINDS } from './invoice-taxes';
import { VAT_EXEMPTIONS } from './invoice-math';
import { seriesPrefixSchema } from './invoice-settings.contracts';

const enumOf = <K extends string>(values: readonly K[]) => z.enum(values as unknown as [K, ...K[]], { error: msg.invalid('valor') });

/** An invoice line's unit price is at most 100.000 € (and at least −100.000 € on a rectifying line). */
export const INVOICE_AMOUNT_MAX = 10_000_000;
/** Lines of one invoice. */
export const INVOICE_LINES_MAX = 200;

/** `voided`: an issued invoice cancelled because it was wrongly issued (a VERI*FACTU RegistroAnulacion). */
export const INVOICE_STATUS = {
  values: ['draft', 'issued', 'voided'] as const,
  labels: { draft: 'Borrador', issued: 'Emitida', voided: 'Anulada' },
};
export const INVOICE_KIND = { values: ['ordinary', 'rectifying'] as const, labels: { ordinary: 'Ordinaria', rectifying: 'Rectificativa' } };
export const RECTIFICATION_METHOD = {
  values: ['difference', 'substitution'] as const,
  labels: { difference: 'Por diferencias', substitution: 'Por sustitución' },
};
export type InvoiceStatus = (typeof INVOICE_STATUS.values)[number];
export type RectificationMethod = (typeof RECTIFICATION_METHOD.values)[number];

const taxId = (label: string) =>
  z
    .string({ error: msg.invalid(label) })
    .trim()
    .max(20, { error: msg.maxLength(20) })
    .refine((v) => v === '' || isValidSpanishTaxId(v), { error: 'El NIF, NIE o CIF no es válido: revisa la letra de control.' });

/** The buyer as printed: the patient's billing info, or a third payer (a guardian, a company, an insurer). */
export const invoiceBuyer = z.object({
  kind: enumOf(BUYER_KINDS),
  fullName: requiredText('nombre o razón social', 150),
  taxId: taxId('NIF').nullable().optional(),
  line1: optionalText('Dirección', 150),
  line2: optionalText('Dirección (línea 2)', 150),
  city: optionalText('Ciudad', 80),
  zipCode: optionalText('Código postal', 10),
  country: optionalText('País', 60),
  email: z
    .email({ error: msg.invalid('Email') })
    .max(254)
    .nullable()
    .optional(),
});
export type InvoiceBuyer = z.infer<typeof invoiceBuyer>;

export const invoiceLineInput = z.object({
  description: requiredText('concepto', 300),
  itemKind: enumOf(INVOICE_ITEM_KINDS).default('therapy'),
  unitPriceCents: z
    .number({ error: msg.invalid('Precio') })
    .int({ error: msg.invalid('Precio') })
    .min(-INVOICE_AMOUNT_MAX, { error: msg.invalid('Precio') })
    .max(INVOICE_AMOUNT_MAX, { error: msg.max('100.000 €') }),
  quantity: z
    .number({ error: msg.invalid('Cantidad') })
    .positive({ error: 'La cantidad debe ser mayor que cero.' })
    .max(1000, { error: msg.max('1000') })
    .refine((q) => Math.abs(Math.round(q * 100) - q * 100) < 1e-9, { error: 'La cantidad admite como mucho dos decimales.' })
    .default(1),
  /** Omitted: the rule of its kind and buyer (therapy exempt; other services 21 %; withholding for companies). */
  vatRate: z
    .union([z.literal(0), z.literal(4), z.literal(10), z.literal(21)], { error: 'Tipo de IVA no válido (0, 4, 10 o 21 %).' })
    .optional(),
  withholdingRate: z
    .union([z.literal(0), z.literal(7), z.literal(15), z.literal(19)], { error: 'Retención no válida (0, 7, 15 o 19 %).' })
    .optional(),
  exemption: z.enum(VAT_EXEMPTIONS).nullable().optional(),
  sessionId: z
    .uuid({ error: msg.invalid('Sesión') })
    .nullable()
    .optional(),
});
export type InvoiceLineInputBody = z.input<typeof invoiceLineInput>;

export const createInvoiceBody = z.object({
  /** The therapist it belongs to (default: the caller); their membership's payments receiver decides the seller. */
  therapistId: z.uuid({ error: msg.invalid('Terapeuta') }).optional(),
  patientId: z
    .uuid({ error: msg.invalid('Paciente') })
    .nullable()
    .optional(),
  /** Omitted: the patient's billing info. */
  buyer: invoiceBuyer.nullable().optional(),
  lines: z
    .array(invoiceLineInput)
    .max(INVOICE_LINES_MAX, { error: msg.arrayMax(INVOICE_LINES_MAX) })
    .default([]),
  footer: optionalText('Pie de factura', 500),
  chargeDate: isoDaySchema.nullable().optional(),
});
// Lines omitted stay as they are (the create body's default of none would empty the draft).
export const updateInvoiceBody = createInvoiceBody
  .omit({ therapistId: true })
  .partial()
  .extend({
    lines: z
      .array(invoiceLineInput)
      .max(INVOICE_LINES_MAX, { error: msg.arrayMax(INVOICE_LINES_MAX) })
      .optional(),
  });
export const invoiceFromSessionsBody = z.object({
  patientId: z.uuid({ error: msg.invalid('Paciente') }),
  sessionIds: z
    .array(z.uuid({ error: msg.invalid('Sesión') }))
    .min(1, { error: 'Elige al menos una sesión.' })
    .max(INVOICE_LINES_MAX),
});
export const payInvoiceBody = z.object({ paymentType: enumOf(PAYMENT_TYPE.values), paidOn: isoDaySchema.optional() });
export const rectifyInvoiceBody = z.object({
  method: enumOf(RECTIFICATION_METHOD.values),
  reason: requiredText('motivo', 300),
  /** By substitution: the corrected lines (none: the invoice is cancelled). By difference: the differences. */
  lines: z.array(invoiceLineInput).max(INVOICE_LINES_MAX).default([]),
});
/** Voids a wrongly issued invoice (a RegistroAnulacion): it stays, marked «Anulada», and its sessions can be invoiced again. */
export const voidInvoiceBody = z.object({ reason: requiredText('motivo', 300) });
export const invoiceIdParams = z.object({ workspaceId: z.uuid(), invoiceId: z.uuid() });
export const invoiceListQuery = z.object({
  from: isoDaySchema.optional(),
  to: isoDaySchema.optional(),
  status: enumOf(INVOICE_STATUS.values).optional(),
  paymentStatus: enumOf(PAYMENT_STATUS.values).optional(),
  therapistId: z.uuid().optional(),
  patientId: z.uuid().optional(),
  series: textField('Serie').max(30).optional(),
  q: textField('Búsqueda').trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type InvoiceListQuery = z.output<typeof invoiceListQuery>;
/** The list's filters, for the accountant's export of the issued invoices. */
export const invoiceExportQuery = invoiceListQuery.extend({
  format: z.enum(['csv', 'xlsx'], { error: 'Formato no válido (csv o xlsx).' }).default('xlsx'),
});

const party = invoiceBuyer.extend({ kind: z.string(), fullName: z.string(), taxId: z.string().nullable().optional() });
export const invoiceLineResponse = z.object({
  id: z.uuid(),
  position: z.number().int(),
  description: z.string(),
  itemKind: enumOf(INVOICE_ITEM_KINDS),
  unitPriceCents: z.number().int(),
  quantity: z.number(),
  vatRate: z.number().int(),
  withholdingRate: z.number().int(),
  exemption: z.enum(VAT_EXEMPTIONS).nullable(),
  baseCents: z.number().int(),
  vatCents: z.number().int(),
  withholdingCents: z.number().int(),
  totalCents: z.number().int(),
  sessionId: z.uuid().nullable(),
});
export const invoiceResponse = z.object({
  id: z.uuid(),
  status: enumOf(INVOICE_STATUS.values),
  kind: enumOf(INVOICE_KIND.values),
  number: z.string().nullable(),
  series: z.string().nullable(),
  issueDate: z.string().nullable(),
  sellerType: z.enum(['therapist', 'workspace']),
  seller: party.nullable(),
  buyer: party.nullable(),
  therapist: z.object({ id: z.uuid(), name: z.string() }),
  patient: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  lines: z.array(invoiceLineResponse),
  subtotalCents: z.number().int(),
  vatCents: z.number().int(),
  withholdingCents: z.number().int(),
  totalCents: z.number().int(),
  vatBreakdown: z.array(
    z.object({
      vatRate: z.number().int(),
      exemption: z.enum(VAT_EXEMPTIONS).nullable(),
      baseCents: z.number().int(),
      vatCents: z.number().int(),
    }),
  ),
  legends: z.array(z.string()),
  paymentStatus: enumOf(PAYMENT_STATUS.values),
  paymentType: enumOf(PAYMENT_TYPE.values).nullable(),
  paidAt: z.string().nullable(),
  chargeDate: z.string().nullable(),
  footer: z.string().nullable(),
  rectifies: z
    .object({ id: z.uuid(), number: z.string().nullable(), method: enumOf(RECTIFICATION_METHOD.values), reason: z.string() })
    .nullable(),
  /** The rectifying invoices that correct this one (a voided one stays listed with its status). */
  rectifiedBy: z.array(
    z.object({
      id: z.uuid(),
      number: z.string().nullable(),
      method: enumOf(RECTIFICATION_METHOD.values),
      issueDate: z.string().nullable(),
      status: enumOf(INVOICE_STATUS.values),
    }),
  ),
  /** When and why it was voided; null unless `status` is voided. */
  voided: z.object({ at: z.string(), reason: z.string() }).nullable(),
  verifactu: z.object({ fingerprint: z.string(), qrUrl: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Invoice = z.infer<typeof invoiceResponse>;
/** GET …/invoices/series: the series of the member's invoices, for the list's filter. */
export const invoiceSeriesResponse = z.object({ items: z.array(z.string()) });
export const invoiceListResponse = z.object({
  items: z.array(invoiceResponse.omit({ lines: true, vatBreakdown: true, legends: true, rectifiedBy: true })),
  total: z.number().int(),
  totals: z.object({
    subtotalCents: z.number().int(),
    vatCents: z.number().int(),
    withholdingCents: z.number().int(),
    totalCents: z.number().int(),
  }),
});

/** The therapist's own billing data (settings «Facturación»). */
export const therapistBillingBody = z.object({
  fullName: optionalText('Nombre completo', 150),
  taxId: taxId('NIF').nullable().optional(),
  line1: optionalText('Dirección', 150),
  line2: optionalText('Dirección (línea 2)', 150),
  city: optionalText('Ciudad', 80),
  zipCode: optionalText('Código postal', 10),
  country: optionalText('País', 60),
  footer: optionalText('Pie de factura', 500),
  withholdingRate: z
    .union([z.literal(7), z.literal(15)], { error: 'La retención es del 15 % o, en los primeros años de actividad, del 7 %.' })
    .optional(),
  /** The prefix of their invoice series ('' gives 2026-0001): a new prefix starts a new series. */
  seriesPrefix: seriesPrefixSchema.optional(),
});
export const therapistBillingResponse = therapistBillingBody
  .required()
  .extend({ withholdingRate: z.union([z.literal(7), z.literal(15)]), seriesPrefix: z.string() });
export type TherapistBilling = z.infer<typeof therapistBillingResponse>;

// Batches (Advance plan): one invoice per patient for a period's completed, not-yet-invoiced sessions.
/** "Date not too old" and "range not too wide" of §5, for batches and fee balances. */
export const INVOICE_BATCH_MAX_AGE_DAYS = 400;
export const INVOICE_BATCH_MAX_DAYS = 93;
export const invoiceBatchBody = z
  .object({
    from: isoDaySchema,
    to: isoDaySchema,
    /** Only this therapist's sessions (default: every session the member reads). */
    therapistId: z.uuid({ error: msg.invalid('Terapeuta') }).optional(),
  })
  .superRefine((b, ctx) => {
    if (!isIsoDay(b.from) || !isIsoDay(b.to)) return; // already reported by the fields
    const today = todayIn('Europe/Madrid');
    if (daysBetween(b.from, today) > INVOICE_BATCH_MAX_AGE_DAYS)
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'La fecha de inicio es demasiado antigua: como mucho, hace 400 días.' });
    if (b.to < b.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'La fecha de fin no puede ser anterior a la de inicio.' });
    else if (daysBetween(b.from, b.to) >= INVOICE_BATCH_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'El periodo es demasiado largo: como mucho, tres meses.' });
  });
export type InvoiceBatchBody = z.infer<typeof invoiceBatchBody>;
export const invoiceBatchPreview = z.object({
  items: z.array(
    z.object({
      patient: z.object({ id: z.uuid(), name: z.string() }),
      therapistId: z.uuid(),
      sessions: z.number().int(),
      totalCents: z.number().int(),
    }),
  ),
  invoices: z.number().int(),
  sessions: z.number().int(),
  totalCents: z.number().int(),
});
export const invoiceBatchResponse = z.object({
  id: z.uuid(),
  from: z.string(),
  to: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  total: z.number().int(),
  done: z.number().int(),
  invoiceIds: z.array(z.uuid()),
  errors: z.array(z.object({ patientId: z.uuid(), message: z.string() })),
  createdAt: z.string(),
});
export type InvoiceBatch = z.infer<typeof invoiceBatchResponse>;
export const invoiceBatchIdParams = z.object({ workspaceId: z.uuid(), batchId: z.uuid() });

/** The VERI*FACTU export of one issuer for a period (GET …/invoices/verifactu). */
export const verifactuExportQuery = z.object({
  /** Default: the caller's own tax id (settings «Facturación»), else the workspace's. */
  issuerTaxId: textField('NIF del emisor').trim().max(20).optional(),
  /** Default: from the 1st of January to today. */
  from: isoDaySchema.optional(),
  to: isoDaySchema.optional(),
});
