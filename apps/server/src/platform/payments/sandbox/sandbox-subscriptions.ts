/**
 * The sandbox's Billing objects on the platform account (account null): products, prices, subscriptions
 * and their invoices, in Stripe's shapes. Each type picks its fields from the SDK's own types
 * (`Stripe.Subscription`, `Stripe.Invoice`…), so a field Stripe renames or retypes fails `tsc` here
 * before it fails in production.
 */
import type Stripe from 'stripe';
import { addMonthsUtc, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '@divan/core';
import type { BillingInvoiceFact, BillingSubscriptionFact } from '../../billing/platform-billing';
import type { DbOrTx } from '../../db/database';
import type { Metadata } from '../gateway';
import { nowOf, type SandboxContext } from './sandbox-charges';
import type { SandboxCheckoutSession, SandboxPaymentMethod } from './sandbox-objects';
import { getObject, insertObject, newId, saveObject } from './sandbox-store';

type Interval = 'month' | 'year';
type Obj<T> = T & { [key: string]: unknown };

export type SandboxProduct = Obj<
  Pick<Stripe.Product, 'id' | 'object' | 'name' | 'active' | 'created' | 'livemode'> & { metadata: Metadata }
>;

export type SandboxPrice = Obj<
  Pick<Stripe.Price, 'id' | 'object' | 'active' | 'currency' | 'lookup_key' | 'unit_amount' | 'tax_behavior' | 'created' | 'livemode'> & {
    product: string;
    recurring: Pick<Stripe.Price.Recurring, 'interval' | 'interval_count'> & { interval: Interval };
    metadata: Metadata;
  }
>;

export type SandboxTaxRate = Obj<
  Pick<
    Stripe.TaxRate,
    'id' | 'object' | 'active' | 'percentage' | 'inclusive' | 'display_name' | 'country' | 'jurisdiction' | 'created' | 'livemode'
  > & {
    metadata: Metadata;
  }
>;
/** What a subscription keeps of each of its `default_tax_rates` (Stripe expands them on the subscription). */
export type SandboxTaxRateRef = Pick<Stripe.TaxRate, 'id' | 'object' | 'percentage' | 'inclusive' | 'display_name'>;

export type SandboxSubscriptionItem = Pick<
  Stripe.SubscriptionItem,
  'id' | 'object' | 'quantity' | 'current_period_start' | 'current_period_end' | 'created'
> & { price: Pick<SandboxPrice, 'id' | 'object' | 'lookup_key' | 'unit_amount' | 'currency' | 'recurring'> };

export type SandboxSubscription = Obj<
  Pick<Stripe.Subscription, 'id' | 'object' | 'status' | 'cancel_at_period_end' | 'created' | 'start_date' | 'livemode' | 'currency'> & {
    customer: string;
    items: { object: 'list'; data: SandboxSubscriptionItem[] };
    default_payment_method: string | null;
    latest_invoice: string | null;
    default_tax_rates: SandboxTaxRateRef[];
    /**
     * A change waiting for the renewal (Stripe's subscription schedule, kept inline): the next phase's price
     * and quantity from `start_date` (the current period's end); released once it is in force. Absent: none.
     */
    schedule?: SandboxSchedule | null;
    metadata: Metadata;
  }
>;

export type SandboxSchedule = {
  id: string;
  object: 'subscription_schedule';
  status: 'active';
  next_phase: { start_date: number; price: SandboxSubscriptionItem['price']; quantity: number };
};

/** A tax of an invoice or of one of its lines (`total_taxes[]`, `lines.data[].taxes[]`), from a tax rate. */
export type SandboxTax = Pick<Stripe.Invoice.TotalTax, 'amount' | 'taxable_amount' | 'type'> & {
  tax_behavior: 'exclusive';
  taxability_reason: 'standard_rated';
  tax_rate_details: { tax_rate: string };
};

export type SandboxInvoice = Obj<
  Pick<
    Stripe.Invoice,
    | 'id'
    | 'object'
    | 'status'
    | 'currency'
    | 'amount_due'
    | 'amount_paid'
    | 'subtotal'
    | 'total'
    | 'total_excluding_tax'
    | 'attempt_count'
    | 'next_payment_attempt'
    | 'billing_reason'
    | 'created'
    | 'livemode'
  > & {
    customer: string;
    /** Where the invoice came from (Stripe 2025+: `parent.subscription_details.subscription`). */
    parent: { type: 'subscription_details'; subscription_details: { subscription: string; metadata: Metadata } };
    lines: {
      object: 'list';
      data: {
        id: string;
        object: 'line_item';
        amount: number;
        quantity: number;
        description: string;
        period: { start: number; end: number };
        taxes: SandboxTax[];
      }[];
    };
    total_taxes: SandboxTax[];
    status_transitions: { paid_at: number | null };
    /**
     * The sandbox's own bookkeeping: the card (payment method) whose charge paid it, null when nothing was
     * charged. Stripe says it through the invoice's payments (`invoicePayments.list`) → PaymentIntent →
     * payment method; absent on invoices made before it was kept.
     */
    paid_with?: string | null;
  }
>;

/**
 * The end of a period that starts at `start` (Unix seconds): the same day and time one month or one year
 * later, the day clamped to the month's last (Stripe's billing anchor: 31 January → 28/29 February).
 */
export function periodEnd(start: number, interval: Interval): number {
  return Math.floor(addMonthsUtc(new Date(start * 1000), interval === 'month' ? 1 : 12).getTime() / 1000);
}

/**
 * A subscription Checkout paid: the card attached to the customer, the subscription active for its first
 * period, its first invoice paid, and the events Stripe sends (in its order: the subscription, the
 * invoice, then the session).
 */
export async function startSubscription(
  tx: DbOrTx,
  ctx: SandboxContext,
  session: SandboxCheckoutSession,
  pm: SandboxPaymentMethod,
): Promise<SandboxSubscription> {
  const now = nowOf(ctx);
  const item = session.line_items?.[0];
  if (!session.customer || !item) throw new Error(`sandbox checkout ${session.id}: a subscription session needs a customer and an item`);
  const price = await getObject<SandboxPrice>(tx, 'price', item.price, { account: null });
  pm.customer = session.customer;
  await saveObject(tx, pm);
  await ctx.webhooks.emit(tx, null, 'payment_method.attached', pm, now);
  const end = periodEnd(now, price.recurring.interval);
  const subscriptionId = newId('sub_');
  const invoiceId = newId('in_');
  const metadata = { ...(session.subscription_data?.metadata ?? session.metadata) };
  const subscription: SandboxSubscription = {
    id: subscriptionId,
    object: 'subscription',
    status: 'active',
    customer: session.customer,
    currency: 'eur',
    cancel_at_period_end: false,
    default_payment_method: pm.id,
    latest_invoice: invoiceId,
    default_tax_rates: session.subscription_data?.default_tax_rates ?? [],
    items: {
      object: 'list',
      data: [
        {
          id: newId('si_'),
          object: 'subscription_item',
          price: {
            id: price.id,
            object: 'price',
            lookup_key: price.lookup_key,
            unit_amount: price.unit_amount,
            currency: price.currency,
            recurring: price.recurring,
          },
          quantity: item.quantity,
          current_period_start: now,
          current_period_end: end,
          created: now,
        },
      ],
    },
    metadata,
    start_date: now,
    created: now,
    livemode: false,
  };
  await insertObject(tx, subscription, { account: null });
  await ctx.webhooks.emit(tx, null, 'customer.subscription.created', subscription, now);
  const amount = (price.unit_amount ?? 0) * item.quantity;
  const invoice = paidSubscriptionInvoice({ id: invoiceId, subscription, reason: 'subscription_create', now, paidWith: pm.id }, [
    { amount, quantity: item.quantity, description: item.description, period: { start: now, end } },
  ]);
  await insertObject(tx, invoice, { account: null });
  await ctx.webhooks.emit(tx, null, 'invoice.paid', invoice, now);
  Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscriptionId, pending_payment_method: null });
  await saveObject(tx, session);
  await ctx.webhooks.emit(tx, null, 'checkout.session.completed', session, now);
  return subscription;
}

/** An amount's tax at a percentage, rounded half away from zero to the cent (per line, as Stripe does). */
export const taxOf = (amount: number, percentage: number) =>
  Math.sign(amount) * Math.round((Math.abs(amount) * Math.round(percentage * 100)) / 10_000);

/** A line's tax at each rate. */
function taxesOf(amount: number, rates: readonly SandboxTaxRateRef[]): SandboxTax[] {
  return rates.map((r) => ({
    amount: taxOf(amount, r.percentage),
    taxable_amount: amount,
    type: 'tax_rate_details',
    tax_behavior: 'exclusive',
    taxability_reason: 'standard_rated',
    tax_rate_details: { tax_rate: r.id },
  }));
}

/**
 * An invoice of a subscription charged at once to its card and paid: the lines, each line's taxes at the
 * subscription's `default_tax_rates` (exclusive: added to the amounts), the invoice's taxes by rate, its
 * total. A total below zero is due as 0 (Stripe keeps the credit on the customer's balance).
 */
export function paidSubscriptionInvoice(
  at: {
    id: string;
    subscription: SandboxSubscription;
    reason: 'subscription_create' | 'subscription_update' | 'subscription_cycle';
    now: number;
    /** The card charged (its payment method), kept only when something was. */
    paidWith: string | null;
  },
  lines: { description: string; amount: number; quantity: number; period: { start: number; end: number } }[],
): SandboxInvoice {
  const { subscription: sub, now } = at;
  const rates = sub.default_tax_rates;
  const taxed = lines.map((l) => ({ id: newId('il_'), object: 'line_item' as const, ...l, taxes: taxesOf(l.amount, rates) }));
  const subtotal = taxed.reduce((a, l) => a + l.amount, 0);
  const totalTaxes = rates.map((r) => {
    const mine = taxed.flatMap((l) => l.taxes.filter((t) => t.tax_rate_details.tax_rate === r.id));
    return { ...mine[0]!, amount: mine.reduce((a, t) => a + t.amount, 0), taxable_amount: subtotal };
  });
  const total = subtotal + totalTaxes.reduce((a, t) => a + t.amount, 0);
  return {
    id: at.id,
    object: 'invoice',
    status: 'paid',
    customer: sub.customer,
    currency: 'eur',
    billing_reason: at.reason,
    amount_due: Math.max(0, total),
    amount_paid: Math.max(0, total),
    attempt_count: 1,
    next_payment_attempt: null,
    subtotal,
    total_excluding_tax: subtotal,
    total,
    total_taxes: totalTaxes,
    parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } } },
    lines: { object: 'list', data: taxed },
    status_transitions: { paid_at: now },
    paid_with: total > 0 ? at.paidWith : null,
    created: now,
    livemode: false,
  };
}

/** The invoice as the app reads it (`stripe-billing.ts` maps Stripe's the same way). */
export function invoiceFact(invoice: SandboxInvoice): BillingInvoiceFact {
  const sum = (taxes: SandboxTax[]) => taxes.reduce((a, t) => a + t.amount, 0);
  return {
    id: invoice.id,
    customerId: invoice.customer,
    subscriptionId: invoice.parent.subscription_details.subscription,
    status: invoice.status ?? 'draft',
    subtotal: invoice.subtotal,
    tax: sum(invoice.total_taxes),
    total: invoice.total,
    amountPaid: invoice.amount_paid,
    paidAt: invoice.status_transitions.paid_at,
    created: invoice.created,
    lines: invoice.lines.data.map((l) => ({
      description: l.description,
      amount: l.amount,
      tax: sum(l.taxes),
      quantity: l.quantity,
      period: l.period,
    })),
  };
}

/** A pending invoice line (proration) waiting for the subscription's next invoice, as Stripe's `invoiceitem`. */
export type SandboxInvoiceItem = Obj<
  Pick<Stripe.InvoiceItem, 'id' | 'object' | 'amount' | 'currency' | 'description' | 'date' | 'livemode'> & {
    customer: string;
    subscription: string;
    proration: boolean;
    quantity: number;
    /** The invoice it went on (null: pending). */
    invoice: string | null;
    period: { start: number; end: number };
    created: number;
  }
>;

type Terms = { unitAmount: number; quantity: number; description: string };

/**
 * Stripe's proration of a change at `at` inside the item's period: the unused time of the old terms
 * credited and the remaining time at the new ones charged, each rounded to the cent, to the second.
 */
export function prorationLines(
  item: Pick<SandboxSubscriptionItem, 'current_period_start' | 'current_period_end'>,
  from: Terms,
  to: Terms,
  at: number,
): { description: string; amount: number; quantity: number }[] {
  const start = item.current_period_start;
  const end = item.current_period_end;
  if (at >= end || end <= start) return [];
  const f = (end - Math.max(at, start)) / (end - start);
  const day = new Date(at * 1000).toLocaleDateString('es-ES', { timeZone: 'Europe/Madrid' });
  return [
    {
      description: `Tiempo no usado de ${from.quantity} × ${from.description} desde el ${day}`,
      amount: -Math.round(from.unitAmount * from.quantity * f),
      quantity: from.quantity,
    },
    {
      description: `Tiempo restante de ${to.quantity} × ${to.description} desde el ${day}`,
      amount: Math.round(to.unitAmount * to.quantity * f),
      quantity: to.quantity,
    },
  ];
}

const isStatus = (s: string): s is SubscriptionStatus => (SUBSCRIPTION_STATUSES as readonly string[]).includes(s);

export function subscriptionFact(sub: SandboxSubscription): BillingSubscriptionFact {
  const item = sub.items.data[0];
  if (!item) throw new Error(`sandbox billing: subscription ${sub.id} has no item`);
  if (!isStatus(sub.status)) throw new Error(`sandbox billing: unknown status ${sub.status}`);
  return {
    id: sub.id,
    customerId: sub.customer,
    status: sub.status,
    priceId: item.price.id,
    lookupKey: item.price.lookup_key,
    unitAmount: item.price.unit_amount ?? 0,
    quantity: item.quantity ?? 1,
    currentPeriodEnd: item.current_period_end ?? null,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    scheduledChange: sub.schedule
      ? {
          scheduleId: sub.schedule.id,
          priceId: sub.schedule.next_phase.price.id,
          lookupKey: sub.schedule.next_phase.price.lookup_key,
          at: sub.schedule.next_phase.start_date,
        }
      : null,
    metadata: { ...sub.metadata },
  };
}
