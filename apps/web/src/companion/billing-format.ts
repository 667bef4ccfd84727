/**
 * The pure side of «Consentimientos» and «Facturas»: their order, their badges, the card as Spain
 * reads it, and the notice after coming back from a checkout (the server's `?estado=`).
 */
import {
  COMPANION_CONSENT_STATUS_LABELS,
  COMPANION_INVOICE_PAYMENT_STATUS_LABELS,
  displayDayEs,
  type CompanionConsent,
  type CompanionInvoice,
  type SavedCard,
} from '@divan/core';

export type Tone = 'pending' | 'done' | 'muted';

/** What waits for the patient first (to sign), then the rest as the server sent them (newest first). */
export function consentsInOrder(items: readonly CompanionConsent[]): CompanionConsent[] {
  const rank = (c: CompanionConsent) => (c.status === 'to_sign' ? 0 : c.status === 'waiting' ? 1 : 2);
  return items
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map(({ c }) => c);
}

export function consentBadge(c: Pick<CompanionConsent, 'status'>): { label: string; tone: Tone } {
  const tone: Tone = c.status === 'to_sign' ? 'pending' : c.status === 'signed' ? 'done' : 'muted';
  return { label: COMPANION_CONSENT_STATUS_LABELS[c.status], tone };
}

/** Invoices to pay first, then the rest as sent (latest first). */
export function invoicesInOrder(items: readonly CompanionInvoice[]): CompanionInvoice[] {
  const rank = (i: CompanionInvoice) => (i.amountDueCents > 0 ? 0 : 1);
  return items
    .map((v, i) => ({ v, i }))
    .sort((a, b) => rank(a.v) - rank(b.v) || a.i - b.i)
    .map(({ v }) => v);
}

export function invoiceBadge(i: Pick<CompanionInvoice, 'status' | 'paymentStatus' | 'kind'>): { label: string; tone: Tone } {
  if (i.status === 'voided') return { label: 'Anulada', tone: 'muted' };
  if (i.kind === 'rectifying') return { label: 'Rectificativa', tone: 'muted' };
  const label = COMPANION_INVOICE_PAYMENT_STATUS_LABELS[i.paymentStatus];
  return { label, tone: i.paymentStatus === 'pending' ? 'pending' : i.paymentStatus === 'paid' ? 'done' : 'muted' };
}

/** '2026-11-03' → '03/11/2026' (a calendar day: no time zone can move it). */
export function formatDay(ymd: string): string {
  return displayDayEs(ymd);
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Cartes Bancaires',
};

/** 'visa' → 'Visa'; an unknown brand as it came, capitalised; none: 'Tarjeta'. */
export function brandName(brand: string): string {
  const b = brand.trim().toLowerCase();
  if (!b || b === 'unknown') return 'Tarjeta';
  return BRANDS[b] ?? b.charAt(0).toUpperCase() + b.slice(1);
}

/** «Caduca 03/27». */
export const cardExpiry = (c: Pick<SavedCard, 'expMonth' | 'expYear'>) =>
  `${String(c.expMonth).padStart(2, '0')}/${String(c.expYear % 100).padStart(2, '0')}`;

/** The card has expired by `now` (it works through the last day of its month). */
export const cardExpired = (c: Pick<SavedCard, 'expMonth' | 'expYear'>, now = new Date()) =>
  c.expYear * 12 + c.expMonth < now.getFullYear() * 12 + now.getMonth() + 1;

export type ReturnNotice = 'pagado' | 'tarjeta';

/** The `?estado=` the checkout sends the patient back with (success URLs of the server's pay and setup). */
export function returnNoticeOf(search: string): ReturnNotice | null {
  const estado = new URLSearchParams(search).get('estado');
  return estado === 'pagado' || estado === 'tarjeta' ? estado : null;
}

export const RETURN_NOTICES: Record<ReturnNotice, string> = {
  pagado: 'Pago completado. Gracias: la factura aparecerá como pagada en cuanto el banco lo confirme.',
  tarjeta: 'Tarjeta guardada. Tu terapeuta podrá cobrarte las sesiones con ella mientras tengas activados los cobros automáticos.',
};
