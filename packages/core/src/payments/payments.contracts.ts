// What the payments API takes and answers (issue 12): the Stripe account of a therapist or a workspace,
// the patient's saved card, charging, pay-by-link and refunds. Amounts are integer cents.
import { z } from 'zod';
import { linkToken, requiredText } from '../fields';
import { isoDaySchema } from '../time/time.contracts';
import { msg } from '../messages';
import { CHARGE_BLOCKS, PAY_LINK_BLOCKS } from './charge-rules';

/** The account's state as the settings screen shows it. */
export const PAYMENT_ACCOUNT_STATUS = {
  values: ['not_connected', 'pending', 'restricted', 'active'] as const,
  labels: { not_connected: 'Sin conectar', pending: 'Faltan datos por completar', restricted: 'Cobros en revisión', active: 'Activa' },
};
export type PaymentAccountStatus = (typeof PAYMENT_ACCOUNT_STATUS.values)[number];

/** `test`: Stripe's test mode or Diván's built-in sandbox (nothing real is charged: «modo de prueba»). */
export const PAYMENTS_MODE = z.enum(['test', 'live']);
export type PaymentsMode = z.infer<typeof PAYMENTS_MODE>;

export const paymentAccountResponse = z.object({
  holder: z.enum(['therapist', 'workspace']),
  mode: PAYMENTS_MODE,
  /** `sandbox`: Diván's own test provider (no Stripe keys configured). */
  provider: z.enum(['stripe', 'sandbox']),
  status: z.enum(PAYMENT_ACCOUNT_STATUS.values),
  accountId: z.string().nullable(),
  detailsSubmitted: z.boolean(),
  chargesEnabled: z.boolean(),
  payoutsEnabled: z.boolean(),
  connectedAt: z.string().nullable(),
});
export type PaymentAccount = z.infer<typeof paymentAccountResponse>;

/** A page of Stripe's to open (onboarding, the Express dashboard, a checkout). */
export const paymentUrlResponse = z.object({ url: z.string() });

export const savedCard = z.object({ brand: z.string(), last4: z.string(), expMonth: z.number().int(), expYear: z.number().int() });
export type SavedCard = z.infer<typeof savedCard>;

/** The patient's card saved on their therapist's account, and the «cobros automáticos» switch. */
export const patientPaymentMethodResponse = z.object({
  mode: PAYMENTS_MODE,
  therapist: z.object({ id: z.uuid(), name: z.string() }),
  /** The therapist can take card payments (their account is connected and active). */
  therapistCanCharge: z.boolean(),
  card: savedCard.nullable(),
  autoCharge: z.boolean(),
  /** When the patient accepted the mandate for charges without them present (PSD2). */
  mandateAcceptedAt: z.string().nullable(),
  /** A card link is waiting for the patient: until when. */
  pendingLinkExpiresAt: z.string().nullable(),
});
export type PatientPaymentMethod = z.infer<typeof patientPaymentMethodResponse>;

export const updatePaymentMethodBody = z.object({ autoCharge: z.boolean({ error: msg.invalid('cobros automáticos') }) });

/** Mails the patient (or only returns) a link to save a card on the therapist's account. */
export const cardLinkBody = z.object({ send: z.boolean().default(true) });
export const paymentLinkResponse = z.object({ url: z.string(), expiresAt: z.string(), mailedTo: z.string().nullable() });

export const PAYMENT_ATTEMPT_STATUS = {
  values: ['processing', 'requires_action', 'succeeded', 'failed', 'canceled'] as const,
  labels: {
    processing: 'En curso',
    requires_action: 'Esperando autenticación del paciente',
    succeeded: 'Cobrado',
    failed: 'Rechazado',
    canceled: 'Cancelado',
  },
};
export const REFUND_STATUS = {
  values: ['pending', 'succeeded', 'failed', 'canceled'] as const,
  labels: { pending: 'En curso', succeeded: 'Devuelto', failed: 'Fallida', canceled: 'Cancelada' },
};

/** What the invoice screen needs for its payment actions: why «Cobrar» is disabled, what was charged and refunded. */
export const invoicePaymentsResponse = z.object({
  mode: PAYMENTS_MODE,
  chargeBlock: z.enum(CHARGE_BLOCKS).nullable(),
  /** Why a pay-by-link cannot be made, or null. */
  payLinkBlock: z.enum(PAY_LINK_BLOCKS).nullable(),
  /** Where «Enviar enlace de pago» mails it (the buyer's email, else the patient's); null: only «Copiar enlace». */
  payLinkTo: z.string().nullable(),
  chargedCents: z.number().int(),
  refundedCents: z.number().int(),
  refundableCents: z.number().int(),
  attempts: z.array(
    z.object({
      id: z.uuid(),
      kind: z.enum(['charge', 'checkout']),
      status: z.enum(PAYMENT_ATTEMPT_STATUS.values),
      amountCents: z.number().int(),
      /** Why it failed, in Spanish. */
      error: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  refunds: z.array(
    z.object({
      id: z.uuid(),
      amountCents: z.number().int(),
      status: z.enum(REFUND_STATUS.values),
      reason: z.string(),
      rectifying: z.object({ id: z.uuid(), number: z.string().nullable() }).nullable(),
      createdAt: z.string(),
    }),
  ),
});
export type InvoicePayments = z.infer<typeof invoicePaymentsResponse>;

export const chargeInvoiceResponse = z.object({
  status: z.enum(PAYMENT_ATTEMPT_STATUS.values),
  /** What happened, in Spanish (paid, waiting for the bank, the patient was mailed a link to authenticate…). */
  message: z.string(),
});

export const payLinkBody = z.object({ send: z.boolean().default(true) });

export const refundInvoiceBody = z.object({
  /** Omitted: everything left to refund. */
  amountCents: z
    .number({ error: msg.invalid('importe') })
    .int({ error: msg.invalid('importe') })
    .positive({ error: 'El importe debe ser mayor que 0.' })
    .max(10_000_000)
    .optional(),
  reason: requiredText('motivo', 300),
});
export const refundInvoiceResponse = z.object({
  status: z.enum(REFUND_STATUS.values),
  amountCents: z.number().int(),
  /** The rectifying invoice issued for the refunded amount. */
  rectifying: z.object({ id: z.uuid(), number: z.string().nullable() }).nullable(),
});

/** The public page of a mailed link (no account): what it is for and who asks. */
export const publicPaymentLinkResponse = z.object({
  kind: z.enum(['card', 'invoice']),
  mode: PAYMENTS_MODE,
  sellerName: z.string(),
  /** For `card`: the mandate the patient accepts by saving it. */
  mandate: z.string().nullable(),
  invoice: z.object({ number: z.string(), issueDate: z.string(), totalCents: z.number().int(), paid: z.boolean() }).nullable(),
  expiresAt: z.string(),
});
export const paymentLinkParams = z.object({ token: linkToken() });

/** The mandate for charges without the patient present (SCA "merchant-initiated transactions"), shown before saving the card. */
export function cardMandateText(sellerName: string): string {
  return (
    `Al guardar tu tarjeta autorizas a ${sellerName} a cobrar en ella, sin que tengas que estar presente, ` +
    'el importe de las facturas de tus sesiones y servicios a medida que se emitan, de acuerdo con lo acordado con tu terapeuta. ' +
    'Puedes retirar esta autorización en cualquier momento pidiéndoselo a tu terapeuta; cada cobro te llegará por email con su factura.'
  );
}

/** Session packs (bonos): N sessions at one price, sold to a patient and invoiced once. */
export const PACK_SESSIONS_MAX = 100;
export const createPackBody = z.object({
  name: z
    .string({ error: msg.invalid('nombre') })
    .trim()
    .max(120, { error: msg.maxLength(120) })
    .optional(),
  sessionsTotal: z
    .number({ error: msg.invalid('sesiones') })
    .int({ error: msg.invalid('sesiones') })
    .min(1, { error: 'El bono necesita al menos una sesión.' })
    .max(PACK_SESSIONS_MAX, { error: msg.max(String(PACK_SESSIONS_MAX)) }),
  priceCents: z
    .number({ error: msg.invalid('precio') })
    .int({ error: msg.invalid('precio') })
    .positive({ error: 'El precio debe ser mayor que 0.' })
    .max(10_000_000, { error: msg.max('100.000 €') }),
  /** The therapist whose sessions it pays (default: the patient's). */
  therapistId: z.uuid({ error: msg.invalid('terapeuta') }).optional(),
  /** Last day it can be used (none: no expiry). */
  expiresOn: isoDaySchema.nullable().optional(),
});
export const PACK_STATUS = {
  values: ['active', 'used', 'expired', 'refunded'] as const,
  labels: { active: 'Activo', used: 'Agotado', expired: 'Caducado', refunded: 'Devuelto' },
};
export const packResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  therapist: z.object({ id: z.uuid(), name: z.string() }),
  sessionsTotal: z.number().int(),
  sessionsUsed: z.number().int(),
  sessionsLeft: z.number().int(),
  refundedSessions: z.number().int(),
  priceCents: z.number().int(),
  expiresOn: z.string().nullable(),
  status: z.enum(PACK_STATUS.values),
  invoice: z.object({ id: z.uuid(), number: z.string().nullable(), paymentStatus: z.string() }).nullable(),
  refundInvoice: z.object({ id: z.uuid(), number: z.string().nullable() }).nullable(),
  createdAt: z.string(),
});
export type Pack = z.infer<typeof packResponse>;
export const packListResponse = z.object({ items: z.array(packResponse) });
export const packIdParams = z.object({ workspaceId: z.uuid(), patientId: z.uuid(), packId: z.uuid() });
export const refundPackBody = z.object({ reason: requiredText('motivo', 300) });
