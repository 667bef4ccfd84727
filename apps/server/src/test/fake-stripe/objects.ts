// Test support: the fake Stripe's objects, kept per account, its test cards and its error answers.
import { createHash, randomBytes } from 'node:crypto';

export type StripeObject = { id: string; object: string; [key: string]: unknown };

/** The platform's own objects (accounts, links) are kept under this owner; the rest under their account id. */
export const PLATFORM = 'platform';

export const now = () => Math.floor(Date.now() / 1000);

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24)}`;
}

/** An error answer in Stripe's shape: `{ error: { type, code, message, … } }` with its HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

export const invalid = (message: string, extra: Record<string, unknown> = {}) =>
  new ApiError(400, { type: 'invalid_request_error', message, ...extra });

export const missingParam = (param: string) => invalid(`Missing required param: ${param}.`, { code: 'parameter_missing', param });

const NOUNS: Record<string, string> = {
  account: 'account',
  customer: 'customer',
  'checkout.session': 'checkout.session',
  setup_intent: 'setupintent',
  payment_method: 'PaymentMethod',
  payment_intent: 'payment_intent',
  subscription_item: 'subscription item',
};

export const missing = (object: string, id: string, param = 'id') =>
  new ApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param,
    message: `No such ${NOUNS[object] ?? object}: '${id}'`,
    doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
  });

/** Objects by owner (PLATFORM or a connected account): another account's object is not found. */
export class Ledger {
  private readonly owners = new Map<string, Map<string, StripeObject>>();

  put<T extends StripeObject>(owner: string, o: T): T {
    let objects = this.owners.get(owner);
    if (!objects) this.owners.set(owner, (objects = new Map()));
    objects.set(o.id, o);
    return o;
  }

  get(owner: string, object: string, id: string, param?: string): StripeObject {
    const o = this.owners.get(owner)?.get(id);
    if (!o || o.object !== object) throw missing(object, id, param);
    return o;
  }

  /** Wherever it is (test helpers), with its owner. */
  find(id: string): { owner: string; o: StripeObject } | null {
    for (const [owner, objects] of this.owners) {
      const o = objects.get(id);
      if (o) return { owner, o };
    }
    return null;
  }

  list(owner: string, object: string): StripeObject[] {
    return [...(this.owners.get(owner)?.values() ?? [])].filter((o) => o.object === object);
  }
}

/** What a test card does (https://docs.stripe.com/testing). */
export type CardBehaviour = {
  /** A charge's decline: code and decline code, or null (charges succeed). */
  charge: { code: string; declineCode: string; message: string } | null;
  /** Needs 3-D Secure on every payment: off-session it fails with authentication_required. */
  authentication: boolean;
};

const DECLINED = { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' };

export const TEST_CARDS: Record<string, CardBehaviour> = {
  '4242424242424242': { charge: null, authentication: false },
  '5555555555554444': { charge: null, authentication: false },
  '4000000000009995': {
    charge: { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    authentication: false,
  },
  '4000002760003184': { charge: null, authentication: true },
  '4000000000000341': { charge: DECLINED, authentication: false },
  '4000000000000002': { charge: DECLINED, authentication: false },
};

export function cardNumber(number: string): string {
  const digits = number.replace(/[\s-]/g, '');
  if (!TEST_CARDS[digits]) throw new Error(`fake Stripe: ${number} is not one of its test cards (${Object.keys(TEST_CARDS).join(', ')})`);
  return digits;
}

/** Stripe's `card.fingerprint`: the same card number, the same fingerprint, whichever customer saved it. */
export const cardFingerprint = (number: string) =>
  createHash('sha256').update(`fake-stripe-card\n${number}`).digest('base64url').slice(0, 16);

export function paymentMethod(number: string, customer: string | null): StripeObject {
  const brand = number.startsWith('5') ? 'mastercard' : 'visa';
  return {
    id: newId('pm'),
    object: 'payment_method',
    type: 'card',
    card: {
      brand,
      display_brand: brand,
      fingerprint: cardFingerprint(number),
      last4: number.slice(-4),
      exp_month: 12,
      exp_year: new Date().getFullYear() + 3,
      funding: 'credit',
      country: 'ES',
    },
    billing_details: { address: null, email: null, name: null, phone: null },
    customer,
    created: now(),
    livemode: false,
    metadata: {},
  };
}

export function paymentIntent(fields: {
  amount: number;
  customer: string | null;
  payment_method: string | null;
  description: string | null;
  metadata: Record<string, string>;
}): StripeObject {
  return {
    id: newId('pi'),
    object: 'payment_intent',
    amount: fields.amount,
    amount_received: 0,
    currency: 'eur',
    customer: fields.customer,
    payment_method: fields.payment_method,
    description: fields.description,
    metadata: fields.metadata,
    status: fields.payment_method ? 'requires_confirmation' : 'requires_payment_method',
    capture_method: 'automatic',
    confirmation_method: 'automatic',
    last_payment_error: null,
    latest_charge: null,
    next_action: null,
    canceled_at: null,
    cancellation_reason: null,
    setup_future_usage: null,
    client_secret: `${newId('pi')}_secret_${newId('s').slice(2)}`,
    created: now(),
    livemode: false,
  };
}

/**
 * Confirms a PaymentIntent with a test card, as Stripe does: succeeded, or requires_action
 * (authentication, on-session), or a card error (402) that leaves it requires_payment_method with
 * `last_payment_error` and carries it in the error.
 */
export function confirm(pi: StripeObject, pm: StripeObject, number: string, offSession: boolean): ApiError | null {
  const card = TEST_CARDS[number]!;
  const failure =
    card.charge ??
    (card.authentication && offSession
      ? {
          code: 'authentication_required',
          declineCode: 'authentication_required',
          message: 'Your card was declined. This transaction requires authentication.',
        }
      : null);
  pi.payment_method = pm.id;
  if (failure) {
    const charge = failure.code === 'authentication_required' ? null : newId('ch');
    const error = {
      type: 'card_error',
      code: failure.code,
      decline_code: failure.declineCode,
      message: failure.message,
      charge,
      doc_url: `https://stripe.com/docs/error-codes/${failure.code.replace(/_/g, '-')}`,
      payment_method: pm,
    };
    Object.assign(pi, { status: 'requires_payment_method', latest_charge: charge, last_payment_error: error });
    return new ApiError(402, { ...error, payment_intent: pi });
  }
  if (card.authentication) {
    Object.assign(pi, { status: 'requires_action', next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} } });
    return null;
  }
  Object.assign(pi, {
    status: 'succeeded',
    amount_received: pi.amount,
    latest_charge: newId('ch'),
    last_payment_error: null,
    next_action: null,
  });
  return null;
}
