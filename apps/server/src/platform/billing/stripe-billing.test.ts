// Issue 27, decision 0026: Diván's own subscription on Stripe Billing through the official SDK, spoken to
// the local fake of Stripe's API (test/fake-stripe): everything on the platform (no Stripe-Account),
// the caller's idempotency keys, prices found by lookup key, Checkout in subscription mode, the item's
// period, changes of quantity, price and renewal with the preview of the next invoice (prorations to the
// second), the card that paid an invoice and a customer's cards (fingerprints), the platform endpoint's
// webhook secret, outages.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import { startFakeStripe, type FakeStripe } from '../../test/fake-stripe';
import { GatewayUnavailableError } from '../payments/gateway';
import { loadStripe } from '../payments/stripe-sdk';
import { IVA_21 as IVA, type BillingPriceSpec } from './platform-billing';
import { ROUTES } from '../../test/fake-stripe/routes';
import { StripeBilling } from './stripe-billing';
import {
  itemChange,
  savedChargeRefusal,
  toBillingPreview,
  toCheckoutFact,
  toInvoiceFact,
  toSavedChargeResult,
  toSubscriptionFact,
} from './stripe-facts';

// `customers.retrieve` (chargeSaved reads the customer's default card), which the fake does not serve yet:
// answered from its ledger. Files share their worker's modules (vitest.config: isolate false), so added once.
const retrieveCustomer = /^\/v1\/customers\/([A-Za-z0-9_]+)$/;
if (!ROUTES.some((r) => r.method === 'GET' && r.pattern.source === retrieveCustomer.source))
  ROUTES.push({ method: 'GET', pattern: retrieveCustomer, handle: (c) => c.ledger.get(c.owner, 'customer', c.ids[0]!, 'customer') });

const KEY = 'sk_test_divan_billing';
const BILLING_SECRET = 'whsec_divan_billing_platform';
let fake: FakeStripe;
let billing: StripeBilling;
let seq = 0;

const billingOn = (apiBase: string, secretKey = KEY) =>
  new StripeBilling({ secretKey, billingWebhookSecret: BILLING_SECRET, apiBase }, { maxNetworkRetries: 0, timeoutMs: 5_000 });
const last = () => fake.requests.at(-1)!;
const since = (n: number) => fake.requests.slice(n);
const key = (what: string) => `workspace-${++seq}-${what}`;

const spec = (plan: BillingPriceSpec['plan'], interval: BillingPriceSpec['interval'], unitAmount: number): BillingPriceSpec => ({
  plan,
  interval,
  unitAmount,
  productName: plan === 'basic' ? 'Diván Basic' : 'Diván Premium',
});

const pricesWithKey = (lookupKey: string) => fake.list(null, 'price').filter((p) => p.lookup_key === lookupKey);
const productsOf = (plan: string) => fake.list(null, 'product').filter((p) => (p.metadata as Record<string, string>).divan_plan === plan);

async function customer(name = 'Consulta Ana') {
  return billing.createCustomer({ email: 'ana@example.com', name, metadata: { workspaceId: 'w1' }, idempotencyKey: key('customer') });
}

type FakeItem = { id: string; quantity: number; current_period_start: number; current_period_end: number; price: { id: string } };
const itemOf = (subscriptionId: string) => (fake.get(subscriptionId).items as { data: FakeItem[] }).data[0]!;
const pendingOf = (subscriptionId: string) =>
  fake
    .list(null, 'invoiceitem')
    .filter(
      (ii) =>
        ii.invoice === null &&
        (ii.parent as { subscription_details: { subscription: string } }).subscription_details.subscription === subscriptionId,
    );
const seconds = () => Math.floor(Date.now() / 1000);

/** A subscription as Checkout makes it: `quantity` users on the spec's price, its period from now. */
async function subscribed(priceSpec: BillingPriceSpec, quantity: number, card = '4242424242424242') {
  const cus = await customer();
  const price = await billing.ensurePrice(priceSpec);
  const session = await billing.checkoutSubscription({
    customerId: cus.id,
    priceId: price.id,
    quantity,
    successUrl: 'https://divan.test/ok',
    cancelUrl: 'https://divan.test/no',
    metadata: { workspaceId: 'w1' },
    taxRateIds: [],
    idempotencyKey: key('checkout'),
  });
  const subscriptionId = fake.completeCheckout(session.id, card).subscription as string;
  return { customerId: cus.id, priceId: price.id, subscriptionId, item: itemOf(subscriptionId) };
}

/** Stripe's proration for the part of the item's period left at `t`: the old terms credited, the new charged. */
function prorated(item: FakeItem, t: number, old: number, next: number) {
  const f = (item.current_period_end - t) / (item.current_period_end - item.current_period_start);
  return { credit: -Math.round(old * f), charge: Math.round(next * f) };
}

beforeAll(async () => {
  fake = await startFakeStripe();
  billing = billingOn(fake.url);
});
afterAll(() => fake?.close());

describe('StripeBilling against the fake Stripe', () => {
  it('opens the Customer Portal on the platform, in Spanish, back to Diván', async () => {
    const { id } = await billing.createCustomer({ email: null, name: 'Consulta Portal', metadata: {}, idempotencyKey: key('portal') });
    const { url } = await billing.portal(id, 'http://divan.test/settings/workspace/plan');
    expect(url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_/);
    expect(last()).toMatchObject({ method: 'POST', path: '/v1/billing_portal/sessions', account: null });
    expect(last().body).toEqual({ customer: id, return_url: 'http://divan.test/settings/workspace/plan', locale: 'es' });
  });

  it('a customer on the platform: no Stripe-Account, the caller’s idempotency key, one customer for a repeated key', async () => {
    const k = key('customer');
    const input = { email: 'ana@example.com', name: 'Consulta Ana', metadata: { workspaceId: 'w7' }, idempotencyKey: k };
    const created = await billing.createCustomer(input);
    expect(created).toEqual({ id: expect.stringMatching(/^cus_/) });
    expect(last()).toMatchObject({ method: 'POST', path: '/v1/customers', account: null, idempotencyKey: k, status: 200, replayed: false });
    expect(last().headers).not.toHaveProperty('stripe-account');
    expect(last().headers.authorization).toBe(`Bearer ${KEY}`);
    expect(last().body).toEqual({
      email: 'ana@example.com',
      name: 'Consulta Ana',
      metadata: { workspaceId: 'w7' },
      preferred_locales: ['es'],
    });
    expect(fake.list(null, 'customer').map((c) => c.id)).toContain(created.id);

    expect(await billing.createCustomer(input)).toEqual(created);
    expect(last()).toMatchObject({ idempotencyKey: k, replayed: true });

    // No email: left out, not sent empty.
    await billing.createCustomer({ email: null, name: 'Sin correo', metadata: {}, idempotencyKey: key('customer') });
    expect(last().body).toEqual({ name: 'Sin correo', preferred_locales: ['es'] });
  });

  it('updates the customer’s name, email and address on the platform, under the caller’s key', async () => {
    const cus = await customer();
    const k = key('details');
    const n = fake.requests.length;
    await billing.updateCustomer(cus.id, {
      name: 'Cabinet Marie SARL',
      email: null,
      address: { line1: '3 rue de Rivoli', city: 'París', postalCode: '75001', country: 'FR' },
      taxId: null,
      idempotencyKey: k,
    });
    expect(fake.requests[n]).toMatchObject({
      method: 'POST',
      path: `/v1/customers/${cus.id}`,
      account: null,
      idempotencyKey: k,
      status: 200,
    });
    expect(last()).toMatchObject({ method: 'GET', path: `/v1/customers/${cus.id}/tax_ids`, account: null });
    const update = fake.requests[n]!;
    expect(update.body).toEqual({
      name: 'Cabinet Marie SARL',
      address: { line1: '3 rue de Rivoli', city: 'París', postal_code: '75001', country: 'FR' },
    });
    expect(fake.get(cus.id)).toMatchObject({ name: 'Cabinet Marie SARL', address: { country: 'FR' } });
  });

  it('the customer holds exactly the tax id of the billing data: added (Stripe’s VIES check pending), kept, replaced, removed; a refused format said', async () => {
    const cus = await customer();
    const details = (taxId: { type: 'eu_vat' | 'es_cif'; value: string } | null) => ({
      name: 'Cabinet Marie SARL',
      email: null,
      address: { line1: '3 rue de Rivoli', city: 'París', postalCode: '75001', country: 'FR' },
      taxId,
      idempotencyKey: key('details'),
    });
    const held = () => fake.list(null, 'tax_id').filter((t) => t.customer === cus.id && !t.deleted);
    expect(await billing.updateCustomer(cus.id, details({ type: 'eu_vat', value: 'FR12345678901' }))).toEqual({ taxIdRefused: null });
    expect(held()).toEqual([
      expect.objectContaining({ type: 'eu_vat', value: 'FR12345678901', verification: expect.objectContaining({ status: 'pending' }) }),
    ]);
    const first = held()[0]!.id;
    // Its VIES verdict read from the provider (pending, then what VIES said; a removed one: null).
    expect(await billing.retrieveTaxId(cus.id, first)).toEqual({
      id: first,
      customerId: cus.id,
      type: 'eu_vat',
      value: 'FR12345678901',
      verification: { status: 'pending', verifiedName: null },
    });
    expect(last()).toMatchObject({ method: 'GET', path: `/v1/customers/${cus.id}/tax_ids/${first}`, account: null });
    fake.checkTaxId(first, 'verified', 'CABINET MARIE');
    expect((await billing.retrieveTaxId(cus.id, first))?.verification).toEqual({ status: 'verified', verifiedName: 'CABINET MARIE' });
    // The same again: nothing made or removed.
    const n = fake.requests.length;
    await billing.updateCustomer(cus.id, details({ type: 'eu_vat', value: 'FR12345678901' }));
    expect(since(n).map((r) => r.method)).toEqual(['POST', 'GET']);
    expect(held().map((t) => t.id)).toEqual([first]);
    await billing.updateCustomer(cus.id, details({ type: 'eu_vat', value: 'FR98765432109' }));
    expect(held().map((t) => t.value)).toEqual(['FR98765432109']);
    expect(await billing.retrieveTaxId(cus.id, first)).toBeNull();
    expect(await billing.updateCustomer(cus.id, details({ type: 'es_cif', value: 'no-vale' }))).toEqual({
      taxIdRefused: expect.stringContaining('Invalid value'),
    });
    expect(held()).toEqual([]);
    await billing.updateCustomer(cus.id, details({ type: 'es_cif', value: 'B12345674' }));
    await billing.updateCustomer(cus.id, details(null));
    expect(held()).toEqual([]);
  });

  it('ensurePrice makes the Product and the Price once, then finds the Price by its lookup key', async () => {
    const basicMonth = spec('basic', 'month', 1900);
    const before = fake.requests.length;
    const price = await billing.ensurePrice(basicMonth);
    expect(price).toEqual({ id: expect.stringMatching(/^price_/) });
    const made = since(before);
    expect(made.map((r) => [r.method, r.path, r.account])).toEqual([
      ['GET', '/v1/prices', null],
      ['POST', '/v1/products', null],
      ['POST', '/v1/prices', null],
    ]);
    expect(made.every((r) => r.headers['stripe-account'] === undefined)).toBe(true);
    expect(made[0]!.body).toEqual({ lookup_keys: ['divan_basic_month'], active: 'true', limit: '1' });
    expect(made[1]!.body).toEqual({ name: 'Diván Basic', metadata: { divan_plan: 'basic' } });
    const product = fake.list(null, 'product').find((p) => p.name === 'Diván Basic')!;
    expect(made[2]!.body).toEqual({
      currency: 'eur',
      unit_amount: '1900',
      recurring: { interval: 'month' },
      product: product.id,
      lookup_key: 'divan_basic_month',
      tax_behavior: 'exclusive',
      metadata: { divan_plan: 'basic', divan_interval: 'month' },
    });
    // Keys from the lookup key and the amount: another server making them at the same time makes the same ones.
    expect(made[1]!.idempotencyKey).toContain('divan_basic_month-1900');
    expect(made[2]!.idempotencyKey).toContain('divan_basic_month-1900');
    expect(made[1]!.idempotencyKey).not.toBe(made[2]!.idempotencyKey);
    expect(fake.get(price.id)).toMatchObject({ lookup_key: 'divan_basic_month', unit_amount: 1900, product: product.id, active: true });

    // Again in this process: from memory, no request.
    const cached = fake.requests.length;
    expect(await billing.ensurePrice(basicMonth)).toEqual(price);
    expect(fake.requests.length).toBe(cached);

    // Another server (a fresh instance) finds it by its lookup key and creates nothing.
    const other = billingOn(fake.url);
    const listed = fake.requests.length;
    expect(await other.ensurePrice(basicMonth)).toEqual(price);
    expect(since(listed).map((r) => [r.method, r.path])).toEqual([['GET', '/v1/prices']]);
    expect(pricesWithKey('divan_basic_month')).toHaveLength(1);
    expect(productsOf('basic')).toHaveLength(1);
  });

  it('two servers starting at once make one Product and one Price; a changed amount takes the lookup key to a new Price', async () => {
    const advanceYear = spec('advance', 'year', 29_000);
    const start = fake.requests.length;
    const [a, b] = await Promise.all([billingOn(fake.url).ensurePrice(advanceYear), billingOn(fake.url).ensurePrice(advanceYear)]);
    expect(a).toEqual(b);
    expect(pricesWithKey('divan_advance_year').map((p) => p.id)).toEqual([a.id]);
    expect(productsOf('advance')).toHaveLength(1);
    // The second server's creations were answered from the first's (the same idempotency keys).
    expect(
      since(start)
        .filter((r) => r.method === 'POST')
        .map((r) => [r.path, r.replayed]),
    ).toEqual([
      ['/v1/products', false],
      ['/v1/products', true],
      ['/v1/prices', false],
      ['/v1/prices', true],
    ]);

    // The catalogue's amount changed: a new Price on the same Product, the lookup key moved to it.
    const before = fake.requests.length;
    const raised = await billingOn(fake.url).ensurePrice({ ...advanceYear, unitAmount: 31_000 });
    expect(raised.id).not.toBe(a.id);
    expect(since(before).map((r) => [r.method, r.path])).toEqual([
      ['GET', '/v1/prices'],
      ['POST', '/v1/prices'],
    ]);
    expect(last().body).toMatchObject({
      unit_amount: '31000',
      lookup_key: 'divan_advance_year',
      transfer_lookup_key: 'true',
      product: fake.get(a.id).product,
    });
    expect(fake.get(a.id)).toMatchObject({ lookup_key: null, active: true });
    expect(fake.get(raised.id)).toMatchObject({ lookup_key: 'divan_advance_year', unit_amount: 31_000 });
    expect(productsOf('advance')).toHaveLength(1);
    expect(await billingOn(fake.url).ensurePrice({ ...advanceYear, unitAmount: 31_000 })).toEqual(raised);
  });

  it('Checkout in subscription mode, then the subscription its completion made, read from the session and by id', async () => {
    const cus = await customer();
    const price = await billing.ensurePrice(spec('advance', 'month', 2900));
    const k = key('checkout');
    const input = {
      customerId: cus.id,
      priceId: price.id,
      quantity: 3,
      successUrl: 'https://divan.test/plans/payment-success?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://divan.test/plans',
      metadata: { workspaceId: 'w1', plan: 'advance', interval: 'month' },
      taxRateIds: [(await billing.ensureTaxRate(IVA)).id],
      idempotencyKey: k,
    };
    const session = await billing.checkoutSubscription(input);
    expect(session).toEqual({ id: expect.stringMatching(/^cs_test_/), url: expect.stringContaining(session.id) });
    expect(last()).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', account: null, idempotencyKey: k, status: 200 });
    expect(last().headers).not.toHaveProperty('stripe-account');
    expect(last().body).toEqual({
      mode: 'subscription',
      customer: cus.id,
      line_items: [{ price: price.id, quantity: '3' }],
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      metadata: input.metadata,
      // The tax follows Diván's own billing data (Ajustes › Pagos): a rate given, no address asked on Stripe's page.
      subscription_data: { metadata: input.metadata, default_tax_rates: input.taxRateIds },
      locale: 'es',
    });
    // A double click: the same key answers the same session.
    expect(await billing.checkoutSubscription(input)).toEqual(session);
    expect(last().replayed).toBe(true);

    expect(await billing.retrieveCheckout(session.id)).toEqual({
      id: session.id,
      mode: 'subscription',
      status: 'open',
      paid: false,
      amountTotal: 8700,
      customerId: cus.id,
      subscriptionId: null,
      paymentIntentId: null,
      metadata: input.metadata,
    });
    expect(last()).toMatchObject({ method: 'GET', path: `/v1/checkout/sessions/${session.id}`, account: null });

    // A declined card leaves it open; a good one completes it with a subscription.
    expect(fake.completeCheckout(session.id, '4000000000000002').status).toBe('open');
    const done = fake.completeCheckout(session.id);
    const fact = await billing.retrieveCheckout(session.id);
    expect(fact).toEqual({
      id: session.id,
      mode: 'subscription',
      status: 'complete',
      paid: true,
      amountTotal: 8700,
      customerId: cus.id,
      subscriptionId: done.subscription,
      paymentIntentId: null,
      metadata: input.metadata,
    });
    expect(fact.subscriptionId).toMatch(/^sub_/);

    const subscriptionId = fact.subscriptionId!;
    const item = (fake.get(subscriptionId).items as { data: Array<{ current_period_start: number; current_period_end: number }> }).data[0]!;
    const sub = await billing.retrieveSubscription(subscriptionId);
    expect(last()).toMatchObject({ method: 'GET', path: `/v1/subscriptions/${subscriptionId}`, account: null });
    expect(sub).toEqual({
      id: subscriptionId,
      customerId: cus.id,
      status: 'active',
      priceId: price.id,
      lookupKey: 'divan_advance_month',
      unitAmount: 2900,
      quantity: 3,
      currentPeriodEnd: item.current_period_end,
      cancelAtPeriodEnd: false,
      scheduledChange: null,
      metadata: input.metadata,
    });
    // A month on (28 to 31 days).
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(28 * 86_400);
    expect(item.current_period_end - item.current_period_start).toBeLessThanOrEqual(31 * 86_400);
  });

  it('a tax rate made once and found again by its key; the subscription takes it at Checkout and drops it on an update', async () => {
    const made = await billing.ensureTaxRate(IVA);
    // Made once (by the Checkout test before, or now), on the platform.
    const creations = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/tax_rates');
    expect(creations).toHaveLength(1);
    expect(creations[0]).toMatchObject({ account: null, status: 200, idempotencyKey: 'divan-tax-divan_iva_21-21' });
    expect(creations[0]!.body).toEqual({
      display_name: 'IVA',
      percentage: '21',
      inclusive: 'false',
      country: 'ES',
      jurisdiction: 'ES',
      tax_type: 'vat',
      metadata: { divan_tax: 'divan_iva_21' },
    });
    // Another server (no cache) finds it by its key in the list.
    expect(await billingOn(fake.url).ensureTaxRate(IVA)).toEqual(made);
    expect(last()).toMatchObject({ method: 'GET', path: '/v1/tax_rates' });
    const cus = await customer();
    const price = await billing.ensurePrice(spec('advance', 'month', 2900));
    const session = await billing.checkoutSubscription({
      customerId: cus.id,
      priceId: price.id,
      quantity: 1,
      successUrl: 'https://divan.test/ok',
      cancelUrl: 'https://divan.test/no',
      metadata: {},
      taxRateIds: [made.id],
      idempotencyKey: key('checkout'),
    });
    const subId = fake.completeCheckout(session.id).subscription as string;
    expect(fake.get(subId).default_tax_rates).toEqual([expect.objectContaining({ id: made.id, percentage: 21 })]);
    await billing.updateSubscription(subId, { proration: 'none', taxRateIds: [], idempotencyKey: key('tax') });
    expect(last().body).toMatchObject({ default_tax_rates: '' });
    expect(fake.get(subId).default_tax_rates).toEqual([]);
  });

  it('Stripe’s refusals keep their words: an unknown price, an unknown subscription', async () => {
    const cus = await customer();
    const err = await billing
      .checkoutSubscription({
        customerId: cus.id,
        priceId: 'price_nope',
        quantity: 1,
        successUrl: 'https://divan.test/ok',
        cancelUrl: 'https://divan.test/no',
        metadata: {},
        taxRateIds: [],
        idempotencyKey: key('checkout'),
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayUnavailableError);
    expect((err as Error).message).toMatch(/refused the request \(HTTP 404, resource_missing\).*price_nope/);
    await expect(billing.retrieveSubscription('sub_nope')).rejects.toThrow(/HTTP 404/);
  });

  it('a quantity change 3 → 4 with prorations: previewed at this second, applied under the caller’s key on the platform, then pending on the next invoice', async () => {
    const { customerId, priceId, subscriptionId, item } = await subscribed(spec('advance', 'month', 2900), 3);

    // The preview first: nothing changes, the prorations computed at the proration_date sent.
    const from = fake.requests.length;
    const t0 = seconds();
    const preview = await billing.previewUpdate(subscriptionId, { quantity: 4, proration: 'create_prorations' });
    const t1 = seconds();
    expect(since(from).map((r) => [r.method, r.path, r.account])).toEqual([
      ['GET', `/v1/subscriptions/${subscriptionId}`, null],
      ['POST', '/v1/invoices/create_preview', null],
    ]);
    expect(last().headers).not.toHaveProperty('stripe-account');
    expect(last().body).toEqual({
      customer: customerId,
      subscription: subscriptionId,
      subscription_details: {
        items: [{ id: item.id, quantity: '4' }],
        proration_behavior: 'create_prorations',
        proration_date: expect.stringMatching(/^\d+$/),
      },
    });
    const at = Number((last().body.subscription_details as { proration_date: string }).proration_date);
    expect(at).toBeGreaterThanOrEqual(t0);
    expect(at).toBeLessThanOrEqual(t1);
    const asked = prorated(item, at, 2900 * 3, 2900 * 4);
    expect(asked.credit).toBeLessThan(-8000); // most of a month left: nearly all of 3 × 29 €
    expect(preview).toEqual({
      subtotal: 11_600 + asked.credit + asked.charge,
      proration: asked.credit + asked.charge,
      nextPaymentAt: item.current_period_end,
      lines: [
        {
          description: expect.stringMatching(/^Unused time on 3 × Diván Premium after \d+ \w{3} \d{4}$/),
          amount: asked.credit,
          proration: true,
        },
        { description: expect.stringMatching(/^Remaining time on 4 × Diván Premium after /), amount: asked.charge, proration: true },
        { description: '4 × Diván Premium (at €29.00 / month)', amount: 11_600, proration: false, plan: true },
      ],
    });
    // round(29 € × 4 × f) − round(29 € × 3 × f): about one user's month.
    const f = (item.current_period_end - at) / (item.current_period_end - item.current_period_start);
    expect(preview.proration).toBe(Math.round(2900 * 4 * f) - Math.round(2900 * 3 * f));
    expect(preview.proration).toBeGreaterThan(2800);
    expect(pendingOf(subscriptionId)).toEqual([]);
    expect(itemOf(subscriptionId).quantity).toBe(3);

    // Applied: the item by its id, the caller's key, on the platform.
    const k = key('quantity');
    const applying = fake.requests.length;
    const fact = await billing.updateSubscription(subscriptionId, { quantity: 4, proration: 'create_prorations', idempotencyKey: k });
    const t2 = seconds();
    expect(since(applying).map((r) => [r.method, r.path, r.account])).toEqual([
      ['GET', `/v1/subscriptions/${subscriptionId}`, null],
      ['POST', `/v1/subscriptions/${subscriptionId}`, null],
    ]);
    expect(last()).toMatchObject({ idempotencyKey: k, status: 200, replayed: false });
    expect(last().headers).not.toHaveProperty('stripe-account');
    expect(last().body).toEqual({ items: [{ id: item.id, quantity: '4' }], proration_behavior: 'create_prorations' });
    expect(fact).toMatchObject({
      id: subscriptionId,
      priceId,
      quantity: 4,
      unitAmount: 2900,
      currentPeriodEnd: item.current_period_end,
      cancelAtPeriodEnd: false,
    });

    // The same key again: Stripe's answer replayed, nothing prorated twice.
    expect(await billing.updateSubscription(subscriptionId, { quantity: 4, proration: 'create_prorations', idempotencyKey: k })).toEqual(
      fact,
    );
    expect(last()).toMatchObject({ idempotencyKey: k, replayed: true });

    // Its prorations wait for the next invoice, computed at the second of the update.
    const pending = pendingOf(subscriptionId);
    expect(pending).toHaveLength(2);
    const done = pending[0]!.date as number;
    expect(done).toBeGreaterThanOrEqual(at);
    expect(done).toBeLessThanOrEqual(t2);
    const applied = prorated(item, done, 2900 * 3, 2900 * 4);
    expect(pending.map((ii) => [ii.amount, ii.quantity, ii.proration])).toEqual([
      [applied.credit, 3, true],
      [applied.charge, 4, true],
    ]);

    // The next invoice without a change: those two lines pending, then the period at 4 users.
    const after = await billing.previewUpdate(subscriptionId, { proration: 'create_prorations' });
    expect(last().body).toEqual({
      customer: customerId,
      subscription: subscriptionId,
      subscription_details: { proration_behavior: 'create_prorations', proration_date: expect.stringMatching(/^\d+$/) },
    });
    expect(after).toEqual({
      subtotal: 11_600 + applied.credit + applied.charge,
      proration: applied.credit + applied.charge,
      nextPaymentAt: item.current_period_end,
      lines: [
        { description: pending[0]!.description, amount: applied.credit, proration: true },
        { description: pending[1]!.description, amount: applied.charge, proration: true },
        { description: '4 × Diván Premium (at €29.00 / month)', amount: 11_600, proration: false, plan: true },
      ],
    });
    // What was previewed, within a cent per second between the preview and the update.
    expect(Math.abs(after.proration - preview.proration)).toBeLessThanOrEqual(1 + (done - at));
  });

  it('renewal off and back on: cancelAtPeriodEnd round-trips; a subscription ending with its period has no next invoice', async () => {
    const { subscriptionId, item } = await subscribed(spec('advance', 'month', 2900), 2);
    const off = key('cancel');
    const cancelled = await billing.updateSubscription(subscriptionId, { cancelAtPeriodEnd: true, proration: 'none', idempotencyKey: off });
    expect(last()).toMatchObject({ method: 'POST', path: `/v1/subscriptions/${subscriptionId}`, account: null, idempotencyKey: off });
    expect(last().body).toEqual({ proration_behavior: 'none', cancel_at_period_end: 'true' });
    expect(cancelled).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, quantity: 2, currentPeriodEnd: item.current_period_end });
    expect(fake.get(subscriptionId)).toMatchObject({ cancel_at_period_end: true, cancel_at: item.current_period_end });
    expect((await billing.retrieveSubscription(subscriptionId)).cancelAtPeriodEnd).toBe(true);

    // Stripe has no upcoming invoice for it: its words kept.
    await expect(billing.previewUpdate(subscriptionId, { proration: 'none' })).rejects.toThrow(/HTTP 404, invoice_upcoming_none/);

    const on = key('reactivate');
    const renewed = await billing.updateSubscription(subscriptionId, { cancelAtPeriodEnd: false, proration: 'none', idempotencyKey: on });
    expect(last().body).toEqual({ proration_behavior: 'none', cancel_at_period_end: 'false' });
    expect(renewed).toEqual({ ...cancelled, cancelAtPeriodEnd: false });
    expect(fake.get(subscriptionId)).toMatchObject({ cancel_at_period_end: false, cancel_at: null, canceled_at: null });
    expect((await billing.retrieveSubscription(subscriptionId)).cancelAtPeriodEnd).toBe(false);
    expect(pendingOf(subscriptionId)).toEqual([]);
    expect((await billing.previewUpdate(subscriptionId, { proration: 'none' })).subtotal).toBe(5800);
  });

  it('a referral’s month off: a credit line pending for the next invoice under the caller’s key; whether a customer ever subscribed', async () => {
    const { customerId, subscriptionId } = await subscribed(spec('advance', 'month', 2900), 2);
    const credit = key('referral-credit');
    const input = {
      customerId,
      subscriptionId,
      amount: -5800,
      description: 'Un mes gratis por invitar a Laia',
      metadata: { divan_referral: 'r1' },
      idempotencyKey: credit,
    };
    const item = await billing.addInvoiceItem(input);
    expect(last()).toMatchObject({ method: 'POST', path: '/v1/invoiceitems', account: null, idempotencyKey: credit });
    expect(last().body).toEqual({
      customer: customerId,
      subscription: subscriptionId,
      amount: '-5800',
      currency: 'eur',
      description: 'Un mes gratis por invitar a Laia',
      metadata: { divan_referral: 'r1' },
    });
    // The same key answers the same line: a retried placement makes one.
    expect(await billing.addInvoiceItem(input)).toEqual(item);
    expect(pendingOf(subscriptionId).map((i) => [i.id, i.amount])).toEqual([[item.id, -5800]]);
    // On the next invoice, not a proration: the period's 58 € less the month off.
    const next = await billing.previewUpdate(subscriptionId, { proration: 'none' });
    expect([next.subtotal, next.proration]).toEqual([0, 0]);
    expect(next.lines).toContainEqual({ description: 'Un mes gratis por invitar a Laia', amount: -5800, proration: false });

    expect(await billing.hasHadSubscription(customerId)).toBe(true);
    expect(last()).toMatchObject({ method: 'GET', path: '/v1/subscriptions', account: null });
    expect(last().body).toMatchObject({ customer: customerId, status: 'all', limit: '1' });
    expect(await billing.hasHadSubscription((await customer('Consulta nueva')).id)).toBe(false);
  });

  it('the card that paid an invoice, by its fingerprint, through its payments and their PaymentIntent; the cards saved on a customer', async () => {
    const a = await subscribed(spec('basic', 'month', 1900), 1);
    const b = await subscribed(spec('basic', 'month', 1900), 1);
    const c = await subscribed(spec('basic', 'month', 1900), 1, '5555555555554444');
    const invoiceOf = (subscriptionId: string) => fake.get(subscriptionId).latest_invoice as string;

    const n = fake.requests.length;
    const paidA = await billing.invoiceCardFingerprints(invoiceOf(a.subscriptionId));
    expect(paidA).toEqual([expect.any(String)]);
    const [payments, intent] = since(n);
    expect(payments).toMatchObject({ method: 'GET', path: '/v1/invoice_payments', account: null, status: 200 });
    expect(payments!.body).toEqual({ invoice: invoiceOf(a.subscriptionId), status: 'paid', limit: '100' });
    const pi = (
      fake.list(null, 'invoice_payment').find((p) => p.invoice === invoiceOf(a.subscriptionId))!.payment as { payment_intent: string }
    ).payment_intent;
    expect(intent).toMatchObject({ method: 'GET', path: `/v1/payment_intents/${pi}`, account: null, status: 200 });
    expect(intent!.body).toEqual({ expand: ['payment_method'] });
    // The same card number on another customer, the same fingerprint; another card, another.
    expect(await billing.invoiceCardFingerprints(invoiceOf(b.subscriptionId))).toEqual(paidA);
    const paidC = await billing.invoiceCardFingerprints(invoiceOf(c.subscriptionId));
    expect(paidC).toHaveLength(1);
    expect(paidC).not.toEqual(paidA);
    // And the invoice reads as the charge it was.
    expect(await billing.retrieveInvoice(invoiceOf(a.subscriptionId))).toMatchObject({ status: 'paid', amountPaid: 1900, subtotal: 1900 });

    // The customer's cards: one saved twice is one fingerprint.
    expect(await billing.cardFingerprints(a.customerId)).toEqual(paidA);
    expect(last()).toMatchObject({ method: 'GET', path: `/v1/customers/${a.customerId}/payment_methods`, account: null });
    expect(last().body).toEqual({ type: 'card', limit: '100' });
    fake.saveCard('platform', a.customerId, '5555555555554444');
    fake.saveCard('platform', a.customerId, '4242424242424242');
    expect((await billing.cardFingerprints(a.customerId)).sort()).toEqual([...paidA, ...paidC].sort());
    expect(await billing.cardFingerprints((await customer('Consulta sin tarjeta')).id)).toEqual([]);

    // An invoice nothing paid names no card; an unknown one is Stripe's error.
    const preview = await billing.previewUpdate(a.subscriptionId, { proration: 'none' });
    expect(preview.subtotal).toBe(1900);
    const upcoming = fake.list(null, 'invoice').find((i) => i.status === 'draft')!.id;
    expect(await billing.invoiceCardFingerprints(upcoming)).toEqual([]);
    await expect(billing.invoiceCardFingerprints('in_nope')).rejects.toBeInstanceOf(GatewayUnavailableError);
  });

  it('a gift’s Checkout in payment mode on the platform: one line before tax with its tax rate, the total charged with IVA, paid once completed', async () => {
    const cus = await customer();
    const rate = await billing.ensureTaxRate(IVA);
    const k = key('gift');
    const session = await billing.checkoutPayment({
      customerId: cus.id,
      description: 'Regalo: 3 meses de Diván Premium',
      amount: 8700,
      taxRateIds: [rate.id],
      successUrl: 'https://divan.test/gift/purchased?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://divan.test/gift?canceled=1',
      metadata: { divan_gift: 'g1' },
      idempotencyKey: k,
    });
    expect(last()).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', account: null, idempotencyKey: k });
    expect(last().body).toMatchObject({
      mode: 'payment',
      customer: cus.id,
      line_items: [
        {
          price_data: {
            currency: 'eur',
            unit_amount: '8700',
            tax_behavior: 'exclusive',
            product_data: { name: 'Regalo: 3 meses de Diván Premium' },
          },
          quantity: '1',
          tax_rates: [rate.id],
        },
      ],
      payment_intent_data: { metadata: { divan_gift: 'g1' } },
      locale: 'es',
    });
    expect(await billing.retrieveCheckout(session.id)).toMatchObject({ mode: 'payment', status: 'open', paid: false, amountTotal: 10527 });
    fake.completeCheckout(session.id);
    const paid = await billing.retrieveCheckout(session.id);
    expect(paid).toMatchObject({ status: 'complete', paid: true, amountTotal: 10527, paymentIntentId: expect.stringMatching(/^pi_/) });
    // What a refund of it names: the PaymentIntent the page confirmed.
    expect(fake.get(paid.paymentIntentId!)).toMatchObject({ object: 'payment_intent', status: 'succeeded', amount: 10527 });
  });

  it('yearly → monthly at the renewal: a schedule from the subscription, two phases, a seat change through it, released on request', async () => {
    const { subscriptionId, item, priceId } = await subscribed(spec('advance', 'year', 31_000), 2);
    const monthly = await billing.ensurePrice(spec('advance', 'month', 2900));
    const k = key('schedule');
    const n = fake.requests.length;
    const fact = await billing.scheduleRenewalChange(subscriptionId, { priceId: monthly.id, idempotencyKey: k });
    const [create, update] = since(n).filter((r) => r.method === 'POST');
    expect(create).toMatchObject({ path: '/v1/subscription_schedules', account: null, idempotencyKey: `${k}:from` });
    expect(create!.body).toEqual({ from_subscription: subscriptionId });
    expect(update).toMatchObject({ path: expect.stringMatching(/^\/v1\/subscription_schedules\/sub_sched_/), idempotencyKey: k });
    expect(update!.body).toEqual({
      end_behavior: 'release',
      proration_behavior: 'none',
      phases: [
        {
          start_date: String(item.current_period_start),
          end_date: String(item.current_period_end),
          items: [{ price: priceId, quantity: '2' }],
          default_tax_rates: '',
        },
        {
          items: [{ price: monthly.id, quantity: '2' }],
          duration: { interval: 'month', interval_count: '1' },
          proration_behavior: 'none',
          default_tax_rates: '',
        },
      ],
    });
    // The year kept as it is; the change read back from the schedule (its next phase's Price expanded).
    expect(fact).toMatchObject({ priceId, lookupKey: 'divan_advance_year', quantity: 2, currentPeriodEnd: item.current_period_end });
    expect(fact.scheduledChange).toEqual({
      scheduleId: expect.stringMatching(/^sub_sched_/),
      priceId: monthly.id,
      lookupKey: 'divan_advance_month',
      at: item.current_period_end,
    });
    expect(await billing.retrieveSubscription(subscriptionId)).toEqual(fact);
    expect(pendingOf(subscriptionId)).toEqual([]);

    // Stripe refuses the renewal off while a schedule manages it: the app releases first, and so does this client.
    await expect(
      billing.updateSubscription(subscriptionId, { cancelAtPeriodEnd: true, proration: 'none', idempotencyKey: key('cancel') }),
    ).rejects.toThrow(/release its schedule first/);
    // A third user: through the schedule, both phases, prorated now.
    const seat = await billing.updateSubscription(subscriptionId, {
      quantity: 3,
      proration: 'create_prorations',
      idempotencyKey: key('seat'),
    });
    expect(last()).toMatchObject({ method: 'GET', path: `/v1/subscription_schedules/${fact.scheduledChange!.scheduleId}` });
    expect(seat).toMatchObject({ quantity: 3, priceId, scheduledChange: { priceId: monthly.id } });
    const phases = fake.get(fact.scheduledChange!.scheduleId).phases as { items: { price: string; quantity: number }[] }[];
    expect(phases.map((p) => p.items[0])).toEqual([
      { price: priceId, quantity: 3 },
      { price: monthly.id, quantity: 3 },
    ]);
    expect(pendingOf(subscriptionId).map((i) => Math.sign(i.amount as number))).toEqual([-1, 1]);
    // Scheduled twice: the schedule it has is rewritten, no second one.
    await billing.scheduleRenewalChange(subscriptionId, { priceId: monthly.id, idempotencyKey: key('schedule-again') });
    expect(fake.list(null, 'subscription_schedule').filter((s) => s.subscription === subscriptionId)).toHaveLength(1);

    const r = key('release');
    const released = await billing.releaseSchedule(subscriptionId, { idempotencyKey: r });
    expect(since(n).find((q) => q.path.endsWith('/release'))).toMatchObject({ account: null, idempotencyKey: r });
    expect(released).toMatchObject({ priceId, quantity: 3, scheduledChange: null });
    expect(fake.get(subscriptionId).schedule).toBeNull();
    expect(fake.get(fact.scheduledChange!.scheduleId)).toMatchObject({ status: 'released', released_subscription: subscriptionId });
    // Nothing to release: the subscription as it is, no call to the schedules.
    const calls = fake.requests.length;
    expect(await billing.releaseSchedule(subscriptionId, { idempotencyKey: key('release-again') })).toEqual(released);
    expect(since(calls).map((q) => q.path)).toEqual([`/v1/subscriptions/${subscriptionId}`]);
  });

  it('a price change without proration: the quantity kept, nothing prorated, the next period at the new price', async () => {
    const { subscriptionId, item } = await subscribed(spec('basic', 'month', 1900), 2);
    const premium = await billing.ensurePrice(spec('advance', 'month', 2900));

    const preview = await billing.previewUpdate(subscriptionId, { priceId: premium.id, proration: 'none' });
    // The price alone would set the quantity to 1 on Stripe: the item's quantity goes with it.
    expect(last().body.subscription_details).toEqual({
      items: [{ id: item.id, price: premium.id, quantity: '2' }],
      proration_behavior: 'none',
      proration_date: expect.stringMatching(/^\d+$/),
    });
    const nextPeriod = { description: '2 × Diván Premium (at €29.00 / month)', amount: 5800, proration: false, plan: true };
    expect(preview).toEqual({ subtotal: 5800, proration: 0, nextPaymentAt: item.current_period_end, lines: [nextPeriod] });

    const k = key('price');
    const fact = await billing.updateSubscription(subscriptionId, { priceId: premium.id, proration: 'none', idempotencyKey: k });
    expect(last()).toMatchObject({ method: 'POST', path: `/v1/subscriptions/${subscriptionId}`, account: null, idempotencyKey: k });
    expect(last().body).toEqual({ items: [{ id: item.id, price: premium.id, quantity: '2' }], proration_behavior: 'none' });
    expect(fact).toMatchObject({
      priceId: premium.id,
      lookupKey: 'divan_advance_month',
      unitAmount: 2900,
      quantity: 2,
      currentPeriodEnd: item.current_period_end,
    });
    expect(pendingOf(subscriptionId)).toEqual([]);
    expect(await billing.previewUpdate(subscriptionId, { proration: 'create_prorations' })).toEqual(preview);
  });

  it('the fake keeps Stripe’s rules: a new price alone sets the quantity to 1; a long run of changes is read past the first 10 lines', async () => {
    const { subscriptionId, item } = await subscribed(spec('basic', 'month', 1900), 3);
    const premium = await billing.ensurePrice(spec('advance', 'month', 2900));
    const stripe = new (await loadStripe())(KEY, { host: '127.0.0.1', port: fake.port, protocol: 'http', maxNetworkRetries: 0 });
    const raw = await stripe.subscriptions.update(subscriptionId, {
      items: [{ id: item.id, price: premium.id }],
      proration_behavior: 'none',
    });
    expect(raw.items.data[0]).toMatchObject({ price: { id: premium.id }, quantity: 1 });

    // Five changes: ten pending lines, and the period's: Stripe embeds ten, the rest are listed.
    for (const quantity of [2, 3, 4, 5, 6])
      await billing.updateSubscription(subscriptionId, { quantity, proration: 'create_prorations', idempotencyKey: key('quantity') });
    const pending = pendingOf(subscriptionId);
    expect(pending).toHaveLength(10);
    const from = fake.requests.length;
    const preview = await billing.previewUpdate(subscriptionId, { proration: 'create_prorations' });
    expect(since(from).map((r) => [r.method, r.path.replace(/upcoming_in_\w+/, 'upcoming_in_x')])).toEqual([
      ['GET', `/v1/subscriptions/${subscriptionId}`],
      ['POST', '/v1/invoices/create_preview'],
      ['GET', '/v1/invoices/upcoming_in_x/lines'],
    ]);
    expect(preview.lines).toHaveLength(11);
    const prorationSum = pending.reduce((sum, ii) => sum + (ii.amount as number), 0);
    expect(preview.proration).toBe(prorationSum);
    expect(preview.subtotal).toBe(6 * 2900 + prorationSum);
    expect(preview.lines.at(-1)).toEqual({
      description: '6 × Diván Premium (at €29.00 / month)',
      amount: 17_400,
      proration: false,
      plan: true,
    });
  });

  it('changes Stripe refuses keep its words: an unknown subscription, an unknown price, another billing interval', async () => {
    await expect(billing.updateSubscription('sub_nope', { quantity: 2, proration: 'none', idempotencyKey: key('x') })).rejects.toThrow(
      /HTTP 404, resource_missing.*sub_nope/,
    );
    await expect(billing.previewUpdate('sub_nope', { quantity: 2, proration: 'none' })).rejects.toThrow(GatewayUnavailableError);
    const { subscriptionId } = await subscribed(spec('basic', 'month', 1900), 1);
    await expect(
      billing.updateSubscription(subscriptionId, { priceId: 'price_nope', proration: 'none', idempotencyKey: key('x') }),
    ).rejects.toThrow(/HTTP 404, resource_missing.*price_nope/);
    await expect(billing.previewUpdate(subscriptionId, { priceId: 'price_nope', proration: 'none' })).rejects.toThrow(/price_nope/);
    const yearly = await billing.ensurePrice(spec('basic', 'year', 19_000));
    await expect(
      billing.updateSubscription(subscriptionId, { priceId: yearly.id, proration: 'create_prorations', idempotencyKey: key('x') }),
    ).rejects.toThrow(/HTTP 400.*billing interval/);
    expect(itemOf(subscriptionId).quantity).toBe(1);
  });

  it('a saved card charged off session: the customer’s default, else its newest; 3-D Secure asked, a decline, no card; a refund once per key', async () => {
    const { customerId } = await subscribed(spec('basic', 'month', 1900), 1);
    const checkoutCard = fake.list(null, 'payment_method').find((pm) => pm.customer === customerId)!.id;
    const k = key('charge');
    const input = { customerId, amount: 2299, description: 'Diván: asiento adicional', metadata: { divan_seat: 's1' }, idempotencyKey: k };
    const n = fake.requests.length;
    const paid = await billing.chargeSaved(input);
    expect(paid).toEqual({ status: 'succeeded', paymentIntentId: expect.stringMatching(/^pi_/), amount: 2299 });
    const [read, cards, create] = since(n);
    expect(read).toMatchObject({ method: 'GET', path: `/v1/customers/${customerId}`, account: null, status: 200 });
    expect(cards).toMatchObject({ method: 'GET', path: `/v1/customers/${customerId}/payment_methods`, account: null });
    expect(cards!.body).toEqual({ type: 'card', limit: '1' });
    expect(create).toMatchObject({ method: 'POST', path: '/v1/payment_intents', account: null, idempotencyKey: k, status: 200 });
    expect(create!.body).toEqual({
      amount: '2299',
      currency: 'eur',
      customer: customerId,
      payment_method: checkoutCard,
      off_session: 'true',
      confirm: 'true',
      description: 'Diván: asiento adicional',
      metadata: { divan_seat: 's1' },
    });
    const id = (paid as { paymentIntentId: string }).paymentIntentId;
    expect(fake.get(id)).toMatchObject({ status: 'succeeded', amount: 2299, customer: customerId });
    expect(await billing.chargeSaved(input)).toEqual(paid);
    expect(last()).toMatchObject({ path: '/v1/payment_intents', idempotencyKey: k, replayed: true });

    // Refunded in full under the caller's key; the same key, the same refund; nothing left for another.
    const rk = key('refund');
    const refund = await billing.refundCharge({ paymentIntentId: id, idempotencyKey: rk });
    expect(refund).toEqual({ refundId: expect.stringMatching(/^re_/), amount: 2299 });
    expect(last()).toMatchObject({ method: 'POST', path: '/v1/refunds', account: null, idempotencyKey: rk, status: 200 });
    expect(last().body).toEqual({ payment_intent: id });
    expect(await billing.refundCharge({ paymentIntentId: id, idempotencyKey: rk })).toEqual(refund);
    expect(last()).toMatchObject({ replayed: true });
    await expect(billing.refundCharge({ paymentIntentId: id, idempotencyKey: key('refund') })).rejects.toThrow(/charge_already_refunded/);

    // The newest card when the customer names no default: the bank asks for 3-D Secure (a card error, 402).
    fake.saveCard('platform', customerId, '4000002760003184');
    const asked = await billing.chargeSaved({ ...input, idempotencyKey: key('charge') });
    expect(asked).toEqual({ status: 'requires_authentication', paymentIntentId: expect.stringMatching(/^pi_/) });
    expect(last()).toMatchObject({ path: '/v1/payment_intents', status: 402 });
    expect(fake.get((asked as { paymentIntentId: string }).paymentIntentId)).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'authentication_required' },
    });
    fake.saveCard('platform', customerId, '4000000000009995');
    const declined = await billing.chargeSaved({ ...input, idempotencyKey: key('charge') });
    expect(declined).toEqual({ status: 'declined', paymentIntentId: expect.stringMatching(/^pi_/), declineCode: 'insufficient_funds' });
    await expect(
      billing.refundCharge({ paymentIntentId: (declined as { paymentIntentId: string }).paymentIntentId, idempotencyKey: key('refund') }),
    ).rejects.toThrow(/does not have a successful charge/);

    // The customer's `invoice_settings.default_payment_method` comes first.
    fake.ledger.get('platform', 'customer', customerId).invoice_settings = { default_payment_method: checkoutCard };
    expect(await billing.chargeSaved({ ...input, idempotencyKey: key('charge') })).toMatchObject({ status: 'succeeded' });
    expect(last().body).toMatchObject({ payment_method: checkoutCard });

    // No card saved: nothing is charged (no PaymentIntent asked for).
    const bare = (await customer('Consulta sin tarjeta')).id;
    const m = fake.requests.length;
    expect(await billing.chargeSaved({ ...input, customerId: bare, idempotencyKey: key('charge') })).toEqual({
      status: 'no_payment_method',
    });
    expect(since(m).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/customers/${bare}`,
      `GET /v1/customers/${bare}/payment_methods`,
    ]);
  });

  it('webhooks: an event signed with the platform endpoint’s secret is read; the Connect secret, a tampered body or none are refused', async () => {
    const sdk = await loadStripe();
    const object = { id: 'sub_123', object: 'subscription', status: 'active', metadata: { workspaceId: 'w1' } };
    const payload = JSON.stringify({
      id: 'evt_billing_1',
      object: 'event',
      api_version: sdk.API_VERSION,
      created: 1_760_000_000,
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'customer.subscription.updated',
    });
    const header = sdk.webhooks.generateTestHeaderString({ payload, secret: BILLING_SECRET });
    const event = { id: 'evt_billing_1', type: 'customer.subscription.updated', account: null, created: 1_760_000_000, object };
    expect(await billing.verifyWebhook(Buffer.from(payload), header)).toEqual(event);
    expect(await billing.verifyWebhook(payload, header)).toEqual(event);

    const connect = sdk.webhooks.generateTestHeaderString({ payload, secret: fake.webhookSecret });
    await expect(billing.verifyWebhook(payload, connect)).rejects.toThrow(/Invalid Stripe webhook/);
    await expect(billing.verifyWebhook(payload.replace('"active"', '"canceled"'), header)).rejects.toThrow(/Invalid Stripe webhook/);
    await expect(billing.verifyWebhook(payload, undefined)).rejects.toThrow(/Invalid Stripe webhook/);
  });

  it('Stripe unavailable: a 500, a refused key and a closed port are GatewayUnavailableError; a failed price is looked for again', async () => {
    fake.failNext(500);
    const err = await customer().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayUnavailableError);
    expect((err as Error).message).toMatch(/HTTP 500/);

    const live = billingOn(fake.url, 'sk_live_not_for_the_fake');
    expect(live.mode).toBe('live');
    await expect(live.retrieveSubscription('sub_x')).rejects.toThrow(/refused the key \(HTTP 401\)/);

    const port = await new Promise<number>((ok) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => ok(p));
      });
    });
    const closed = billingOn(`http://127.0.0.1:${port}`);
    await expect(closed.retrieveCheckout('cs_test_x')).rejects.toThrow(GatewayUnavailableError);
    await expect(closed.ensurePrice(spec('basic', 'year', 19_000))).rejects.toThrow(/Stripe unreachable/);

    // The outage is not remembered: the next call looks again and makes the price.
    const fresh = billingOn(fake.url);
    fake.failNext(503);
    await expect(fresh.ensurePrice(spec('basic', 'year', 19_000))).rejects.toThrow(/HTTP 503/);
    expect(await fresh.ensurePrice(spec('basic', 'year', 19_000))).toEqual({ id: expect.stringMatching(/^price_/) });
    expect(pricesWithKey('divan_basic_year')).toHaveLength(1);
  });
});

describe('StripeBilling mapping and configuration', () => {
  it('reads expanded objects as their ids, an unknown status as not in force, the item’s period', () => {
    const session = {
      id: 'cs_test_1',
      mode: 'subscription',
      status: null,
      customer: { id: 'cus_1', object: 'customer' },
      subscription: { id: 'sub_1', object: 'subscription' },
      metadata: null,
    } as unknown as Stripe.Checkout.Session;
    expect(toCheckoutFact(session)).toEqual({
      id: 'cs_test_1',
      mode: 'subscription',
      status: 'open',
      paid: false,
      amountTotal: null,
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
      paymentIntentId: null,
      metadata: {},
    });
    expect(
      toCheckoutFact({
        ...session,
        mode: 'payment',
        payment_intent: { id: 'pi_9', object: 'payment_intent' },
      } as unknown as Stripe.Checkout.Session).paymentIntentId,
    ).toBe('pi_9');
    expect(() => toCheckoutFact({ ...session, mode: 'later' } as unknown as Stripe.Checkout.Session)).toThrow(GatewayUnavailableError);

    const subscription = {
      id: 'sub_1',
      object: 'subscription',
      customer: { id: 'cus_1', object: 'customer' },
      status: 'paused_forever',
      cancel_at_period_end: true,
      metadata: { workspaceId: 'w1' },
      items: {
        data: [
          { id: 'si_1', price: { id: 'price_1', lookup_key: null, unit_amount: 1900 }, quantity: 2, current_period_end: 1_800_000_000 },
        ],
      },
    } as unknown as Stripe.Subscription;
    expect(toSubscriptionFact(subscription)).toEqual({
      id: 'sub_1',
      customerId: 'cus_1',
      status: 'incomplete',
      priceId: 'price_1',
      lookupKey: null,
      unitAmount: 1900,
      quantity: 2,
      currentPeriodEnd: 1_800_000_000,
      cancelAtPeriodEnd: true,
      scheduledChange: null,
      metadata: { workspaceId: 'w1' },
    });
    expect(toSubscriptionFact({ ...subscription, status: 'past_due' } as Stripe.Subscription).status).toBe('past_due');
    expect(() => toSubscriptionFact({ ...subscription, items: { data: [] } } as unknown as Stripe.Subscription)).toThrow(/no items/);
  });

  it('reads a preview: proration by the line’s parent (or an older top-level flag), the lines together, billed at the period’s end', () => {
    const line = (amount: number, parent: unknown, extra: object = {}) =>
      ({
        id: `il_${amount}`,
        object: 'line_item',
        amount,
        description: `line ${amount}`,
        parent,
        ...extra,
      }) as unknown as Stripe.InvoiceLineItem;
    const lines = [
      line(-900, { type: 'subscription_item_details', subscription_item_details: { proration: true }, invoice_item_details: null }),
      line(1200, { type: 'invoice_item_details', invoice_item_details: { proration: true }, subscription_item_details: null }),
      line(300, null, { proration: true }),
      line(5800, { type: 'subscription_item_details', subscription_item_details: { proration: false }, invoice_item_details: null }),
      line(100, null),
    ];
    const invoice = {
      id: 'upcoming_in_1',
      subtotal: 6500,
      period_end: 1_800_000_000,
      next_payment_attempt: 1_800_003_600,
    } as Stripe.Invoice;
    expect(toBillingPreview(invoice, lines, 1_799_000_000)).toEqual({
      subtotal: 6500,
      proration: 600,
      nextPaymentAt: 1_800_000_000,
      lines: [
        { description: 'line -900', amount: -900, proration: true },
        { description: 'line 1200', amount: 1200, proration: true },
        { description: 'line 300', amount: 300, proration: true },
        { description: 'line 5800', amount: 5800, proration: false, plan: true },
        { description: 'line 100', amount: 100, proration: false },
      ],
    });
    const noPeriod = { ...invoice, period_end: 0 } as Stripe.Invoice;
    expect(toBillingPreview(noPeriod, [], 1_799_000_000).nextPaymentAt).toBe(1_799_000_000);
    expect(toBillingPreview(noPeriod, [], null).nextPaymentAt).toBe(1_800_003_600);
    expect(() => toBillingPreview({ ...noPeriod, next_payment_attempt: null } as Stripe.Invoice, [], null)).toThrow(/no billing date/);
  });

  it('reads an invoice: its taxes from `total_taxes` and each line’s `taxes`, the subscription from `parent`', () => {
    const tax = (amount: number) => ({
      amount,
      tax_behavior: 'exclusive',
      tax_rate_details: { tax_rate: 'txr_1' },
      taxability_reason: 'standard_rated',
      taxable_amount: 2900,
      type: 'tax_rate_details',
    });
    const invoice = {
      id: 'in_1',
      customer: { id: 'cus_1' },
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1' } },
      status: 'paid',
      subtotal: 5800,
      total: 7018,
      amount_paid: 7018,
      total_taxes: [tax(1218)],
      status_transitions: { paid_at: 1_800_000_000 },
      created: 1_799_999_990,
      lines: { data: [], has_more: false },
    } as unknown as Stripe.Invoice;
    const lines = [
      { description: '2 × Premium', amount: 5800, quantity: 2, taxes: [tax(1218)], period: { start: 1, end: 2 } },
    ] as unknown as Stripe.InvoiceLineItem[];
    expect(toInvoiceFact(invoice, lines)).toEqual({
      id: 'in_1',
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
      status: 'paid',
      subtotal: 5800,
      tax: 1218,
      total: 7018,
      amountPaid: 7018,
      paidAt: 1_800_000_000,
      created: 1_799_999_990,
      lines: [{ description: '2 × Premium', amount: 5800, tax: 1218, quantity: 2, period: { start: 1, end: 2 } }],
    });
  });

  it('the item of a change: by its id, a price carrying the item’s quantity, none when nothing changes', () => {
    const sub = { id: 'sub_1', items: { data: [{ id: 'si_1', quantity: 3 }] } } as unknown as Stripe.Subscription;
    expect(itemChange(sub, {})).toBeUndefined();
    expect(itemChange(sub, { quantity: 4 })).toEqual([{ id: 'si_1', quantity: 4 }]);
    expect(itemChange(sub, { priceId: 'price_2' })).toEqual([{ id: 'si_1', price: 'price_2', quantity: 3 }]);
    expect(itemChange(sub, { priceId: 'price_2', quantity: 1 })).toEqual([{ id: 'si_1', price: 'price_2', quantity: 1 }]);
    expect(() => itemChange({ ...sub, items: { data: [] } } as unknown as Stripe.Subscription, { quantity: 1 })).toThrow(/no items/);
  });

  it('reads an off-session charge: succeeded; requires_action or authentication_required as 3-D Secure asked; a decline’s reason; no odd status guessed', async () => {
    const pi = (status: string, error: Record<string, string> | null = null) =>
      ({ id: 'pi_1', status, amount: 1500, last_payment_error: error }) as unknown as Stripe.PaymentIntent;
    expect(toSavedChargeResult(pi('succeeded'))).toEqual({ status: 'succeeded', paymentIntentId: 'pi_1', amount: 1500 });
    expect(toSavedChargeResult(pi('requires_action'))).toEqual({ status: 'requires_authentication', paymentIntentId: 'pi_1' });
    expect(toSavedChargeResult(pi('requires_payment_method', { code: 'authentication_required' }))).toEqual({
      status: 'requires_authentication',
      paymentIntentId: 'pi_1',
    });
    expect(toSavedChargeResult(pi('requires_payment_method', { code: 'card_declined', decline_code: 'generic_decline' }))).toEqual({
      status: 'declined',
      paymentIntentId: 'pi_1',
      declineCode: 'generic_decline',
    });
    expect(() => toSavedChargeResult(pi('processing'))).toThrow(GatewayUnavailableError);

    const sdk = await loadStripe();
    const cardError = (raw: Record<string, unknown>) => new sdk.errors.StripeCardError({ type: 'card_error', message: 'x', ...raw });
    expect(savedChargeRefusal(cardError({ code: 'authentication_required', payment_intent: { id: 'pi_2' } }))).toEqual({
      status: 'requires_authentication',
      paymentIntentId: 'pi_2',
    });
    expect(
      savedChargeRefusal(cardError({ code: 'card_declined', decline_code: 'insufficient_funds', payment_intent: { id: 'pi_3' } })),
    ).toEqual({
      status: 'declined',
      paymentIntentId: 'pi_3',
      declineCode: 'insufficient_funds',
    });
    // A refusal naming no PaymentIntent nor decline code: its code is the reason.
    expect(savedChargeRefusal(cardError({ code: 'expired_card' }))).toEqual({
      status: 'declined',
      paymentIntentId: null,
      declineCode: 'expired_card',
    });
  });

  it('mode from the key; a bad STRIPE_API_BASE fails when made, before any call', () => {
    expect(billingOn('http://127.0.0.1:1').mode).toBe('test');
    expect(billingOn('http://127.0.0.1:1', 'sk_live_x')).toMatchObject({ provider: 'stripe', mode: 'live' });
    expect(() => billingOn('ftp://example.com')).toThrow(/STRIPE_API_BASE must be http/);
  });
});
