import type { SandboxTaxRateRef } from './sandbox-subscriptions';
import type { GatewayAccount, GatewayCard, GatewayPaymentIntent, GatewayRefund, Metadata, PaymentIntentStatus } from '../gateway';
import { fingerprintOf, TEST_CARDS, type CardInput } from './sandbox-cards';
import { newId } from './sandbox-store';

/**
 * The Stripe objects the sandbox keeps, with the fields Stripe's API (and so its events) carry and
 * the app reads. Amounts are integer cents of `eur`; times are Unix seconds, as Stripe's.
 */
type Base<O extends string> = { id: string; object: O; created: number; livemode: false; [key: string]: unknown };

export type SandboxAccount = Base<'account'> & {
  type: 'express';
  country: 'ES';
  default_currency: 'eur';
  email: string | null;
  business_profile: { name: string | null };
  details_submitted: boolean;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  capabilities: { card_payments: 'active' | 'inactive'; transfers: 'active' | 'inactive' };
  requirements: { currently_due: string[]; disabled_reason: string | null };
  external_accounts: { object: 'list'; data: { id: string; object: 'bank_account'; country: string; currency: 'eur'; last4: string }[] };
  metadata: Metadata;
};

export type SandboxAccountLink = Base<'account_link'> & {
  account: string;
  type: 'account_onboarding';
  url: string;
  expires_at: number;
  refresh_url: string;
  return_url: string;
  /** The sandbox's own bookkeeping (Stripe does not show these): first visit and completion. */
  opened_at: number | null;
  used_at: number | null;
};

/** A customer's tax id, kept on it (Stripe's own object, `txi_…`), with the sandbox's VIES verdict. */
export type SandboxTaxId = {
  id: string;
  object: 'tax_id';
  customer: string;
  type: string;
  value: string;
  verification: { status: 'pending' | 'verified' | 'unverified' | 'unavailable'; verified_name: string | null } | null;
};

export type SandboxCustomer = Base<'customer'> & {
  email: string | null;
  name: string;
  metadata: Metadata;
  address?: { line1: string; city: string; postal_code: string; country: string } | null;
  tax_ids?: SandboxTaxId[];
};

type CardDetails = {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  country: 'ES';
  funding: 'credit';
};
export type SandboxPaymentMethod = Base<'payment_method'> & {
  type: 'card';
  card: CardDetails;
  customer: string | null;
  billing_details: { email: string | null; name: string | null };
  metadata: Metadata;
};

export type CardError = {
  type: 'card_error';
  code: string;
  decline_code: string | null;
  message: string;
  charge: string | null;
  payment_method: SandboxPaymentMethod | null;
};

export type SandboxSetupIntent = Base<'setup_intent'> & {
  status: 'requires_payment_method' | 'requires_action' | 'succeeded';
  usage: 'off_session';
  customer: string | null;
  payment_method: string | null;
  last_setup_error: CardError | null;
  next_action: { type: 'use_stripe_sdk' } | null;
  metadata: Metadata;
};

export type SandboxPaymentIntent = Base<'payment_intent'> & {
  amount: number;
  amount_received: number;
  currency: 'eur';
  customer: string | null;
  payment_method: string | null;
  description: string | null;
  status: PaymentIntentStatus;
  latest_charge: string | null;
  last_payment_error: CardError | null;
  next_action: { type: 'use_stripe_sdk' } | null;
  off_session: boolean;
  canceled_at: number | null;
  cancellation_reason: string | null;
  payment_method_types: ['card'];
  metadata: Metadata;
};

export type SandboxRefund = Base<'refund'> & {
  amount: number;
  charge: string;
  payment_intent: string;
  currency: 'eur';
  status: 'succeeded';
  reason: string | null;
  metadata: Metadata;
};

export type SandboxCharge = Base<'charge'> & {
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  captured: boolean;
  paid: boolean;
  refunded: boolean;
  status: 'succeeded' | 'failed';
  currency: 'eur';
  customer: string | null;
  description: string | null;
  payment_intent: string;
  payment_method: string;
  payment_method_details: { type: 'card'; card: CardDetails };
  failure_code: string | null;
  failure_message: string | null;
  outcome: {
    type: 'authorized' | 'issuer_declined';
    reason: string | null;
    network_status: string;
    risk_level: 'normal';
    seller_message: string;
  };
  refunds: { object: 'list'; data: SandboxRefund[]; has_more: false; total_count: number; url: string };
  metadata: Metadata;
};

export type SandboxCheckoutSession = Base<'checkout.session'> & {
  mode: 'setup' | 'payment' | 'subscription';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  currency: 'eur';
  amount_total: number | null;
  customer: string | null;
  customer_email: string | null;
  payment_intent: string | null;
  setup_intent: string | null;
  payment_intent_data: { description: string; metadata: Metadata } | null;
  metadata: Metadata;
  success_url: string;
  cancel_url: string;
  url: string | null;
  expires_at: number;
  /** Subscription mode: the subscription it started once complete, and what it sells. */
  subscription?: string | null;
  line_items?: { price: string; quantity: number; description: string; unit_amount: number; interval: 'month' | 'year' }[];
  subscription_data?: { metadata: Metadata; default_tax_rates?: SandboxTaxRateRef[] };
  /** Subscription mode: the card waiting for the bank's authentication of the first payment. */
  pending_payment_method?: string | null;
};

/** Unix seconds, as Stripe writes times. */
export const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * A card's `fingerprint`, as Stripe's (the same number, the same fingerprint, whichever customer saved it).
 * Every card the sandbox saves has one; a stored one without it (older data) gets it from what the
 * sandbox kept of the number — the test cards are told apart by their last four digits and brand.
 */
export function cardFingerprintOf(pm: SandboxPaymentMethod): string {
  if (pm.card.fingerprint) return pm.card.fingerprint;
  const card = TEST_CARDS.find((c) => c.brand === pm.card.brand && c.number.endsWith(pm.card.last4));
  return fingerprintOf(card?.number ?? `${pm.card.brand}:${pm.card.last4}`);
}

export function newPaymentMethod(input: CardInput, customer: string | null, created: number): SandboxPaymentMethod {
  const { card, expMonth, expYear } = input;
  return {
    id: newId('pm_'),
    object: 'payment_method',
    type: 'card',
    card: {
      brand: card.brand,
      last4: card.number.slice(-4),
      exp_month: expMonth,
      exp_year: expYear,
      fingerprint: fingerprintOf(card.number),
      country: 'ES',
      funding: 'credit',
    },
    customer,
    billing_details: { email: null, name: null },
    metadata: {},
    created,
    livemode: false,
  };
}

export function newCharge(pi: SandboxPaymentIntent, pm: SandboxPaymentMethod, created: number, failure: CardError | null): SandboxCharge {
  const id = newId('ch_');
  return {
    id,
    object: 'charge',
    amount: pi.amount,
    amount_captured: failure ? 0 : pi.amount,
    amount_refunded: 0,
    captured: !failure,
    paid: !failure,
    refunded: false,
    status: failure ? 'failed' : 'succeeded',
    currency: 'eur',
    customer: pi.customer,
    description: pi.description,
    payment_intent: pi.id,
    payment_method: pm.id,
    payment_method_details: { type: 'card', card: pm.card },
    failure_code: failure?.code ?? null,
    failure_message: failure?.message ?? null,
    outcome: failure
      ? {
          type: 'issuer_declined',
          reason: failure.decline_code,
          network_status: 'declined_by_network',
          risk_level: 'normal',
          seller_message: 'The bank did not return any further details with this decline.',
        }
      : {
          type: 'authorized',
          reason: null,
          network_status: 'approved_by_network',
          risk_level: 'normal',
          seller_message: 'Payment complete.',
        },
    refunds: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/charges/${id}/refunds` },
    metadata: pi.metadata,
    created,
    livemode: false,
  };
}

/** Checkout Sessions expire after 24 hours, as Stripe's do by default. */
const CHECKOUT_TTL_S = 24 * 3600;

/** A Checkout Session, open for 24 hours, its page under `base` (`…/sandbox/stripe`). */
export function newCheckoutSession(
  input: {
    mode: 'setup' | 'payment' | 'subscription';
    customer: string | null;
    customerEmail: string | null;
    amount: number | null;
    description: string | null;
    successUrl: string;
    cancelUrl: string;
    metadata: Metadata;
  },
  base: string,
  now: number,
): SandboxCheckoutSession {
  const id = newId('cs_test_');
  return {
    id,
    object: 'checkout.session',
    mode: input.mode,
    status: 'open',
    payment_status: input.mode === 'setup' ? 'no_payment_required' : 'unpaid',
    currency: 'eur',
    amount_total: input.amount,
    customer: input.customer,
    customer_email: input.customerEmail,
    payment_intent: null,
    setup_intent: null,
    // What Checkout puts on the PaymentIntent it creates: the same metadata as the session's.
    payment_intent_data: input.mode === 'payment' ? { description: input.description ?? '', metadata: { ...input.metadata } } : null,
    metadata: { ...input.metadata },
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    url: `${base}/checkout/${id}`,
    expires_at: now + CHECKOUT_TTL_S,
    created: now,
    livemode: false,
  };
}

export const toGatewayAccount = (a: SandboxAccount): GatewayAccount => ({
  id: a.id,
  detailsSubmitted: a.details_submitted,
  chargesEnabled: a.charges_enabled,
  payoutsEnabled: a.payouts_enabled,
});

export const toGatewayCard = (pm: SandboxPaymentMethod): GatewayCard => ({
  paymentMethodId: pm.id,
  brand: pm.card.brand,
  last4: pm.card.last4,
  expMonth: pm.card.exp_month,
  expYear: pm.card.exp_year,
});

export const toGatewayPaymentIntent = (pi: SandboxPaymentIntent): GatewayPaymentIntent => ({
  id: pi.id,
  status: pi.status,
  amount: pi.amount,
  errorCode: pi.last_payment_error?.code ?? null,
  declineCode: pi.last_payment_error?.decline_code ?? null,
  metadata: pi.metadata,
});

export const toGatewayRefund = (r: SandboxRefund): GatewayRefund => ({
  id: r.id,
  status: r.status,
  amount: r.amount,
  paymentIntentId: r.payment_intent,
  metadata: r.metadata,
});
