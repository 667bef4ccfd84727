// Test support: the endpoints of Stripe's API the gateway uses, on the fake's Ledger (Billing's: billing.ts).
import { centsToDecimalText } from '@divan/core';
import { BILLING_ROUTES, subscriptionItems } from './billing';
import { SCHEDULE_ROUTES } from './schedules';
import { bool, list, metadata, obj, str, type Form } from './form';
import { confirm, invalid, missingParam, newId, now, paymentIntent, PLATFORM, type Ledger, type StripeObject } from './objects';

export type RouteContext = {
  ledger: Ledger;
  /** The Stripe-Account header, or null on the platform. */
  account: string | null;
  /** Where objects are kept: the account, or PLATFORM. */
  owner: string;
  params: Form;
  /** The captures of the route's pattern (ids in the path). */
  ids: string[];
  /** The fake's base URL (hosted pages' links). */
  base: string;
  /** Test card number of a payment method of the fake. */
  cardOf: (paymentMethodId: string) => string;
  /** What completing a Checkout Session makes (Stripe keeps it; the session object does not show it). */
  plans: Map<string, CheckoutPlan>;
};

export type CheckoutPlan = {
  metadata: Record<string, string>;
  setupFutureUsage: string | null;
  /** Subscription mode: the prices and quantities the subscription will have. */
  items?: { price: string; quantity: number }[];
  /** Subscription mode: `subscription_data[default_tax_rates]`, checked to exist. */
  taxRates?: string[];
};

export type Route = {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: RegExp;
  handle: (c: RouteContext) => StripeObject;
  platformOnly?: boolean;
};

const amountParam = (params: Form, key: string, required: boolean): number | null => {
  const raw = str(params, key);
  if (raw === null) {
    if (required) throw missingParam(key);
    return null;
  }
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw invalid(`Invalid integer: ${raw}`, { param: key });
  return n;
};

/** An object of the request's account named in a parameter (a customer, a payment method…). */
const ref = (c: RouteContext, object: string, key: string): StripeObject | null => {
  const id = str(c.params, key);
  return id === null ? null : c.ledger.get(c.owner, object, id, key);
};

function expand(c: RouteContext, o: StripeObject): StripeObject {
  const out: StripeObject = { ...o };
  for (const field of list(c.params, 'expand')) {
    const id = typeof field === 'string' ? out[field] : null;
    if (typeof id === 'string') out[field as string] = c.ledger.find(id)?.o ?? id;
  }
  return out;
}

function createAccount(c: RouteContext): StripeObject {
  const type = str(c.params, 'type');
  if (!type) throw missingParam('type');
  const requested = obj(c.params, 'capabilities');
  return c.ledger.put(PLATFORM, {
    id: newId('acct'),
    object: 'account',
    type,
    country: str(c.params, 'country') ?? 'US',
    email: str(c.params, 'email'),
    business_profile: { name: str(obj(c.params, 'business_profile'), 'name') },
    capabilities: Object.fromEntries(Object.keys(requested).map((k) => [k, 'inactive'])),
    charges_enabled: false,
    payouts_enabled: false,
    details_submitted: false,
    default_currency: 'eur',
    metadata: metadata(c.params),
    created: now(),
  });
}

function accountLink(c: RouteContext): StripeObject {
  for (const key of ['account', 'type', 'refresh_url', 'return_url']) if (!str(c.params, key)) throw missingParam(key);
  const account = c.ledger.get(PLATFORM, 'account', str(c.params, 'account')!, 'account');
  return {
    id: newId('link'),
    object: 'account_link',
    created: now(),
    expires_at: now() + 300,
    url: `${c.base}/setup/e/${account.id}/${newId('x').slice(2)}`,
  };
}

function loginLink(c: RouteContext): StripeObject {
  const account = c.ledger.get(PLATFORM, 'account', c.ids[0]!, 'account');
  if (!account.details_submitted)
    throw invalid('Cannot create a login link for an account that has not completed onboarding.', { param: 'account' });
  return { id: newId('ll'), object: 'login_link', created: now(), url: `${c.base}/express/${account.id}/${newId('x').slice(2)}` };
}

function createCustomer(c: RouteContext): StripeObject {
  return c.ledger.put(c.owner, {
    id: newId('cus'),
    object: 'customer',
    email: str(c.params, 'email'),
    name: str(c.params, 'name'),
    metadata: metadata(c.params),
    created: now(),
    livemode: false,
  });
}

/** `customers.update`: name, email and address (the fields Diván sends). */
function updateCustomer(c: RouteContext): StripeObject {
  const customer = c.ledger.get(c.owner, 'customer', c.ids[0]!, 'customer');
  if (str(c.params, 'name') !== null) customer.name = str(c.params, 'name');
  if (str(c.params, 'email') !== null) customer.email = str(c.params, 'email');
  const address = obj(c.params, 'address');
  if (Object.keys(address).length > 0) customer.address = { ...address };
  return customer;
}

const TAX_ID_FORMATS: Record<string, RegExp> = { eu_vat: /^[A-Z]{2}[0-9A-Z]{2,12}$/, es_cif: /^[A-Z]\d{7}[0-9A-Z]$/ };
const taxIdsOf = (c: RouteContext, customerId: string) =>
  c.ledger.list(c.owner, 'tax_id').filter((t) => t.customer === customerId && !t.deleted);

/** `customers.createTaxId`: Stripe checks the type's format at once (an EU VAT id's VIES check comes later, pending here). */
function createTaxId(c: RouteContext): StripeObject {
  const customer = c.ledger.get(c.owner, 'customer', c.ids[0]!, 'customer');
  const type = str(c.params, 'type');
  const value = str(c.params, 'value');
  if (!type) throw missingParam('type');
  if (!value) throw missingParam('value');
  const format = TAX_ID_FORMATS[type];
  if (!format) throw invalid(`The fake Stripe knows no tax id type ${type}.`, { param: 'type' });
  if (!format.test(value)) throw invalid(`Invalid value for ${type}.`, { param: 'value', code: 'tax_id_invalid' });
  return c.ledger.put(c.owner, {
    id: newId('txi'),
    object: 'tax_id',
    type,
    value,
    country: value.slice(0, 2),
    customer: customer.id,
    verification: type === 'eu_vat' ? { status: 'pending', verified_address: null, verified_name: null } : null,
    created: now(),
    livemode: false,
  });
}

function listTaxIds(c: RouteContext): StripeObject {
  c.ledger.get(c.owner, 'customer', c.ids[0]!, 'customer');
  const data = taxIdsOf(c, c.ids[0]!);
  return { object: 'list', data, has_more: false, url: `/v1/customers/${c.ids[0]}/tax_ids` } as unknown as StripeObject;
}

/** `customers.retrieveTaxId`: one of the customer's tax ids (a removed one is not found, as on Stripe). */
function retrieveTaxId(c: RouteContext): StripeObject {
  const taxId = taxIdsOf(c, c.ids[0]!).find((t) => t.id === c.ids[1]);
  if (!taxId) throw invalid(`No such tax id: '${c.ids[1]}'`, { code: 'resource_missing', param: 'id' });
  return taxId;
}

function deleteTaxId(c: RouteContext): StripeObject {
  const taxId = taxIdsOf(c, c.ids[0]!).find((t) => t.id === c.ids[1]);
  if (!taxId) throw invalid(`No such tax id: '${c.ids[1]}'`, { code: 'resource_missing', param: 'id' });
  taxId.deleted = true;
  return { id: taxId.id, object: 'tax_id', deleted: true } as StripeObject;
}

function createSession(c: RouteContext): StripeObject {
  const mode = str(c.params, 'mode');
  if (mode !== 'setup' && mode !== 'payment' && mode !== 'subscription') throw invalid(`Invalid mode: ${mode ?? ''}`, { param: 'mode' });
  if (!str(c.params, 'success_url')) throw missingParam('success_url');
  const customer = ref(c, 'customer', 'customer');
  if (customer && str(c.params, 'customer_email'))
    throw invalid('You may only specify one of these parameters: customer, customer_email.', { param: 'customer_email' });
  if (!customer && Object.keys(obj(c.params, 'customer_update')).length > 0)
    throw invalid('customer_update can only be used with customer.', { param: 'customer_update' });
  let amount: number | null = null;
  let subscription: CheckoutPlan['items'];
  if (mode === 'subscription') {
    ({ items: subscription, amount } = subscriptionItems(c));
  } else if (mode === 'payment') {
    const items = list(c.params, 'line_items') as Form[];
    if (items.length === 0) throw missingParam('line_items');
    amount = items.reduce((sum, item, i) => {
      const priceData = obj(item, 'price_data');
      if (str(priceData, 'currency') !== 'eur') throw invalid('Only eur in the fake.', { param: `line_items[${i}][price_data][currency]` });
      if (!str(obj(priceData, 'product_data'), 'name')) throw missingParam(`line_items[${i}][price_data][product_data][name]`);
      const base = amountParam(priceData, 'unit_amount', true)! * (amountParam(item, 'quantity', true) ?? 1);
      // Exclusive tax rates of the line are added to what the page charges, each rounded to the cent.
      const tax = list(item, 'tax_rates').reduce<number>((t, r, j) => {
        const rate = c.ledger.get(c.owner, 'tax_rate', String(r), `line_items[${i}][tax_rates][${j}]`);
        return t + (rate.inclusive ? 0 : Math.round((base * (rate.percentage as number)) / 100));
      }, 0);
      return sum + base + tax;
    }, 0);
  } else if (
    !str(c.params, 'currency') &&
    list(c.params, 'allowed_payment_method_types').length === 0 &&
    list(c.params, 'payment_method_types').length === 0
  ) {
    throw invalid('currency is required in setup mode when allowed_payment_method_types is not set.', { param: 'currency' });
  }
  const id = `cs_test_${newId('x').slice(2)}${newId('x').slice(2)}`;
  const session = c.ledger.put(c.owner, {
    id,
    object: 'checkout.session',
    mode,
    status: 'open',
    payment_status: mode === 'setup' ? 'no_payment_required' : 'unpaid',
    currency: 'eur',
    amount_total: amount,
    customer: customer?.id ?? null,
    customer_email: str(c.params, 'customer_email'),
    client_reference_id: str(c.params, 'client_reference_id'),
    metadata: metadata(c.params),
    success_url: str(c.params, 'success_url'),
    cancel_url: str(c.params, 'cancel_url'),
    payment_intent: null,
    setup_intent: null,
    subscription: null,
    url: `${c.base}/c/pay/${id}`,
    created: now(),
    expires_at: now() + 24 * 3600,
    livemode: false,
  });
  const data = obj(
    c.params,
    mode === 'payment' ? 'payment_intent_data' : mode === 'subscription' ? 'subscription_data' : 'setup_intent_data',
  );
  c.plans.set(id, {
    metadata: metadata(data),
    setupFutureUsage: mode === 'payment' ? str(data, 'setup_future_usage') : null,
    items: subscription,
    ...(mode === 'subscription'
      ? {
          taxRates: list(data, 'default_tax_rates').map(
            (r, i) => c.ledger.get(c.owner, 'tax_rate', String(r), `subscription_data[default_tax_rates][${i}]`).id,
          ),
        }
      : {}),
  });
  return session;
}

function detach(c: RouteContext): StripeObject {
  const pm = c.ledger.get(c.owner, 'payment_method', c.ids[0]!, 'payment_method');
  if (!pm.customer)
    throw invalid('The payment method you provided is not attached to a customer so detachment is impossible.', {
      param: 'payment_method',
    });
  pm.customer = null;
  return pm;
}

function createPaymentIntent(c: RouteContext): StripeObject {
  const amount = amountParam(c.params, 'amount', true)!;
  if (!str(c.params, 'currency')) throw missingParam('currency');
  if (str(c.params, 'currency') !== 'eur') throw invalid('Only eur in the fake.', { param: 'currency' });
  if (amount < 50) throw invalid('Amount must be at least €0.50 eur', { code: 'amount_too_small', param: 'amount' });
  const customer = ref(c, 'customer', 'customer');
  const pm = ref(c, 'payment_method', 'payment_method');
  if (pm && pm.customer && pm.customer !== customer?.id) {
    throw invalid('The provided PaymentMethod belongs to a different Customer than the one on this PaymentIntent.', {
      param: 'payment_method',
    });
  }
  // The fake attaches every saved card to its customer: one without a customer was detached.
  if (pm && !pm.customer && customer) {
    throw invalid(
      `The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again.`,
      { param: 'payment_method' },
    );
  }
  const offSession = bool(c.params, 'off_session');
  if (offSession && !bool(c.params, 'confirm')) throw invalid('off_session can only be used with confirm=true.', { param: 'off_session' });
  const pi = c.ledger.put(
    c.owner,
    paymentIntent({
      amount,
      customer: customer?.id ?? null,
      payment_method: pm?.id ?? null,
      description: str(c.params, 'description'),
      metadata: metadata(c.params),
    }),
  );
  if (bool(c.params, 'confirm')) {
    if (!pm)
      throw invalid('You cannot confirm this PaymentIntent because it is missing a payment method.', {
        code: 'payment_intent_unexpected_state',
      });
    const failure = confirm(pi, pm, c.cardOf(pm.id), offSession);
    if (failure) throw failure;
  }
  return pi;
}

const CANCELABLE = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing'];

function cancel(c: RouteContext): StripeObject {
  const pi = c.ledger.get(c.owner, 'payment_intent', c.ids[0]!, 'intent');
  if (!CANCELABLE.includes(pi.status as string)) {
    throw invalid(
      `You cannot cancel this PaymentIntent because it has a status of ${String(pi.status)}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
      {
        code: 'payment_intent_unexpected_state',
        payment_intent: { ...pi },
      },
    );
  }
  return Object.assign(pi, {
    status: 'canceled',
    canceled_at: now(),
    cancellation_reason: str(c.params, 'cancellation_reason'),
    next_action: null,
  });
}

function refund(c: RouteContext): StripeObject {
  if (!str(c.params, 'payment_intent') && !str(c.params, 'charge')) throw missingParam('payment_intent');
  const pi = ref(c, 'payment_intent', 'payment_intent')!;
  if (pi.status !== 'succeeded')
    throw invalid(`This PaymentIntent (${pi.id}) does not have a successful charge to refund.`, {
      code: 'charge_not_refundable',
      param: 'payment_intent',
    });
  const refunded = c.ledger
    .list(c.owner, 'refund')
    .filter((r) => r.payment_intent === pi.id && r.status !== 'failed' && r.status !== 'canceled');
  const left = (pi.amount_received as number) - refunded.reduce((sum, r) => sum + (r.amount as number), 0);
  const amount = amountParam(c.params, 'amount', false) ?? left;
  if (amount <= 0 || amount > left) {
    const eur = (cents: number) => `€${centsToDecimalText(cents, '.')}`;
    throw invalid(`Refund amount (${eur(amount)}) is greater than unrefunded amount on charge (${eur(left)})`, {
      code: left <= 0 ? 'charge_already_refunded' : 'amount_too_large',
      param: 'amount',
    });
  }
  return c.ledger.put(c.owner, {
    id: newId('re'),
    object: 'refund',
    amount,
    currency: 'eur',
    payment_intent: pi.id,
    charge: pi.latest_charge,
    status: 'succeeded',
    reason: str(c.params, 'reason'),
    metadata: metadata(c.params),
    created: now(),
  });
}

const get = (object: string, param?: string) => (c: RouteContext) => expand(c, c.ledger.get(c.owner, object, c.ids[0]!, param));

const ID = '([A-Za-z0-9_]+)';
export const ROUTES: Route[] = [
  { method: 'POST', pattern: /^\/v1\/accounts$/, handle: createAccount, platformOnly: true },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/accounts/${ID}$`),
    handle: (c) => c.ledger.get(PLATFORM, 'account', c.ids[0]!, 'account'),
    platformOnly: true,
  },
  { method: 'POST', pattern: /^\/v1\/account_links$/, handle: accountLink, platformOnly: true },
  { method: 'POST', pattern: new RegExp(`^/v1/accounts/${ID}/login_links$`), handle: loginLink, platformOnly: true },
  { method: 'POST', pattern: /^\/v1\/customers$/, handle: createCustomer },
  { method: 'POST', pattern: new RegExp(`^/v1/customers/${ID}$`), handle: updateCustomer },
  { method: 'GET', pattern: new RegExp(`^/v1/customers/${ID}/tax_ids$`), handle: listTaxIds, platformOnly: true },
  { method: 'POST', pattern: new RegExp(`^/v1/customers/${ID}/tax_ids$`), handle: createTaxId, platformOnly: true },
  { method: 'GET', pattern: new RegExp(`^/v1/customers/${ID}/tax_ids/${ID}$`), handle: retrieveTaxId, platformOnly: true },
  { method: 'DELETE', pattern: new RegExp(`^/v1/customers/${ID}/tax_ids/${ID}$`), handle: deleteTaxId, platformOnly: true },
  { method: 'POST', pattern: /^\/v1\/checkout\/sessions$/, handle: createSession },
  { method: 'GET', pattern: new RegExp(`^/v1/checkout/sessions/${ID}$`), handle: get('checkout.session', 'session') },
  { method: 'GET', pattern: new RegExp(`^/v1/setup_intents/${ID}$`), handle: get('setup_intent', 'intent') },
  { method: 'GET', pattern: new RegExp(`^/v1/payment_methods/${ID}$`), handle: get('payment_method', 'payment_method') },
  { method: 'POST', pattern: new RegExp(`^/v1/payment_methods/${ID}/detach$`), handle: detach },
  { method: 'POST', pattern: /^\/v1\/payment_intents$/, handle: createPaymentIntent },
  { method: 'GET', pattern: new RegExp(`^/v1/payment_intents/${ID}$`), handle: get('payment_intent', 'intent') },
  { method: 'POST', pattern: new RegExp(`^/v1/payment_intents/${ID}/cancel$`), handle: cancel },
  { method: 'POST', pattern: /^\/v1\/refunds$/, handle: refund },
  ...BILLING_ROUTES,
  ...SCHEDULE_ROUTES,
];
