import { createHash } from 'node:crypto';

/**
 * Stripe's test cards the sandbox takes, and what each does (docs.stripe.com/testing). A saved
 * card keeps only what Stripe's PaymentMethod shows (brand, last four, expiry, `fingerprint`); the
 * fingerprint, derived from the number, tells the sandbox later which test card it was.
 */
export type CardOutcome = 'ok' | 'authenticate' | 'decline';

export type TestCard = {
  number: string;
  brand: 'visa' | 'mastercard';
  /** What the checkout page's list says it does. */
  label: string;
  /** Saving it (a SetupIntent): some ask the bank's authentication, some are declined. */
  setup: CardOutcome;
  /** A payment with the payer present (Checkout in payment mode). */
  onSession: CardOutcome;
  /** A payment without them (`off_session`, a saved card): authentication cannot happen, it fails. */
  offSession: CardOutcome;
  declineCode?: 'generic_decline' | 'insufficient_funds';
};

export const TEST_CARDS: TestCard[] = [
  { number: '4242424242424242', brand: 'visa', label: 'Visa: el pago sale bien.', setup: 'ok', onSession: 'ok', offSession: 'ok' },
  {
    number: '5555555555554444',
    brand: 'mastercard',
    label: 'Mastercard: el pago sale bien.',
    setup: 'ok',
    onSession: 'ok',
    offSession: 'ok',
  },
  {
    number: '4000002760003184',
    brand: 'visa',
    label: 'El banco pide autenticación (3-D Secure) en cada pago: los cobros automáticos fallan con «requiere autenticación».',
    setup: 'authenticate',
    onSession: 'authenticate',
    offSession: 'authenticate',
  },
  {
    number: '4000002500003155',
    brand: 'visa',
    label: 'Pide autenticación al guardarla o pagar en línea; guardada, los cobros automáticos salen bien.',
    setup: 'authenticate',
    onSession: 'authenticate',
    offSession: 'ok',
  },
  {
    number: '4000000000009995',
    brand: 'visa',
    label: 'Se guarda, pero los pagos se rechazan por fondos insuficientes.',
    setup: 'ok',
    onSession: 'decline',
    offSession: 'decline',
    declineCode: 'insufficient_funds',
  },
  {
    number: '4000000000000341',
    brand: 'visa',
    label: 'Se guarda, pero los pagos se rechazan (rechazo genérico).',
    setup: 'ok',
    onSession: 'decline',
    offSession: 'decline',
    declineCode: 'generic_decline',
  },
  {
    number: '4000000000000002',
    brand: 'visa',
    label: 'Rechazada siempre, también al guardarla.',
    setup: 'decline',
    onSession: 'decline',
    offSession: 'decline',
    declineCode: 'generic_decline',
  },
];

/** Stripe's `card.fingerprint`: the same number, the same fingerprint. */
export const fingerprintOf = (number: string) =>
  createHash('sha256').update(`divan-sandbox-card\n${number}`).digest('base64url').slice(0, 16);

const byNumber = new Map(TEST_CARDS.map((c) => [c.number, c]));
const byFingerprint = new Map(TEST_CARDS.map((c) => [fingerprintOf(c.number), c]));

export const testCardByFingerprint = (fingerprint: unknown) =>
  (typeof fingerprint === 'string' ? byFingerprint.get(fingerprint) : undefined) ?? null;

/** "4242424242424242" → "4242 4242 4242 4242". */
export const groupDigits = (number: string) => number.replace(/(\d{4})(?=\d)/g, '$1 ');

/** Error codes Stripe gives a card, with the message Stripe's Spanish pages show. */
export const CARD_MESSAGES: Record<string, string> = {
  generic_decline: 'Tu tarjeta ha sido rechazada.',
  insufficient_funds: 'Tu tarjeta no tiene fondos suficientes.',
  authentication_required: 'Tu tarjeta ha sido rechazada: esta operación requiere autenticación del banco.',
  payment_intent_authentication_failure: 'No hemos podido autenticar tu método de pago. Elige otro método de pago e inténtalo de nuevo.',
  setup_intent_authentication_failure: 'No hemos podido autenticar tu método de pago. Elige otro método de pago e inténtalo de nuevo.',
};

export type CardInput = { card: TestCard; expMonth: number; expYear: number };

/**
 * The checkout form's card, checked as Checkout does (Luhn, expiry, CVC), taking only test cards as
 * Stripe's test mode does: the Spanish message of the first problem, or the card.
 */
export function parseCardForm(form: { number?: string; exp?: string; cvc?: string }, now: Date): CardInput | { error: string } {
  const number = (form.number ?? '').replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) return { error: 'El número de la tarjeta no es válido.' };
  const card = byNumber.get(number);
  if (!card) return { error: 'Este número no es una tarjeta de prueba: en modo de prueba solo se aceptan las tarjetas de la lista.' };
  const exp = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(form.exp ?? '');
  const expMonth = Number(exp?.[1]);
  const expYear = exp?.[2]?.length === 2 ? 2000 + Number(exp[2]) : Number(exp?.[2]);
  if (!exp || expMonth < 1 || expMonth > 12) return { error: 'La fecha de caducidad no es válida (MM/AA).' };
  const year = now.getUTCFullYear();
  if (expYear < year || (expYear === year && expMonth < now.getUTCMonth() + 1) || expYear > year + 50)
    return { error: 'La fecha de caducidad de la tarjeta ya ha pasado o no es válida.' };
  if (!/^\d{3,4}$/.test((form.cvc ?? '').trim())) return { error: 'El código de seguridad (CVC) no es válido.' };
  return { card, expMonth, expYear };
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}
