import { centsToDecimalText } from '@divan/core';
import type { DbOrTx } from '../../db/database';
import type { Metadata } from '../gateway';
import { CARD_MESSAGES, testCardByFingerprint, type CardOutcome } from './sandbox-cards';
import {
  newCharge,
  unix,
  type CardError,
  type SandboxCharge,
  type SandboxPaymentIntent,
  type SandboxPaymentMethod,
  type SandboxRefund,
} from './sandbox-objects';
import { getObject, insertObject, newId, saveObject, SandboxRequestError } from './sandbox-store';
import type { SandboxWebhooks } from './sandbox-webhooks';

/** What the sandbox's flows share: the event emitter and the clock. */
export type SandboxContext = { webhooks: SandboxWebhooks; clock: () => Date };

export const nowOf = (ctx: SandboxContext) => unix(ctx.clock());

/** The outcome of a card for this payment: off session an authentication cannot happen, so it fails. */
export function paymentOutcome(pm: SandboxPaymentMethod, presence: 'on' | 'off'): CardOutcome {
  const card = testCardByFingerprint(pm.card.fingerprint);
  if (!card) return 'ok';
  return presence === 'off' ? card.offSession : card.onSession;
}

export function cardError(code: string, declineCode: string | null, pm: SandboxPaymentMethod | null, charge: string | null): CardError {
  return {
    type: 'card_error',
    code,
    decline_code: declineCode,
    message: CARD_MESSAGES[declineCode ?? code] ?? CARD_MESSAGES.generic_decline!,
    charge,
    payment_method: pm,
  };
}

/**
 * Confirms a PaymentIntent with a card, as Stripe does, and emits what Stripe emits:
 * - ok: a succeeded charge, `succeeded` (payment_intent.succeeded, charge.succeeded);
 * - decline: a failed charge, `requires_payment_method` with `last_payment_error` card_declined
 *   (charge.failed, payment_intent.payment_failed);
 * - authentication off session: `requires_payment_method`, authentication_required (payment_intent.payment_failed);
 * - authentication on session: `requires_action` until the payer answers (payment_intent.requires_action).
 */
export async function confirmPayment(
  tx: DbOrTx,
  ctx: SandboxContext,
  account: string | null,
  pi: SandboxPaymentIntent,
  pm: SandboxPaymentMethod,
  presence: 'on' | 'off',
): Promise<SandboxPaymentIntent> {
  const outcome = paymentOutcome(pm, presence);
  pi.payment_method = pm.id;
  pi.off_session = presence === 'off';
  if (outcome === 'ok') return succeed(tx, ctx, account, pi, pm);
  if (outcome === 'decline') {
    const card = testCardByFingerprint(pm.card.fingerprint);
    return fail(tx, ctx, account, pi, pm, 'card_declined', card?.declineCode ?? 'generic_decline', true);
  }
  if (presence === 'off') return fail(tx, ctx, account, pi, pm, 'authentication_required', null, false);
  pi.status = 'requires_action';
  pi.next_action = { type: 'use_stripe_sdk' };
  pi.last_payment_error = null;
  await saveObject(tx, pi);
  await ctx.webhooks.emit(tx, account, 'payment_intent.requires_action', pi, nowOf(ctx));
  return pi;
}

/** The payer's answer to their bank's authentication of a `requires_action` PaymentIntent. */
export async function authenticatePayment(
  tx: DbOrTx,
  ctx: SandboxContext,
  account: string | null,
  pi: SandboxPaymentIntent,
  approve: boolean,
): Promise<SandboxPaymentIntent> {
  const pm = await getObject<SandboxPaymentMethod>(tx, 'payment_method', pi.payment_method!, { account });
  pi.next_action = null;
  if (approve) return succeed(tx, ctx, account, pi, pm);
  return fail(tx, ctx, account, pi, pm, 'payment_intent_authentication_failure', null, false);
}

async function succeed(tx: DbOrTx, ctx: SandboxContext, account: string | null, pi: SandboxPaymentIntent, pm: SandboxPaymentMethod) {
  const now = nowOf(ctx);
  const charge = await insertObject(tx, newCharge(pi, pm, now, null), { account });
  Object.assign(pi, {
    status: 'succeeded',
    amount_received: pi.amount,
    latest_charge: charge.id,
    last_payment_error: null,
    next_action: null,
  });
  await saveObject(tx, pi);
  await ctx.webhooks.emit(tx, account, 'payment_intent.succeeded', pi, now);
  await ctx.webhooks.emit(tx, account, 'charge.succeeded', charge, now);
  return pi;
}

async function fail(
  tx: DbOrTx,
  ctx: SandboxContext,
  account: string | null,
  pi: SandboxPaymentIntent,
  pm: SandboxPaymentMethod,
  code: string,
  declineCode: string | null,
  withCharge: boolean,
) {
  const now = nowOf(ctx);
  const error = cardError(code, declineCode, pm, null);
  if (withCharge) {
    const charge = await insertObject(tx, newCharge(pi, pm, now, error), { account });
    error.charge = charge.id;
    pi.latest_charge = charge.id;
    await ctx.webhooks.emit(tx, account, 'charge.failed', charge, now);
  }
  Object.assign(pi, { status: 'requires_payment_method', last_payment_error: error, next_action: null });
  await saveObject(tx, pi);
  await ctx.webhooks.emit(tx, account, 'payment_intent.payment_failed', pi, now);
  return pi;
}

export function newPaymentIntent(input: {
  amount: number;
  customer: string | null;
  description: string | null;
  metadata: Metadata;
  created: number;
}): SandboxPaymentIntent {
  return {
    id: newId('pi_'),
    object: 'payment_intent',
    amount: input.amount,
    amount_received: 0,
    currency: 'eur',
    customer: input.customer,
    payment_method: null,
    description: input.description,
    status: 'requires_payment_method',
    latest_charge: null,
    last_payment_error: null,
    next_action: null,
    off_session: false,
    canceled_at: null,
    cancellation_reason: null,
    payment_method_types: ['card'],
    metadata: { ...input.metadata },
    created: input.created,
    livemode: false,
  };
}

/** Stripe's smallest charge in euros (0,50 €). */
export const MIN_AMOUNT = 50;

const euros = (cents: number) => `€${centsToDecimalText(cents, '.')}`;

/**
 * A refund of a succeeded PaymentIntent's charge, succeeded at once; more than is left to refund is an
 * invalid request, as on Stripe. Emits refund.created and charge.refunded (the charge with its refunds).
 */
export async function refundPayment(
  tx: DbOrTx,
  ctx: SandboxContext,
  account: string,
  pi: SandboxPaymentIntent,
  input: { amount?: number; metadata: Metadata; idempotencyKey: string },
): Promise<SandboxRefund> {
  if (pi.status !== 'succeeded' || !pi.latest_charge)
    throw new SandboxRequestError('charge_not_refundable', `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`);
  const charge = await getObject<SandboxCharge>(tx, 'charge', pi.latest_charge, { account, lock: true });
  const left = charge.amount - charge.amount_refunded;
  const amount = input.amount ?? left;
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new SandboxRequestError('parameter_invalid_integer', 'Invalid positive integer: amount');
  if (left === 0) throw new SandboxRequestError('charge_already_refunded', `Charge ${charge.id} has already been refunded.`);
  if (amount > left)
    throw new SandboxRequestError(
      'amount_too_large',
      `Refund amount (${euros(amount)}) is greater than unrefunded amount on charge (${euros(left)})`,
    );
  const now = nowOf(ctx);
  const refund: SandboxRefund = {
    id: newId('re_'),
    object: 'refund',
    amount,
    charge: charge.id,
    payment_intent: pi.id,
    currency: 'eur',
    status: 'succeeded',
    reason: null,
    metadata: { ...input.metadata },
    created: now,
    livemode: false,
  };
  await insertObject(tx, refund, { account, idempotencyKey: input.idempotencyKey });
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded === charge.amount;
  charge.refunds = { ...charge.refunds, data: [refund, ...charge.refunds.data], total_count: charge.refunds.total_count + 1 };
  await saveObject(tx, charge);
  await ctx.webhooks.emit(tx, account, 'refund.created', refund, now);
  await ctx.webhooks.emit(tx, account, 'charge.refunded', charge, now);
  return refund;
}
