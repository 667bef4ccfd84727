// Test support: the Billing endpoints of Stripe's API that Diván's own subscription uses
// (platform/billing/stripe-billing.ts), on the fake's Ledger: products, prices found by lookup key,
// Checkout in subscription mode and the subscription its completion makes (one item, a quantity, the
// item's `current_period_end` as in API 2026-10-28; its first invoice paid through a PaymentIntent, found by
// its invoice payments; the customer's cards listed with their fingerprints), its update (price, quantity, renewal; prorations kept
// as pending invoice items, to the second) and the preview of its next invoice (`invoices/create_preview`,
// with or without a change). Called on the platform (no Stripe-Account), like Diván.
import { centsToDecimalText } from '@divan/core';
import { list, metadata, obj, str, type Form } from './form';
import { ApiError, invalid, missing, missingParam, newId, now, paymentIntent, type Ledger, type StripeObject } from './objects';
import type { CheckoutPlan, Route, RouteContext } from './routes';

const INTERVALS = ['day', 'week', 'month', 'year'];
const TAX_BEHAVIORS = ['inclusive', 'exclusive', 'unspecified'];

function intParam(form: Form, key: string, param: string, required: boolean, min = 0): number | null {
  const raw = str(form, key);
  if (raw === null) {
    if (required) throw missingParam(param);
    return null;
  }
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw invalid(`Invalid integer: ${raw}`, { param });
  return n;
}

function createProduct(c: RouteContext): StripeObject {
  const name = str(c.params, 'name');
  if (!name) throw missingParam('name');
  return c.ledger.put(c.owner, {
    id: newId('prod'),
    object: 'product',
    name,
    active: true,
    description: str(c.params, 'description'),
    metadata: metadata(c.params),
    default_price: null,
    tax_code: null,
    created: now(),
    updated: now(),
    livemode: false,
  });
}

function createPrice(c: RouteContext): StripeObject {
  const currency = str(c.params, 'currency');
  if (!currency) throw missingParam('currency');
  if (currency !== 'eur') throw invalid('Only eur in the fake.', { param: 'currency' });
  const unitAmount = intParam(c.params, 'unit_amount', 'unit_amount', true)!;
  const productId = str(c.params, 'product');
  if (!productId) throw missingParam('product');
  const product = c.ledger.get(c.owner, 'product', productId, 'product');
  const recurringForm = obj(c.params, 'recurring');
  let recurring: Record<string, unknown> | null = null;
  if (Object.keys(recurringForm).length > 0) {
    const interval = str(recurringForm, 'interval');
    if (!interval) throw missingParam('recurring[interval]');
    if (!INTERVALS.includes(interval)) throw invalid(`Invalid recurring[interval]: ${interval}`, { param: 'recurring[interval]' });
    const count = intParam(recurringForm, 'interval_count', 'recurring[interval_count]', false, 1) ?? 1;
    recurring = { interval, interval_count: count, usage_type: 'licensed', meter: null, trial_period_days: null };
  }
  const taxBehavior = str(c.params, 'tax_behavior') ?? 'unspecified';
  if (!TAX_BEHAVIORS.includes(taxBehavior)) throw invalid(`Invalid tax_behavior: ${taxBehavior}`, { param: 'tax_behavior' });
  const lookupKey = str(c.params, 'lookup_key');
  if (lookupKey) {
    const holder = c.ledger.list(c.owner, 'price').find((p) => p.lookup_key === lookupKey);
    if (holder && c.params.transfer_lookup_key !== 'true')
      throw invalid(
        `A price (\`${holder.id}\`) already uses that lookup key. Pass \`transfer_lookup_key\`=true to transfer the lookup key to this price.`,
        { param: 'lookup_key' },
      );
    if (holder) holder.lookup_key = null;
  }
  return c.ledger.put(c.owner, {
    id: newId('price'),
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    currency,
    unit_amount: unitAmount,
    unit_amount_decimal: String(unitAmount),
    product: product.id,
    recurring,
    type: recurring ? 'recurring' : 'one_time',
    lookup_key: lookupKey,
    tax_behavior: taxBehavior,
    nickname: str(c.params, 'nickname'),
    metadata: metadata(c.params),
    created: now(),
    livemode: false,
  });
}

/** `GET /v1/prices`: newest first, filtered by `lookup_keys`, `active`, `product`, `type`, up to `limit` (default 10). */
function listPrices(c: RouteContext): StripeObject {
  const keys = list(c.params, 'lookup_keys').filter((k): k is string => typeof k === 'string');
  if (keys.length > 10) throw invalid('You may only specify up to 10 lookup_keys.', { param: 'lookup_keys' });
  const active = str(c.params, 'active');
  const product = str(c.params, 'product');
  const type = str(c.params, 'type');
  const limit = intParam(c.params, 'limit', 'limit', false, 1) ?? 10;
  if (limit > 100) throw invalid('This value must be less than or equal to 100.', { param: 'limit' });
  const matching = c.ledger
    .list(c.owner, 'price')
    .reverse()
    .filter(
      (p) =>
        (keys.length === 0 || keys.includes(p.lookup_key as string)) &&
        (active === null || String(p.active) === active) &&
        (product === null || p.product === product) &&
        (type === null || p.type === type),
    );
  // A list has no id: the route's answer is an object all the same.
  return {
    object: 'list',
    data: matching.slice(0, limit),
    has_more: matching.length > limit,
    url: '/v1/prices',
  } as unknown as StripeObject;
}

/** The line items of a subscription-mode Checkout: recurring prices of the account, with their quantity. */
export function subscriptionItems(c: RouteContext): { items: NonNullable<CheckoutPlan['items']>; amount: number } {
  const lines = list(c.params, 'line_items') as Form[];
  if (lines.length === 0) throw missingParam('line_items');
  let amount = 0;
  let recurring = false;
  const items = lines.map((line, i) => {
    const priceId = str(line, 'price');
    if (!priceId) throw invalid('The fake Stripe takes line_items[][price] in subscription mode.', { param: `line_items[${i}][price]` });
    const price = c.ledger.get(c.owner, 'price', priceId, `line_items[${i}][price]`);
    if (!price.active)
      throw invalid(`The price specified is inactive. This field only accepts active prices.`, { param: `line_items[${i}][price]` });
    const quantity = intParam(line, 'quantity', `line_items[${i}][quantity]`, true, 1)!;
    if (price.recurring) recurring = true;
    amount += (price.unit_amount as number) * quantity;
    return { price: price.id, quantity };
  });
  if (!recurring)
    throw invalid('You must provide at least one recurring price in `subscription` mode when using prices.', { param: 'line_items' });
  return { items, amount };
}

/** `start` moved by whole intervals, in UTC; a day the month lacks becomes its last (31 January + 1 month = 28/29 February). */
export function addInterval(start: number, interval: string, count: number): number {
  const d = new Date(start * 1000);
  if (interval === 'day' || interval === 'week') return start + count * (interval === 'day' ? 1 : 7) * 86_400;
  const months = interval === 'year' ? 12 * count : count;
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  target.setUTCHours(d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  return Math.floor(target.getTime() / 1000);
}

/**
 * What completing a subscription-mode Checkout makes: an active subscription of the session's customer
 * (one created when the session had none) with one item per line, its period from now, and the
 * `subscription_data[metadata]`. The session becomes complete and paid, naming the subscription.
 */
export function completeSubscriptionCheckout(
  ledger: Ledger,
  owner: string,
  session: StripeObject,
  plan: CheckoutPlan,
  /** Saves the card on the customer: its PaymentMethod id (the subscription's default). */
  saveCard: (customerId: string) => string,
): StripeObject {
  let customer = session.customer as string | null;
  if (!customer) {
    customer = ledger.put(owner, {
      id: newId('cus'),
      object: 'customer',
      email: session.customer_email ?? null,
      name: null,
      metadata: {},
      created: now(),
      livemode: false,
    }).id;
  }
  const start = now();
  const id = newId('sub');
  const items = (plan.items ?? []).map(({ price, quantity }) => {
    const p = ledger.get(owner, 'price', price);
    const recurring = (p.recurring ?? { interval: 'month', interval_count: 1 }) as { interval: string; interval_count: number };
    return {
      id: newId('si'),
      object: 'subscription_item',
      subscription: id,
      price: structuredClone(p),
      quantity,
      current_period_start: start,
      current_period_end: addInterval(start, recurring.interval, recurring.interval_count),
      metadata: {},
      created: start,
    };
  });
  const subscription = ledger.put(owner, {
    id,
    object: 'subscription',
    customer,
    status: 'active',
    cancel_at_period_end: false,
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    collection_method: 'charge_automatically',
    currency: 'eur',
    default_payment_method: saveCard(customer),
    billing_cycle_anchor: start,
    start_date: start,
    trial_start: null,
    trial_end: null,
    latest_invoice: null,
    schedule: null,
    metadata: plan.metadata,
    items: { object: 'list', data: items, has_more: false, total_count: items.length, url: `/v1/subscription_items?subscription=${id}` },
    default_tax_rates: (plan.taxRates ?? []).map((r) => structuredClone(ledger.get(owner, 'tax_rate', r))),
    created: start,
    livemode: false,
  });
  payFirstInvoice(ledger, owner, subscription);
  Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription: subscription.id });
  return subscription;
}

/**
 * The subscription's first invoice, paid at once as Checkout pays it: its period's lines, taxed at the
 * subscription's `default_tax_rates` (exclusive), charged through a PaymentIntent to the default payment
 * method, and the invoice payment that names it (API 2025-03-31 on: the invoice no longer names its
 * PaymentIntent; `invoice_payments?invoice=…` does).
 */
function payFirstInvoice(ledger: Ledger, owner: string, sub: StripeObject) {
  const id = newId('in');
  const created = sub.created as number;
  const lines = itemsOf(sub).map((item) => {
    const product = ledger.list(owner, 'product').find((p) => p.id === item.price.product);
    const amount = (item.price.unit_amount as number) * item.quantity;
    return {
      ...line(
        id,
        sub,
        item.id,
        {
          amount,
          description: `${item.quantity} × ${(product?.name as string | undefined) ?? String(item.price.product)}`,
          price: item.price,
          quantity: item.quantity,
          period: { start: item.current_period_start, end: item.current_period_end },
        },
        false,
        null,
      ),
      id: newId('il'),
    };
  });
  const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
  const taxes = (sub.default_tax_rates as StripeObject[]).map((r) => ({
    amount: Math.round((subtotal * (r.percentage as number)) / 100),
    tax_behavior: 'exclusive',
    tax_rate_details: { tax_rate: r.id },
    taxability_reason: 'standard_rated',
    taxable_amount: subtotal,
    type: 'tax_rate_details',
  }));
  const total = subtotal + taxes.reduce((sum, t) => sum + t.amount, 0);
  const pi = ledger.put(owner, {
    ...paymentIntent({
      amount: total,
      customer: sub.customer as string,
      payment_method: sub.default_payment_method as string,
      description: 'Subscription creation',
      metadata: {},
    }),
    status: 'succeeded',
    amount_received: total,
    latest_charge: newId('ch'),
  });
  ledger.put(owner, {
    id,
    object: 'invoice',
    status: 'paid',
    billing_reason: 'subscription_create',
    collection_method: 'charge_automatically',
    currency: 'eur',
    customer: sub.customer,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: sub.metadata } },
    created,
    period_start: created,
    period_end: created,
    attempt_count: 1,
    next_payment_attempt: null,
    subtotal,
    subtotal_excluding_tax: subtotal,
    total,
    total_excluding_tax: subtotal,
    amount_due: total,
    amount_paid: total,
    amount_remaining: 0,
    starting_balance: 0,
    total_taxes: taxes,
    lines: linesPage(id, lines, false),
    status_transitions: { finalized_at: created, paid_at: created, marked_uncollectible_at: null, voided_at: null },
    livemode: false,
  });
  ledger.put(owner, {
    id: newId('inpay'),
    object: 'invoice_payment',
    amount_paid: total,
    amount_requested: total,
    created,
    currency: 'eur',
    invoice: id,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: pi.id },
    status: 'paid',
    status_transitions: { canceled_at: null, paid_at: created },
  });
  sub.latest_invoice = id;
}

/** A page of a list, newest first, as Stripe pages: `limit` (default 10, up to 100) after `starting_after`. */
function page(c: RouteContext, all: StripeObject[], url: string): StripeObject {
  const limit = intParam(c.params, 'limit', 'limit', false, 1) ?? 10;
  if (limit > 100) throw invalid('This value must be less than or equal to 100.', { param: 'limit' });
  const after = str(c.params, 'starting_after');
  const from = after ? all.findIndex((o) => o.id === after) + 1 : 0;
  if (after && from === 0) throw invalid(`Invalid starting_after: ${after}`, { param: 'starting_after' });
  return { object: 'list', data: all.slice(from, from + limit), has_more: from + limit < all.length, url } as unknown as StripeObject;
}

/** `GET /v1/invoice_payments?invoice=…`: an invoice's payments, by `status`. */
function listInvoicePayments(c: RouteContext): StripeObject {
  const invoice = str(c.params, 'invoice');
  if (!invoice) throw invalid('The fake Stripe lists the payments of one invoice: pass invoice.', { param: 'invoice' });
  c.ledger.get(c.owner, 'invoice', invoice, 'invoice');
  const status = str(c.params, 'status');
  const all = c.ledger
    .list(c.owner, 'invoice_payment')
    .reverse()
    .filter((p) => p.invoice === invoice && (status === null || p.status === status));
  return page(c, all, '/v1/invoice_payments');
}

/** `GET /v1/customers/:id/payment_methods`: the payment methods attached to the customer, by `type`. */
function listCustomerPaymentMethods(c: RouteContext): StripeObject {
  const customer = c.ledger.get(c.owner, 'customer', c.ids[0]!, 'customer');
  const type = str(c.params, 'type');
  const all = c.ledger
    .list(c.owner, 'payment_method')
    .reverse()
    .filter((pm) => pm.customer === customer.id && (type === null || pm.type === type));
  return page(c, all, `/v1/customers/${customer.id}/payment_methods`);
}

export type Item = {
  id: string;
  price: StripeObject;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
};
type Recurring = { interval: string; interval_count: number };

/** What an update (or a preview's `subscription_details`) asks of the subscription, read as Stripe reads it. */
export type Change = {
  item: Item;
  /** The item's price and quantity after the change (the same as now when it changes neither). */
  price: StripeObject;
  quantity: number;
  changed: boolean;
  prorate: boolean;
  /** Unix seconds the prorations are computed at (`proration_date`, else now). */
  at: number;
  /** The renewal asked for, or null (left as it is). */
  cancelAtPeriodEnd: boolean | null;
};

const PRORATION_BEHAVIORS = ['create_prorations', 'none', 'always_invoice'];

function boolParam(form: Form, key: string, param: string): boolean | null {
  const raw = str(form, key);
  if (raw === null) return null;
  if (raw !== 'true' && raw !== 'false') throw invalid(`Invalid boolean: ${raw}`, { param });
  return raw === 'true';
}

export const itemsOf = (sub: StripeObject) => (sub.items as { data: Item[] }).data;

/**
 * The change in `form` (an update's parameters, or a preview's `subscription_details`, `prefix` naming
 * them in errors). As Stripe: an item named by its id; a new price without a quantity sets it to 1;
 * `proration_behavior` defaults to `create_prorations`. The fake changes an existing item only, within
 * the same billing interval (Stripe would reset the billing cycle and invoice at once: not modelled).
 */
function readChange(c: RouteContext, sub: StripeObject, form: Form, prefix: (param: string) => string): Change {
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired')
    throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
  const items = list(form, 'items') as Form[];
  if (items.length > 1) throw invalid('The fake Stripe changes one item at a time.', { param: prefix('items') });
  const current = itemsOf(sub)[0]!;
  let item = current;
  let price = current.price;
  let quantity = current.quantity;
  const asked = items[0];
  if (asked) {
    const itemId = str(asked, 'id');
    if (!itemId) throw invalid('The fake Stripe only updates existing items: pass items[0][id].', { param: prefix('items[0][id]') });
    const found = itemsOf(sub).find((i) => i.id === itemId);
    if (!found) throw missing('subscription_item', itemId, prefix('items[0][id]'));
    item = found;
    price = found.price;
    quantity = found.quantity;
    const priceId = str(asked, 'price');
    if (priceId) {
      const p = c.ledger.get(c.owner, 'price', priceId, prefix('items[0][price]'));
      if (!p.active)
        throw invalid('The price specified is inactive. This field only accepts active prices.', { param: prefix('items[0][price]') });
      if (!p.recurring)
        throw invalid(`The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`, {
          param: prefix('items[0][price]'),
        });
      const [from, to] = [found.price.recurring as Recurring, p.recurring as Recurring];
      if (from.interval !== to.interval || from.interval_count !== to.interval_count)
        throw invalid('The fake Stripe does not change a billing interval (Stripe would reset the billing cycle and invoice at once).', {
          param: prefix('items[0][price]'),
        });
      if (p.id !== found.price.id) {
        price = structuredClone(p);
        quantity = 1;
      }
    }
    quantity = intParam(asked, 'quantity', prefix('items[0][quantity]'), false, 0) ?? quantity;
  }
  const behavior = str(form, 'proration_behavior') ?? 'create_prorations';
  if (!PRORATION_BEHAVIORS.includes(behavior))
    throw invalid(`Invalid proration_behavior: ${behavior}`, { param: prefix('proration_behavior') });
  if (behavior === 'always_invoice')
    throw invalid('The fake Stripe keeps prorations for the next invoice: always_invoice is not modelled.', {
      param: prefix('proration_behavior'),
    });
  const at = intParam(form, 'proration_date', prefix('proration_date'), false) ?? now();
  if (at < item.current_period_start)
    throw invalid('proration_date must be within the current billing period.', { param: prefix('proration_date') });
  return {
    item,
    price,
    quantity,
    changed: price.id !== item.price.id || quantity !== item.quantity,
    prorate: behavior === 'create_prorations',
    at,
    cancelAtPeriodEnd: boolParam(form, 'cancel_at_period_end', prefix('cancel_at_period_end')),
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** As Stripe writes a date in a line's description: `12 Oct 2026` (UTC). */
const day = (t: number) => {
  const d = new Date(t * 1000);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};

const productName = (c: RouteContext, price: StripeObject) => {
  const product = c.ledger.list(c.owner, 'product').find((p) => p.id === price.product);
  return (product?.name as string | undefined) ?? String(price.product);
};

type Proration = { amount: number; description: string; price: StripeObject; quantity: number; period: { start: number; end: number } };

/**
 * The prorations of a change, as Stripe computes them to the second: for the fraction f of the period
 * left at `at`, a credit of the old terms' unused time and a charge of the new terms' remaining time.
 */
export function prorations(c: RouteContext, change: Change): Proration[] {
  const { item, at } = change;
  const length = item.current_period_end - item.current_period_start;
  if (!change.prorate || !change.changed || length <= 0 || at >= item.current_period_end) return [];
  const f = (item.current_period_end - at) / length;
  const period = { start: at, end: item.current_period_end };
  const unit = (p: StripeObject) => p.unit_amount as number;
  return [
    {
      amount: -Math.round(unit(item.price) * item.quantity * f),
      description: `Unused time on ${item.quantity} × ${productName(c, item.price)} after ${day(at)}`,
      price: item.price,
      quantity: item.quantity,
      period,
    },
    {
      amount: Math.round(unit(change.price) * change.quantity * f),
      description: `Remaining time on ${change.quantity} × ${productName(c, change.price)} after ${day(at)}`,
      price: change.price,
      quantity: change.quantity,
      period,
    },
  ];
}

const pricing = (price: StripeObject) => ({
  type: 'price_details',
  price_details: { price: price.id, product: price.product },
  unit_amount_decimal: String(price.unit_amount),
});

/** A change's two proration lines left as pending invoice items, billed on the next invoice (none without prorations). */
export function pendProrations(c: RouteContext, sub: StripeObject, change: Change) {
  for (const p of prorations(c, change)) {
    c.ledger.put(c.owner, {
      id: newId('ii'),
      object: 'invoiceitem',
      amount: p.amount,
      currency: 'eur',
      customer: sub.customer,
      customer_account: null,
      date: change.at,
      description: p.description,
      discountable: false,
      discounts: [],
      invoice: null,
      livemode: false,
      metadata: {},
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, subscription_item: change.item.id } },
      period: p.period,
      pricing: pricing(p.price),
      proration: true,
      proration_details: { credited_items: null, discount_amounts: [] },
      quantity: p.quantity,
      quantity_decimal: String(p.quantity),
      tax_rates: [],
      test_clock: null,
    });
  }
}

/**
 * `POST /v1/subscriptions/:id`: the item's price and/or quantity (`items[0][id|price|quantity]`),
 * `proration_behavior`, `proration_date`, `cancel_at_period_end`. With `create_prorations` a change
 * leaves its two proration lines as pending invoice items, billed on the next invoice.
 */
function updateSubscription(c: RouteContext): StripeObject {
  const sub = c.ledger.get(c.owner, 'subscription', c.ids[0]!, 'id');
  const change = readChange(c, sub, c.params, (p) => p);
  if (sub.schedule && change.cancelAtPeriodEnd !== null)
    throw invalid(
      `The subscription is managed by the subscription schedule \`${String(sub.schedule)}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
    );
  pendProrations(c, sub, change);
  Object.assign(change.item, { price: change.price, quantity: change.quantity });
  if (change.cancelAtPeriodEnd !== null) {
    Object.assign(sub, {
      cancel_at_period_end: change.cancelAtPeriodEnd,
      cancel_at: change.cancelAtPeriodEnd ? change.item.current_period_end : null,
      canceled_at: change.cancelAtPeriodEnd ? now() : null,
    });
  }
  const metadataForm = obj(c.params, 'metadata');
  if (Object.keys(metadataForm).length > 0) sub.metadata = { ...(sub.metadata as object), ...metadata(c.params) };
  // `default_tax_rates=''` clears them; a list replaces them (expanded on the subscription, as Stripe answers).
  if (c.params.default_tax_rates !== undefined)
    sub.default_tax_rates = taxRatesOf(c, c.params.default_tax_rates === '' ? [] : list(c.params, 'default_tax_rates'));
  return sub;
}

/** The tax rates a request names, each one that exists (an unknown id: Stripe's resource_missing). */
export function taxRatesOf(c: RouteContext, ids: unknown[]): StripeObject[] {
  return ids.map((id, i) => structuredClone(c.ledger.get(c.owner, 'tax_rate', String(id), `default_tax_rates[${i}]`)));
}

/** `tax_rates.create`: a percentage (exclusive or inclusive) with its display name and jurisdiction. */
function createTaxRate(c: RouteContext): StripeObject {
  const displayName = str(c.params, 'display_name');
  if (!displayName) throw missingParam('display_name');
  const raw = str(c.params, 'percentage');
  if (raw === null) throw missingParam('percentage');
  const percentage = Number(raw);
  if (!Number.isFinite(percentage) || percentage < 0 || percentage > 100)
    throw invalid(`Invalid percentage: ${raw}`, { param: 'percentage' });
  const inclusive = str(c.params, 'inclusive');
  if (inclusive === null) throw missingParam('inclusive');
  return c.ledger.put(c.owner, {
    id: newId('txr'),
    object: 'tax_rate',
    active: true,
    display_name: displayName,
    percentage,
    effective_percentage: percentage,
    inclusive: inclusive === 'true',
    country: str(c.params, 'country'),
    jurisdiction: str(c.params, 'jurisdiction'),
    tax_type: str(c.params, 'tax_type'),
    metadata: metadata(c.params),
    created: now(),
    livemode: false,
  });
}

/** `tax_rates.list`: newest first, by `active` and `inclusive`, paged by `starting_after`. */
function listTaxRates(c: RouteContext): StripeObject {
  const active = str(c.params, 'active');
  const inclusive = str(c.params, 'inclusive');
  const limit = intParam(c.params, 'limit', 'limit', false, 1) ?? 10;
  if (limit > 100) throw invalid('This value must be less than or equal to 100.', { param: 'limit' });
  const all = c.ledger
    .list(c.owner, 'tax_rate')
    .reverse()
    .filter((r) => (active === null || String(r.active) === active) && (inclusive === null || String(r.inclusive) === inclusive));
  const after = str(c.params, 'starting_after');
  const from = after ? all.findIndex((r) => r.id === after) + 1 : 0;
  return {
    object: 'list',
    data: all.slice(from, from + limit),
    has_more: from + limit < all.length,
    url: '/v1/tax_rates',
  } as unknown as StripeObject;
}

/** A line of a preview, as API 2026-10-28 writes it: whether it is a proration under `parent.subscription_item_details`. */
function line(
  invoiceId: string,
  sub: StripeObject,
  itemId: string,
  l: { amount: number; description: string; price: StripeObject | null; quantity: number; period: { start: number; end: number } },
  proration: boolean,
  invoiceItem: string | null,
) {
  return {
    id: `il_tmp_${newId('x').slice(2)}`,
    object: 'line_item',
    amount: l.amount,
    currency: 'eur',
    description: l.description,
    discount_amounts: [],
    discountable: !proration,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: invoiceItem,
        proration,
        proration_details: { credited_items: null },
        subscription: sub.id,
        subscription_item: itemId,
      },
    },
    period: l.period,
    pretax_credit_amounts: [],
    pricing: l.price ? pricing(l.price) : null,
    quantity: l.quantity,
    quantity_decimal: String(l.quantity),
    subscription: sub.id,
    subtotal: l.amount,
    taxes: [],
  };
}

/** Stripe's list of an invoice's lines holds the first 10; the rest are read from `/v1/invoices/:id/lines`. */
const EMBEDDED_LINES = 10;
const linesPage = (invoiceId: string, data: unknown[], hasMore: boolean) => ({
  object: 'list',
  data,
  has_more: hasMore,
  url: `/v1/invoices/${invoiceId}/lines`,
});

/**
 * `POST /v1/invoices/create_preview` for a subscription: its next invoice as Stripe would write it now —
 * the pending invoice items of the subscription (prorations of past changes), the prorations the change in
 * `subscription_details` would add (at its `proration_date`), and the next period at the new terms. No
 * upcoming invoice for a subscription that ends at the period's end (`invoice_upcoming_none`).
 */
function createPreview(c: RouteContext): StripeObject {
  const subId = str(c.params, 'subscription');
  if (!subId) throw invalid('The fake Stripe previews the next invoice of a subscription: pass subscription.', { param: 'subscription' });
  const sub = c.ledger.get(c.owner, 'subscription', subId, 'subscription');
  const customer = str(c.params, 'customer');
  if (customer && customer !== sub.customer)
    throw invalid(`The subscription ${sub.id} does not belong to the customer ${customer}.`, { param: 'customer' });
  const details = obj(c.params, 'subscription_details');
  const change = readChange(c, sub, details, (p) => `subscription_details[${p}]`);
  const endsAtPeriodEnd = change.cancelAtPeriodEnd ?? (sub.cancel_at_period_end as boolean);
  if (endsAtPeriodEnd || sub.status === 'canceled')
    throw new ApiError(404, {
      type: 'invalid_request_error',
      code: 'invoice_upcoming_none',
      message: `No upcoming invoices for customer: ${String(sub.customer)}`,
    });
  const id = `upcoming_in_${newId('x').slice(2)}`;
  const item = change.item;
  const pending = c.ledger
    .list(c.owner, 'invoiceitem')
    .filter(
      (ii) =>
        ii.invoice === null &&
        (ii.parent as { subscription_details: { subscription: string } }).subscription_details.subscription === sub.id,
    );
  const recurring = change.price.recurring as Recurring;
  const unit = change.price.unit_amount as number;
  const every = recurring.interval_count === 1 ? `/ ${recurring.interval}` : `every ${recurring.interval_count} ${recurring.interval}s`;
  const lines = [
    ...pending.map((ii) =>
      line(
        id,
        sub,
        (ii.parent as { subscription_details: { subscription_item: string } }).subscription_details.subscription_item,
        {
          amount: ii.amount as number,
          description: ii.description as string,
          // A one-off amount (a credit) has no price.
          price: ii.pricing
            ? c.ledger.get(c.owner, 'price', (ii.pricing as { price_details: { price: string } }).price_details.price)
            : null,
          quantity: ii.quantity as number,
          period: ii.period as { start: number; end: number },
        },
        ii.proration as boolean,
        ii.id,
      ),
    ),
    ...prorations(c, change).map((p) => line(id, sub, item.id, p, true, null)),
    line(
      id,
      sub,
      item.id,
      {
        amount: unit * change.quantity,
        description: `${change.quantity} × ${productName(c, change.price)} (at €${centsToDecimalText(unit, '.')} ${every})`,
        price: change.price,
        quantity: change.quantity,
        period: {
          start: item.current_period_end,
          end: addInterval(item.current_period_end, recurring.interval, recurring.interval_count),
        },
      },
      false,
      null,
    ),
  ];
  const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
  const invoice = c.ledger.put(c.owner, {
    id,
    object: 'invoice',
    status: 'draft',
    billing_reason: 'upcoming',
    collection_method: sub.collection_method,
    currency: 'eur',
    customer: sub.customer,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: sub.metadata } },
    // The invoice the renewal makes: it looks back on the current period and is made at its end.
    created: item.current_period_end,
    period_start: item.current_period_start,
    period_end: item.current_period_end,
    next_payment_attempt: sub.collection_method === 'charge_automatically' ? item.current_period_end + 3600 : null,
    subtotal,
    subtotal_excluding_tax: subtotal,
    total: subtotal,
    total_excluding_tax: subtotal,
    amount_due: Math.max(0, subtotal),
    amount_paid: 0,
    amount_remaining: Math.max(0, subtotal),
    starting_balance: 0,
    total_taxes: [],
    lines: linesPage(id, lines, false),
    livemode: false,
  });
  return { ...invoice, lines: linesPage(id, lines.slice(0, EMBEDDED_LINES), lines.length > EMBEDDED_LINES) };
}

/** `GET /v1/invoices/:id/lines` (a preview's too): `limit` (default 10, up to 100) after `starting_after`. */
function listInvoiceLines(c: RouteContext): StripeObject {
  const invoice = c.ledger.get(c.owner, 'invoice', c.ids[0]!, 'invoice');
  const all = (invoice.lines as { data: Array<{ id: string }> }).data;
  const limit = intParam(c.params, 'limit', 'limit', false, 1) ?? 10;
  if (limit > 100) throw invalid('This value must be less than or equal to 100.', { param: 'limit' });
  const after = str(c.params, 'starting_after');
  let from = 0;
  if (after) {
    const at = all.findIndex((l) => l.id === after);
    if (at < 0) throw invalid(`Invalid starting_after: ${after}`, { param: 'starting_after' });
    from = at + 1;
  }
  return linesPage(invoice.id, all.slice(from, from + limit), from + limit < all.length) as unknown as StripeObject;
}

/**
 * `POST /v1/invoiceitems` for a subscription: a one-off amount (negative: a credit) pending for its next
 * invoice, taxed there at the invoice's rates, as Stripe does.
 */
function createInvoiceItem(c: RouteContext): StripeObject {
  const customer = str(c.params, 'customer');
  if (!customer) throw missingParam('customer');
  c.ledger.get(c.owner, 'customer', customer, 'customer');
  const subId = str(c.params, 'subscription');
  if (!subId) throw invalid('The fake Stripe adds invoice items to a subscription: pass subscription.', { param: 'subscription' });
  const sub = c.ledger.get(c.owner, 'subscription', subId, 'subscription');
  if (sub.customer !== customer)
    throw invalid(`The subscription ${subId} does not belong to the customer ${customer}.`, { param: 'subscription' });
  const amount = intParam(c.params, 'amount', 'amount', true, -99_999_999);
  if (str(c.params, 'currency') !== 'eur') throw invalid('The fake Stripe bills in eur.', { param: 'currency' });
  const item = itemsOf(sub)[0]!;
  return c.ledger.put(c.owner, {
    id: newId('ii'),
    object: 'invoiceitem',
    amount,
    currency: 'eur',
    customer,
    customer_account: null,
    date: now(),
    description: str(c.params, 'description'),
    discountable: true,
    discounts: [],
    invoice: null,
    livemode: false,
    metadata: metadata(c.params),
    parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, subscription_item: item.id } },
    period: { start: item.current_period_end, end: item.current_period_end },
    pricing: null,
    proration: false,
    proration_details: { credited_items: null, discount_amounts: [] },
    quantity: 1,
    quantity_decimal: '1',
    tax_rates: [],
    test_clock: null,
  });
}

/** `GET /v1/subscriptions?customer=…&status=all`: newest first (the fake keeps no canceled ones apart). */
function listSubscriptions(c: RouteContext): StripeObject {
  const customer = str(c.params, 'customer');
  const status = str(c.params, 'status') ?? 'active';
  const limit = intParam(c.params, 'limit', 'limit', false, 1) ?? 10;
  const all = c.ledger
    .list(c.owner, 'subscription')
    .reverse()
    .filter((s) => (!customer || s.customer === customer) && (status === 'all' ? true : s.status === status));
  return { object: 'list', data: all.slice(0, limit), has_more: all.length > limit, url: '/v1/subscriptions' } as unknown as StripeObject;
}

const ID = '([A-Za-z0-9_]+)';
const retrieve = (object: string, param: string) => (c: RouteContext) => c.ledger.get(c.owner, object, c.ids[0]!, param);

/** `billing_portal.sessions.create`: a hosted page's address for a platform customer. */
function createPortalSession(c: RouteContext): StripeObject {
  const customer = str(c.params, 'customer');
  if (!customer) throw missingParam('customer');
  c.ledger.get(c.owner, 'customer', customer);
  const id = newId('bps');
  return {
    id,
    object: 'billing_portal.session',
    customer,
    return_url: str(c.params, 'return_url'),
    locale: str(c.params, 'locale'),
    url: `https://billing.stripe.com/p/session/test_${id}`,
    created: now(),
    livemode: false,
  };
}

export const BILLING_ROUTES: Route[] = [
  { method: 'POST', pattern: /^\/v1\/billing_portal\/sessions$/, handle: createPortalSession, platformOnly: true },
  { method: 'POST', pattern: /^\/v1\/products$/, handle: createProduct },
  { method: 'GET', pattern: new RegExp(`^/v1/products/${ID}$`), handle: retrieve('product', 'id') },
  { method: 'POST', pattern: /^\/v1\/prices$/, handle: createPrice },
  { method: 'GET', pattern: /^\/v1\/prices$/, handle: listPrices },
  { method: 'GET', pattern: new RegExp(`^/v1/prices/${ID}$`), handle: retrieve('price', 'price') },
  { method: 'GET', pattern: /^\/v1\/subscriptions$/, handle: listSubscriptions, platformOnly: true },
  { method: 'GET', pattern: new RegExp(`^/v1/subscriptions/${ID}$`), handle: retrieve('subscription', 'id') },
  { method: 'POST', pattern: /^\/v1\/invoiceitems$/, handle: createInvoiceItem, platformOnly: true },
  { method: 'POST', pattern: new RegExp(`^/v1/subscriptions/${ID}$`), handle: updateSubscription },
  { method: 'POST', pattern: /^\/v1\/invoices\/create_preview$/, handle: createPreview },
  { method: 'GET', pattern: new RegExp(`^/v1/invoices/${ID}$`), handle: retrieve('invoice', 'invoice') },
  { method: 'POST', pattern: /^\/v1\/tax_rates$/, handle: createTaxRate, platformOnly: true },
  { method: 'GET', pattern: /^\/v1\/tax_rates$/, handle: listTaxRates, platformOnly: true },
  { method: 'GET', pattern: new RegExp(`^/v1/invoices/${ID}/lines$`), handle: listInvoiceLines },
  { method: 'GET', pattern: /^\/v1\/invoice_payments$/, handle: listInvoicePayments },
  { method: 'GET', pattern: new RegExp(`^/v1/customers/${ID}/payment_methods$`), handle: listCustomerPaymentMethods },
];
