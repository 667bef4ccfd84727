// Decision 0017: the Stripe gateway through the official SDK, spoken to a local fake of Stripe's API
// (test/fake-stripe): paths, Stripe-Account and Idempotency-Key headers, form bodies, card errors,
// outages and webhook signatures.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../../test/fake-stripe';
import { GatewayCardError, GatewayUnavailableError } from './gateway';
import { apiBaseOptions, StripeGateway, stripeMode } from './stripe-gateway';

const KEY = 'sk_test_divan_gateway';
let fake: FakeStripe;
let gateway: StripeGateway;
let keySeq = 0;

const gatewayOn = (apiBase: string, secretKey = KEY, maxNetworkRetries = 0) =>
  new StripeGateway({ secretKey, webhookSecret: fake.webhookSecret, apiBase }, { maxNetworkRetries, timeoutMs: 5_000 });
const last = () => fake.requests.at(-1)!;
const key = (what: string) => `invoice-${++keySeq}-${what}-1`;

/** A seller's account, onboarded, with a patient (customer) on it. */
async function seller(card?: string) {
  const account = await gateway.createAccount({ email: 'ana@example.com', businessName: 'Consulta Ana', metadata: { holder: 'user:1' } });
  fake.completeOnboarding(account.id);
  const customer = await gateway.createCustomer(account.id, {
    email: 'paciente@example.com',
    name: 'Lucía Pérez',
    metadata: { patientId: 'p1' },
  });
  const paymentMethodId = card ? fake.saveCard(account.id, customer.id, card) : '';
  return { account: account.id, customer: customer.id, paymentMethodId };
}

const charge = (s: { account: string; customer: string; paymentMethodId: string }, idempotencyKey: string, amount = 12_000) =>
  gateway.chargeOffSession(s.account, {
    customerId: s.customer,
    paymentMethodId: s.paymentMethodId,
    amount,
    description: 'Factura A-1',
    metadata: { invoiceId: 'inv-1' },
    idempotencyKey,
  });

async function cardError(p: Promise<unknown>): Promise<GatewayCardError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayCardError);
  return err as GatewayCardError;
}

beforeAll(async () => {
  fake = await startFakeStripe();
  gateway = gatewayOn(fake.url);
});
afterAll(() => fake?.close());

describe('StripeGateway against the fake Stripe', () => {
  it('connected accounts: created, read and linked on the platform, without Stripe-Account', async () => {
    const account = await gateway.createAccount({
      email: 'ana@example.com',
      businessName: 'Consulta Ana',
      metadata: { holder: 'workspace:7' },
    });
    expect(account).toEqual({ id: expect.stringMatching(/^acct_/), detailsSubmitted: false, chargesEnabled: false, payoutsEnabled: false });
    expect(last()).toMatchObject({ method: 'POST', path: '/v1/accounts', account: null, status: 200 });
    expect(last().headers.authorization).toBe(`Bearer ${KEY}`);
    expect(last().body).toEqual({
      type: 'express',
      country: 'ES',
      email: 'ana@example.com',
      business_profile: { name: 'Consulta Ana' },
      capabilities: { card_payments: { requested: 'true' }, transfers: { requested: 'true' } },
      metadata: { holder: 'workspace:7' },
    });

    const onboarding = await gateway.onboardingLink(account.id, {
      refreshUrl: 'https://divan.test/refresh',
      returnUrl: 'https://divan.test/return',
    });
    expect(onboarding.url.startsWith(fake.url)).toBe(true);
    expect(last()).toMatchObject({
      path: '/v1/account_links',
      account: null,
      body: {
        account: account.id,
        type: 'account_onboarding',
        refresh_url: 'https://divan.test/refresh',
        return_url: 'https://divan.test/return',
      },
    });
    // Stripe gives no dashboard before onboarding: its refusal keeps its words.
    await expect(gateway.dashboardLink(account.id)).rejects.toThrow(GatewayUnavailableError);
    await expect(gateway.dashboardLink(account.id)).rejects.toThrow(/not completed onboarding/);

    fake.completeOnboarding(account.id);
    expect(await gateway.retrieveAccount(account.id)).toEqual({
      id: account.id,
      detailsSubmitted: true,
      chargesEnabled: true,
      payoutsEnabled: true,
    });
    expect(last()).toMatchObject({ method: 'GET', path: `/v1/accounts/${account.id}`, account: null });
    expect((await gateway.dashboardLink(account.id)).url.startsWith(fake.url)).toBe(true);
    expect(last()).toMatchObject({ method: 'POST', path: `/v1/accounts/${account.id}/login_links`, account: null });
  });

  it('a customer and a setup Checkout on the connected account; the saved card read from the SetupIntent, then detached', async () => {
    const { account, customer } = await seller();
    expect(last()).toMatchObject({
      path: '/v1/customers',
      account,
      body: { email: 'paciente@example.com', name: 'Lucía Pérez', metadata: { patientId: 'p1' } },
    });

    const urls = { successUrl: 'https://divan.test/pago/t/ok', cancelUrl: 'https://divan.test/pago/t' };
    const session = await gateway.checkoutSetup(account, { customerId: customer, ...urls, metadata: { patientId: 'p1', linkId: 'l1' } });
    expect(session).toEqual({ id: expect.stringMatching(/^cs_test_/), url: expect.stringContaining(session.id) });
    expect(last()).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', account });
    expect(last().body).toEqual({
      mode: 'setup',
      currency: 'eur',
      allowed_payment_method_types: ['card'],
      customer,
      success_url: urls.successUrl,
      cancel_url: urls.cancelUrl,
      metadata: { patientId: 'p1', linkId: 'l1' },
      setup_intent_data: { metadata: { patientId: 'p1', linkId: 'l1' } },
    });

    const done = fake.completeCheckout(session.id, '4242 4242 4242 4242');
    const saved = await gateway.setupIntentCard(account, done.setup_intent as string);
    expect(last()).toMatchObject({
      method: 'GET',
      path: `/v1/setup_intents/${done.setup_intent}`,
      account,
      body: { expand: ['payment_method'] },
    });
    expect(saved).toEqual({
      customerId: customer,
      card: {
        paymentMethodId: expect.stringMatching(/^pm_/),
        brand: 'visa',
        last4: '4242',
        expMonth: 12,
        expYear: new Date().getFullYear() + 3,
      },
    });
    const pmId = saved.card!.paymentMethodId;
    expect(await gateway.retrievePaymentMethod(account, pmId)).toEqual(saved.card);
    expect(last()).toMatchObject({ method: 'GET', path: `/v1/payment_methods/${pmId}`, account });

    // Objects live on their account: another seller does not find the card.
    const other = await seller();
    await expect(gateway.retrievePaymentMethod(other.account, pmId)).rejects.toThrow(GatewayUnavailableError);
    expect(last().status).toBe(404);

    await gateway.detachPaymentMethod(account, pmId);
    expect(last()).toMatchObject({ method: 'POST', path: `/v1/payment_methods/${pmId}/detach`, account });
    expect(fake.get(pmId).customer).toBeNull();
  });

  it('a pay-by-link Checkout: one line item, the caller’s idempotency key, setup_future_usage only with a customer', async () => {
    const { account, customer } = await seller();
    const input = {
      amount: 12_000,
      description: 'Factura A-7',
      successUrl: 'https://divan.test/ok',
      cancelUrl: 'https://divan.test/no',
      metadata: { invoiceId: 'inv-7' },
    };
    const k = key('link');
    const session = await gateway.checkoutPayment(account, { ...input, customerId: customer, customerEmail: null, idempotencyKey: k });
    expect(last()).toMatchObject({ path: '/v1/checkout/sessions', account, idempotencyKey: k });
    expect(last().body).toEqual({
      mode: 'payment',
      line_items: [{ price_data: { currency: 'eur', unit_amount: '12000', product_data: { name: 'Factura A-7' } }, quantity: '1' }],
      payment_intent_data: { metadata: { invoiceId: 'inv-7' }, setup_future_usage: 'off_session' },
      customer,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      metadata: { invoiceId: 'inv-7' },
    });
    expect(await gateway.checkoutPayment(account, { ...input, customerId: customer, customerEmail: null, idempotencyKey: k })).toEqual(
      session,
    );
    expect(last().replayed).toBe(true);

    await gateway.checkoutPayment(account, { ...input, customerId: null, customerEmail: 'otra@example.com', idempotencyKey: key('link') });
    expect(last().body).toMatchObject({ customer_email: 'otra@example.com', payment_intent_data: { metadata: { invoiceId: 'inv-7' } } });
    expect(last().body).not.toHaveProperty('customer');
    expect(last().body.payment_intent_data).not.toHaveProperty('setup_future_usage');

    const paid = fake.completeCheckout(session.id);
    expect(await gateway.retrievePaymentIntent(account, paid.payment_intent as string)).toEqual({
      id: paid.payment_intent,
      status: 'succeeded',
      amount: 12_000,
      errorCode: null,
      declineCode: null,
      metadata: { invoiceId: 'inv-7' },
    });
    expect(last()).toMatchObject({ method: 'GET', path: `/v1/payment_intents/${paid.payment_intent}`, account });
  });

  it('an off-session charge on the account with the key; the same key again answers the same PaymentIntent and charges once', async () => {
    const s = await seller('4242424242424242');
    const k = key('charge');
    const first = await charge(s, k);
    expect(first).toEqual({
      id: expect.stringMatching(/^pi_/),
      status: 'succeeded',
      amount: 12_000,
      errorCode: null,
      declineCode: null,
      metadata: { invoiceId: 'inv-1' },
    });
    expect(last()).toMatchObject({ method: 'POST', path: '/v1/payment_intents', account: s.account, idempotencyKey: k, replayed: false });
    expect(last().body).toEqual({
      amount: '12000',
      currency: 'eur',
      customer: s.customer,
      payment_method: s.paymentMethodId,
      off_session: 'true',
      confirm: 'true',
      description: 'Factura A-1',
      metadata: { invoiceId: 'inv-1' },
    });

    expect(await charge(s, k)).toEqual(first);
    expect(last()).toMatchObject({ idempotencyKey: k, replayed: true });
    expect(fake.list(s.account, 'payment_intent').map((pi) => pi.id)).toEqual([first.id]);

    // The same key with other parameters is Stripe's idempotency_error: a bug of ours, not the card's.
    await expect(charge(s, k, 13_000)).rejects.toThrow(/idempotent requests/);
    expect(fake.list(s.account, 'payment_intent')).toHaveLength(1);
  });

  it('a declined card: GatewayCardError with its codes and the PaymentIntent left behind, the same for the same key', async () => {
    const s = await seller('4000000000009995');
    const k = key('charge');
    const err = await cardError(charge(s, k));
    expect(last().status).toBe(402);
    expect(err).toMatchObject({ code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' });
    expect(err.paymentIntent).toEqual({
      id: expect.stringMatching(/^pi_/),
      status: 'requires_payment_method',
      amount: 12_000,
      errorCode: 'card_declined',
      declineCode: 'insufficient_funds',
      metadata: { invoiceId: 'inv-1' },
    });
    expect(fake.get(err.paymentIntent!.id).status).toBe('requires_payment_method');

    const again = await cardError(charge(s, k));
    expect(last().replayed).toBe(true);
    expect(again.paymentIntent?.id).toBe(err.paymentIntent!.id);
    expect(fake.list(s.account, 'payment_intent')).toHaveLength(1);

    // Attaches, but every charge is declined.
    const t = await seller('4000000000000341');
    expect(await cardError(charge(t, key('charge')))).toMatchObject({
      code: 'card_declined',
      declineCode: 'generic_decline',
      paymentIntent: { status: 'requires_payment_method' },
    });
  });

  it('a bank asking for authentication off-session: authentication_required with the PaymentIntent', async () => {
    const s = await seller('4000002760003184');
    const err = await cardError(charge(s, key('charge')));
    expect(err).toMatchObject({
      code: 'authentication_required',
      paymentIntent: { status: 'requires_payment_method', errorCode: 'authentication_required' },
    });
    expect(err.paymentIntent!.id).toMatch(/^pi_/);
  });

  it('cancels (once more is fine, a succeeded one is refused) and refunds, partial then the rest', async () => {
    const failed = await seller('4000002760003184');
    const pi = (await cardError(charge(failed, key('charge')))).paymentIntent!;
    await gateway.cancelPaymentIntent(failed.account, pi.id);
    expect(last()).toMatchObject({ method: 'POST', path: `/v1/payment_intents/${pi.id}/cancel`, account: failed.account });
    expect(await gateway.retrievePaymentIntent(failed.account, pi.id)).toMatchObject({ status: 'canceled' });
    await gateway.cancelPaymentIntent(failed.account, pi.id);

    const s = await seller('4242424242424242');
    const paid = await charge(s, key('charge'));
    await expect(gateway.cancelPaymentIntent(s.account, paid.id)).rejects.toThrow(/payment_intent_unexpected_state/);

    const k = key('refund');
    const part = await gateway.refund(s.account, {
      paymentIntentId: paid.id,
      amount: 3_000,
      metadata: { invoiceId: 'inv-1', refundId: 'r1' },
      idempotencyKey: k,
    });
    expect(part).toEqual({
      id: expect.stringMatching(/^re_/),
      status: 'succeeded',
      amount: 3_000,
      paymentIntentId: paid.id,
      metadata: { invoiceId: 'inv-1', refundId: 'r1' },
    });
    expect(last()).toMatchObject({
      path: '/v1/refunds',
      account: s.account,
      idempotencyKey: k,
      body: { payment_intent: paid.id, amount: '3000', metadata: { invoiceId: 'inv-1', refundId: 'r1' } },
    });
    expect(
      await gateway.refund(s.account, {
        paymentIntentId: paid.id,
        amount: 3_000,
        metadata: { invoiceId: 'inv-1', refundId: 'r1' },
        idempotencyKey: k,
      }),
    ).toEqual(part);
    await gateway.refund(s.account, { paymentIntentId: paid.id, amount: 9_000, metadata: {}, idempotencyKey: key('refund') });
    await expect(
      gateway.refund(s.account, { paymentIntentId: paid.id, amount: 1, metadata: {}, idempotencyKey: key('refund') }),
    ).rejects.toThrow(GatewayUnavailableError);
    expect(fake.list(s.account, 'refund').map((r) => r.amount)).toEqual([3_000, 9_000]);
  });

  it('Stripe unavailable: a 500, a refused key and a closed port are GatewayUnavailableError', async () => {
    const s = await seller();
    fake.failNext(500);
    const err = await gateway.createCustomer(s.account, { email: null, name: 'X', metadata: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayUnavailableError);
    expect((err as Error).message).toMatch(/HTTP 500/);

    const live = gatewayOn(fake.url, 'sk_live_not_for_the_fake');
    expect(live.mode).toBe('live');
    await expect(live.retrieveAccount(s.account)).rejects.toThrow(/refused the key \(HTTP 401\)/);

    const port = await new Promise<number>((ok) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => ok(p));
      });
    });
    await expect(gatewayOn(`http://127.0.0.1:${port}`).retrieveAccount(s.account)).rejects.toThrow(/Stripe unreachable/);
  });

  it('retries keep the key: a 503 then an answer, or an answer lost after the charge, still charge once', async () => {
    const s = await seller('4242424242424242');
    const before = fake.requests.length;
    fake.failNext(503);
    const k = key('charge');
    const pi = await gatewayOn(fake.url, KEY, 1).chargeOffSession(s.account, {
      customerId: s.customer,
      paymentMethodId: s.paymentMethodId,
      amount: 5_000,
      description: 'Bono',
      metadata: {},
      idempotencyKey: k,
    });
    expect(fake.requests.slice(before).map((r) => [r.status, r.idempotencyKey])).toEqual([
      [503, k],
      [200, k],
    ]);

    // The SDK retries a reset connection once even without retries: the same key replays the charge.
    fake.loseNextAnswer();
    const lostKey = key('charge');
    const again = await charge(s, lostKey, 6_000);
    expect(fake.requests.slice(-2).map((r) => [r.idempotencyKey, r.replayed])).toEqual([
      [lostKey, false],
      [lostKey, true],
    ]);
    expect(fake.list(s.account, 'payment_intent').map((p) => p.id)).toEqual([pi.id, again.id]);
  });

  it('webhooks: a correctly signed event is read; a tampered body, another secret or no signature are refused', async () => {
    const s = await seller('4242424242424242');
    const paid = await charge(s, key('charge'));
    const object = fake.get(paid.id);
    const { payload, header, id } = fake.event('payment_intent.succeeded', object, s.account);
    expect(await gateway.verifyWebhook(Buffer.from(payload), header)).toEqual({
      id,
      type: 'payment_intent.succeeded',
      account: s.account,
      created: expect.any(Number),
      object,
    });
    expect((await gateway.verifyWebhook(payload, header)).object).toMatchObject({ id: paid.id, metadata: { invoiceId: 'inv-1' } });

    const platform = fake.event('account.updated', fake.get(s.account));
    expect((await gateway.verifyWebhook(platform.payload, platform.header)).account).toBeNull();

    await expect(gateway.verifyWebhook(payload.replace('"succeeded"', '"canceled"'), header)).rejects.toThrow(/Invalid Stripe webhook/);
    const forged = fake.event('payment_intent.succeeded', object, s.account, 'whsec_someone_else');
    await expect(gateway.verifyWebhook(forged.payload, forged.header)).rejects.toThrow(/Invalid Stripe webhook/);
    await expect(gateway.verifyWebhook(payload, undefined)).rejects.toThrow(/Invalid Stripe webhook/);
  });
});

describe('StripeGateway configuration', () => {
  it('mode from the key; STRIPE_API_BASE as the SDK’s host, port and protocol', () => {
    expect(['sk_test_1', 'rk_test_1', 'sk_live_1', 'rk_live_1'].map(stripeMode)).toEqual(['test', 'test', 'live', 'live']);
    expect(gateway.mode).toBe('test');
    expect(gateway.provider).toBe('stripe');
    expect(apiBaseOptions('http://127.0.0.1:4567')).toEqual({ host: '127.0.0.1', port: '4567', protocol: 'http' });
    expect(apiBaseOptions('https://stripe.internal')).toEqual({ host: 'stripe.internal', port: 443, protocol: 'https' });
    expect(apiBaseOptions(undefined)).toEqual({});
    expect(() => apiBaseOptions('ftp://x')).toThrow(/http/);
  });
});
