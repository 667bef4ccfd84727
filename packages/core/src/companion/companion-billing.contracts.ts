// The companion's consents to sign, invoices to pay and saved card (/api/v1/patient/files/:patientFileId/…).
// Amounts are integer cents; dates of invoices YYYY-MM-DD; instants ISO 8601.
import { z } from 'zod';
import { PAYMENTS_MODE, savedCard } from '../payments/payments.contracts';
import { COMPANION_CONSENT_STATUSES } from './companion-billing.labels';

// The states and their Spanish labels live apart, without zod, so the companion's bundle can show them.
export {
  COMPANION_CONSENT_STATUSES,
  COMPANION_CONSENT_STATUS_LABELS,
  COMPANION_INVOICE_PAYMENT_STATUS_LABELS,
  type CompanionConsentStatus,
} from './companion-billing.labels';

const fileId = z.uuid({ error: 'Ficha inválida' });

// ---- Consents -------------------------------------------------------------------------------------

export const companionConsentParams = z.object({ patientFileId: fileId, envelopeId: z.uuid({ error: 'Consentimiento inválido' }) });

export const companionConsent = z.object({
  id: z.uuid(),
  /** The document's title as sent (filled template). */
  title: z.string(),
  status: z.enum(COMPANION_CONSENT_STATUSES),
  sentAt: z.iso.datetime(),
  /** When the account's signer signed (null: not yet). */
  signedAt: z.iso.datetime().nullable(),
  /** When the last signature came in (null: not complete). */
  completedAt: z.iso.datetime().nullable(),
  /** Until when the account's signer can sign. */
  expiresAt: z.iso.datetime(),
  /** The signed PDF can be downloaded (`…/consents/:envelopeId/download`). */
  canDownload: z.boolean(),
});
export type CompanionConsent = z.infer<typeof companionConsent>;
/** Newest first. */
export const companionConsentsResponse = z.object({ items: z.array(companionConsent) });
export type CompanionConsents = z.infer<typeof companionConsentsResponse>;

/** `url`: the consent's signing page (`/consents/sign/<token>`) for the account's signer. */
export const companionUrlResponse = z.object({ url: z.string() });
export type CompanionUrl = z.infer<typeof companionUrlResponse>;

// ---- Invoices -------------------------------------------------------------------------------------

export const companionInvoiceParams = z.object({ patientFileId: fileId, invoiceId: z.uuid({ error: 'Factura inválida' }) });

/** An issued (or voided) invoice whose patient is the file: never a draft. */
export const companionInvoice = z.object({
  id: z.uuid(),
  number: z.string(),
  issueDate: z.string(),
  kind: z.enum(['ordinary', 'rectifying']),
  /** `voided`: annulled after issuing (not to be paid). */
  status: z.enum(['issued', 'voided']),
  sellerName: z.string(),
  totalCents: z.number().int(),
  paymentStatus: z.enum(['pending', 'paid', 'refunded']),
  paidAt: z.iso.datetime().nullable(),
  /** What is left to pay: the total while pending and issued, else 0. */
  amountDueCents: z.number().int(),
  /** It can be paid by card now (`POST …/invoices/:invoiceId/pay`). */
  payable: z.boolean(),
});
export type CompanionInvoice = z.infer<typeof companionInvoice>;
/** Latest first. */
export const companionInvoicesResponse = z.object({ items: z.array(companionInvoice) });
export type CompanionInvoices = z.infer<typeof companionInvoicesResponse>;

// ---- Saved card -----------------------------------------------------------------------------------

/**
 * The patient's card saved on their therapist's account (the file's assigned therapist), and the
 * «cobros automáticos» switch. `canSave`: the therapist takes card payments; `mandate`: the text to show
 * before «Guardar tarjeta» (null when `canSave` is false).
 */
export const companionCardResponse = z.object({
  mode: PAYMENTS_MODE,
  therapistName: z.string().nullable(),
  canSave: z.boolean(),
  card: savedCard.nullable(),
  autoCharge: z.boolean(),
  mandate: z.string().nullable(),
});
export type CompanionCard = z.infer<typeof companionCardResponse>;

export const companionAutoChargeBody = z.object({ enabled: z.boolean({ error: 'Indica si quieres los cobros automáticos' }) });
export type CompanionAutoChargeBody = z.infer<typeof companionAutoChargeBody>;
