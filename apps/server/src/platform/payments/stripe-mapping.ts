/**
 * Stripe's objects and errors in the gateway's terms (stripe-gateway.ts): the SDK's types stay here.
 */
import type Stripe from 'stripe';
import {
  GatewayCardError,
  GatewayUnavailableError,
  type GatewayAccount,
  type GatewayCard,
  type GatewayEvent,
  type GatewayPaymentIntent,
  type GatewayRefund,
  type PaymentIntentStatus,
} from './gateway';
import type { StripeSdk } from './stripe-sdk';

export function toAccount(a: Stripe.Account): GatewayAccount {
  return {
    id: a.id,
    detailsSubmitted: a.details_submitted === true,
    chargesEnabled: a.charges_enabled === true,
    payoutsEnabled: a.payouts_enabled === true,
  };
}

/**
 * Stripe's seven statuses in the gateway's five: `requires_confirmation` (nothing tried yet) asks for a
 * payment method again, `requires_capture` (authorized, never with automatic capture) is under way.
 */
export function toPaymentIntentStatus(status: string): PaymentIntentStatus {
  switch (status) {
    case 'succeeded':
    case 'processing':
    case 'requires_action':
    case 'requires_payment_method':
    case 'canceled':
      return status;
    case 'requires_capture':
      return 'processing';
    default:
      return 'requires_payment_method';
  }
}

export function toPaymentIntent(pi: Stripe.PaymentIntent): GatewayPaymentIntent {
  const error = pi.last_payment_error;
  return {
    id: pi.id,
    status: toPaymentIntentStatus(pi.status),
    amount: pi.amount,
    errorCode: error?.code ?? null,
    declineCode: error?.decline_code ?? null,
    metadata: { ...(pi.metadata ?? {}) },
  };
}

export function toCard(pm: Stripe.PaymentMethod): GatewayCard | null {
  if (!pm.card) return null;
  return {
    paymentMethodId: pm.id,
    brand: pm.card.brand,
    last4: pm.card.last4 ?? '',
    expMonth: pm.card.exp_month,
    expYear: pm.card.exp_year,
  };
}

const REFUND_STATUSES = new Set<GatewayRefund['status']>(['pending', 'succeeded', 'failed', 'canceled']);

export function toRefund(r: Stripe.Refund): GatewayRefund {
  const status = REFUND_STATUSES.has(r.status as GatewayRefund['status']) ? (r.status as GatewayRefund['status']) : 'pending';
  const pi = r.payment_intent;
  return {
    id: r.id,
    status,
    amount: r.amount,
    paymentIntentId: typeof pi === 'string' ? pi : (pi?.id ?? ''),
    metadata: { ...(r.metadata ?? {}) },
  };
}

export function toEvent(e: Stripe.Event): GatewayEvent {
  return {
    id: e.id,
    type: e.type,
    account: e.account ?? null,
    created: e.created,
    object: e.data.object as unknown as Record<string, unknown>,
  };
}

/** The PaymentIntent a card error carries (the SDK copies it from `error.payment_intent` of the answer). */
function errorPaymentIntent(err: Stripe.errors.StripeError): GatewayPaymentIntent | null {
  const raw = err.raw as { payment_intent?: Stripe.PaymentIntent } | undefined;
  const pi = err.payment_intent ?? raw?.payment_intent;
  return pi && typeof pi === 'object' && typeof pi.id === 'string' ? toPaymentIntent(pi) : null;
}

/**
 * A card error (402: declined, authentication required…) is the payer's bank answering:
 * GatewayCardError with its codes and the PaymentIntent left behind. Anything else the SDK throws
 * (network, timeout, 5xx, 429, a bad key, a request Stripe refused) is GatewayUnavailableError with
 * Stripe's message. Errors that are not Stripe's are bugs of ours and pass unchanged. `sdk`: the loaded
 * SDK, whose error classes these are (stripe-sdk.ts).
 */
export function toGatewayError(err: unknown, sdk: StripeSdk): unknown {
  if (err instanceof GatewayCardError || err instanceof GatewayUnavailableError) return err;
  if (!(err instanceof sdk.errors.StripeError)) return err;
  if (err instanceof sdk.errors.StripeCardError) {
    return new GatewayCardError(err.code ?? 'card_declined', err.decline_code ?? null, errorPaymentIntent(err), err.message);
  }
  const what =
    err instanceof sdk.errors.StripeConnectionError
      ? 'unreachable'
      : err instanceof sdk.errors.StripeRateLimitError
        ? 'rate limited'
        : err instanceof sdk.errors.StripeAuthenticationError || err instanceof sdk.errors.StripePermissionError
          ? 'refused the key'
          : err instanceof sdk.errors.StripeInvalidRequestError || err instanceof sdk.errors.StripeIdempotencyError
            ? 'refused the request'
            : 'failed';
  const status = err.statusCode ? ` (HTTP ${err.statusCode}${err.code ? `, ${err.code}` : ''})` : '';
  return new GatewayUnavailableError(`Stripe ${what}${status}: ${err.message}`, err);
}
