// Test support: the Billing endpoints of Stripe's API that Diván's own subscription uses
// (platform/billing/stripe-billing.ts), on the fake's Ledger: products, prices found by lookup key,
// Checkout in subscription mode and the subscription its completion makes (one item, a quantity, the
// item's `current_period_end` as in API 2026-10-28). Called on the platform (no Stripe-Account), like Diván.
import { list, metadata, obj, str, type Form } from './form';
import { invalid, missingParam, newId, now, type Ledger, type StripeObject } from './objects';
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
    metadata: plan.metadata,
    items: { object: 'list', data: items, has_more: false, total_count: items.length, url: `/v1/subscription_items?subscription=${id}` },
    created: start,
    livemode: false,
  });
  Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription: subscription.id });
  return subscription;
}

const ID = '([A-Za-z0-9_]+)';
const retrieve = (object: string, param: string) => (c: RouteContext) => c.ledger.get(c.owner, object, c.ids[0]!, param);

export const BILLING_ROUTES: Route[] = [
  { method: 'POST', pattern: /^\/v1\/products$/, handle: createProduct },
  { method: 'GET', pattern: new RegExp(`^/v1/products/${ID}$`), handle: retrieve('product', 'id') },
  { method: 'POST', pattern: /^\/v1\/prices$/, handle: createPrice },
  { method: 'GET', pattern: /^\/v1\/prices$/, handle: listPrices },
  { method: 'GET', pattern: new RegExp(`^/v1/prices/${ID}$`), handle: retrieve('price', 'price') },
  { method: 'GET', pattern: new RegExp(`^/v1/subscriptions/${ID}$`), handle: retrieve('subscription', 'id') },
];
