/**
 * Stripe's objects read into the platform's facts (platform-billing.ts): what StripeBilling answers, kept
 * apart from the calls that fetch them so each reading is tested on Stripe's own shapes (stripe-billing.test.ts).
 */
import type Stripe from 'stripe';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@divan/core';
import { GatewayUnavailableError } from '../payments/gateway';
import type {
  BillingCheckoutFact,
  BillingInvoiceFact,
  BillingPreview,
  BillingSubscriptionFact,
  BillingTaxIdFact,
  SavedChargeResult,
} from './platform-billing';

export const idOf = (v: string | { id: string } | null | undefined): string | null => (v == null ? null : typeof v === 'string' ? v : v.id);

const STATUSES = new Set<string>(SUBSCRIPTION_STATUSES);
/** A status this API version does not name reads as `incomplete`: not in force until Stripe says so in known words. */
const toStatus = (s: string): SubscriptionStatus => (STATUSES.has(s) ? (s as SubscriptionStatus) : 'incomplete');

/**
 * A PaymentIntent answered (no card error) as the app needs it. Off session Stripe fails an authentication
 * with a card error, but an intent left `requires_action` means the same: the customer must pay on-session.
 * A status a card charge should not reach (`processing`, `requires_capture`) is not guessed at.
 */
export function toSavedChargeResult(pi: Stripe.PaymentIntent): SavedChargeResult {
  const error = pi.last_payment_error;
  switch (pi.status) {
    case 'succeeded':
      return { status: 'succeeded', paymentIntentId: pi.id, amount: pi.amount };
    case 'requires_action':
      return { status: 'requires_authentication', paymentIntentId: pi.id };
    case 'requires_payment_method':
    case 'canceled':
      if (error?.code === 'authentication_required') return { status: 'requires_authentication', paymentIntentId: pi.id };
      return { status: 'declined', paymentIntentId: pi.id, declineCode: error?.decline_code ?? error?.code ?? null };
    default:
      throw new GatewayUnavailableError(`Stripe PaymentIntent ${pi.id} of an off-session charge is ${pi.status}`);
  }
}

/**
 * A card error of an off-session charge: the bank asking for 3-D Secure, or a decline (its reason in
 * `decline_code`, else `code`; the SDK leaves an absent one empty).
 */
export function savedChargeRefusal(err: Stripe.errors.StripeError): SavedChargeResult {
  const raw = err.raw as { payment_intent?: Stripe.PaymentIntent } | undefined;
  const pi = err.payment_intent ?? raw?.payment_intent;
  const paymentIntentId = pi && typeof pi.id === 'string' ? pi.id : null;
  if (err.code === 'authentication_required' && paymentIntentId) return { status: 'requires_authentication', paymentIntentId };
  return { status: 'declined', paymentIntentId, declineCode: err.decline_code || err.code || null };
}

const CHECKOUT_MODES = new Set<string>(['subscription', 'payment', 'setup']);

export function toCheckoutFact(s: Stripe.Checkout.Session): BillingCheckoutFact {
  if (!CHECKOUT_MODES.has(s.mode)) throw new GatewayUnavailableError(`Stripe checkout session ${s.id} has an unknown mode: ${s.mode}`);
  return {
    id: s.id,
    mode: s.mode as BillingCheckoutFact['mode'],
    // `null` only for sessions of the old embedded flows; an unknown word is not complete.
    status: s.status === 'complete' ? 'complete' : s.status === 'expired' ? 'expired' : 'open',
    paid: s.payment_status === 'paid',
    amountTotal: s.amount_total ?? null,
    customerId: idOf(s.customer),
    subscriptionId: idOf(s.subscription),
    paymentIntentId: idOf(s.payment_intent),
    metadata: { ...(s.metadata ?? {}) },
  };
}

/** Diván's subscriptions have one item (the plan, `quantity` active users); the first is read. */
export function singleItem(s: Stripe.Subscription): Stripe.SubscriptionItem {
  const item = s.items.data[0];
  if (!item) throw new GatewayUnavailableError(`Stripe subscription ${s.id} has no items`);
  return item;
}

/**
 * The `items` of an update or a preview: the single item by its id with the new price and/or quantity,
 * or none when neither changes. A price alone carries the item's quantity along (Stripe sets a changed
 * price's quantity to 1 unless one is given).
 */
export function itemChange(
  s: Stripe.Subscription,
  input: { priceId?: string; quantity?: number },
): Array<{ id: string; price?: string; quantity?: number }> | undefined {
  if (input.priceId === undefined && input.quantity === undefined) return undefined;
  const item = singleItem(s);
  const quantity = input.quantity ?? item.quantity;
  return [
    { id: item.id, ...(input.priceId === undefined ? {} : { price: input.priceId }), ...(quantity === undefined ? {} : { quantity }) },
  ];
}

/**
 * A line is a proration by `parent.subscription_item_details.proration` (API 2026-10-28; Stripe's advice
 * for previews), or `parent.invoice_item_details.proration` (a one-off item's), or an older line's
 * top-level `proration`.
 */
function isProration(line: Stripe.InvoiceLineItem): boolean {
  const parent = line.parent;
  return (
    parent?.subscription_item_details?.proration ??
    parent?.invoice_item_details?.proration ??
    (line as unknown as { proration?: boolean }).proration === true
  );
}

/**
 * A preview of the next invoice as the app needs it: its subtotal, its lines, the proration lines
 * together. It is billed at its `period_end` (a renewal's invoice looks back on the current period and is
 * made at its end; `next_payment_attempt` is about an hour later, and null when invoices are sent), else
 * at the item's `current_period_end`.
 */
export function toBillingPreview(
  invoice: Stripe.Invoice,
  lines: Stripe.InvoiceLineItem[],
  currentPeriodEnd: number | null,
): BillingPreview {
  const mapped = lines.map((l) => {
    const proration = isProration(l);
    // The subscription item's own line for the next period: not a proration, not from an invoice item.
    const plan = !proration && l.parent?.type === 'subscription_item_details' && !l.parent.subscription_item_details?.invoice_item;
    return { description: l.description ?? '', amount: l.amount, proration, ...(plan ? { plan } : {}) };
  });
  const nextPaymentAt = invoice.period_end || currentPeriodEnd || invoice.next_payment_attempt;
  if (!nextPaymentAt) throw new GatewayUnavailableError(`Stripe's invoice preview ${invoice.id ?? ''} has no billing date`);
  return {
    subtotal: invoice.subtotal,
    proration: mapped.filter((l) => l.proration).reduce((sum, l) => sum + l.amount, 0),
    nextPaymentAt,
    lines: mapped,
  };
}

const taxOf = (taxes: { amount: number }[] | null | undefined) => (taxes ?? []).reduce((sum, t) => sum + t.amount, 0);

/** An invoice as the app needs it (API 2026-10-28: taxes in `total_taxes` and each line's `taxes`, the subscription under `parent`). */
export function toInvoiceFact(invoice: Stripe.Invoice, lines: Stripe.InvoiceLineItem[]): BillingInvoiceFact {
  if (!invoice.id) throw new GatewayUnavailableError('Stripe invoice without an id');
  return {
    id: invoice.id,
    customerId: idOf(invoice.customer)!,
    subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
    status: invoice.status ?? 'draft',
    subtotal: invoice.subtotal,
    tax: taxOf(invoice.total_taxes),
    total: invoice.total,
    amountPaid: invoice.amount_paid,
    paidAt: invoice.status_transitions?.paid_at ?? null,
    created: invoice.created,
    lines: lines.map((l) => ({
      description: l.description ?? '',
      amount: l.amount,
      tax: taxOf(l.taxes),
      quantity: l.quantity ?? 1,
      period: { start: l.period.start, end: l.period.end },
    })),
  };
}

const VAT_CHECKS = new Set(['pending', 'verified', 'unverified', 'unavailable']);

/** A tax id with its verification as the app needs it (a status this API version does not name reads as pending). */
export function toTaxIdFact(t: Stripe.TaxId): BillingTaxIdFact | null {
  if ((t as { deleted?: boolean }).deleted) return null;
  const v = t.verification;
  return {
    id: t.id,
    customerId: idOf(t.customer) ?? '',
    type: t.type,
    value: t.value,
    verification: v
      ? {
          status: (VAT_CHECKS.has(v.status) ? v.status : 'pending') as NonNullable<BillingTaxIdFact['verification']>['status'],
          verifiedName: v.verified_name ?? null,
        }
      : null,
  };
}

/**
 * The phase after the current one of a schedule that is still running, as its first item's price (an
 * expanded Price gives its lookup key) and start; null when the schedule is done or has none.
 */
export function nextPhaseOf(schedule: Stripe.SubscriptionSchedule | null): { price: string; lookupKey: string | null; at: number } | null {
  if (!schedule || (schedule.status !== 'active' && schedule.status !== 'not_started')) return null;
  const from = schedule.current_phase?.end_date ?? 0;
  const phase = schedule.phases.find((p) => p.start_date >= from && p.start_date > (schedule.current_phase?.start_date ?? -1));
  const price = phase?.items[0]?.price;
  if (!phase || !price) return null;
  return typeof price === 'string'
    ? { price, lookupKey: null, at: phase.start_date }
    : { price: price.id, lookupKey: 'lookup_key' in price ? (price.lookup_key ?? null) : null, at: phase.start_date };
}

/** A subscription as the app needs it, read from its single item (and its schedule's next phase, when it has one). */
export function toSubscriptionFact(s: Stripe.Subscription, schedule: Stripe.SubscriptionSchedule | null = null): BillingSubscriptionFact {
  const item = singleItem(s);
  const next = nextPhaseOf(schedule);
  return {
    id: s.id,
    customerId: idOf(s.customer)!,
    status: toStatus(s.status),
    priceId: item.price.id,
    lookupKey: item.price.lookup_key ?? null,
    unitAmount: item.price.unit_amount ?? 0,
    quantity: item.quantity ?? 1,
    currentPeriodEnd: item.current_period_end ?? null,
    cancelAtPeriodEnd: s.cancel_at_period_end === true,
    // A next phase on the price in force changes nothing (a schedule only keeping the quantity).
    scheduledChange:
      schedule && next && next.price !== item.price.id
        ? { scheduleId: schedule.id, priceId: next.price, lookupKey: next.lookupKey, at: next.at }
        : null,
    metadata: { ...(s.metadata ?? {}) },
  };
}
