import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invoice, PatientPaymentMethod, PaymentAccount } from '@divan/core';
import { createSecondApp, createTestApp, type TestApp } from '../../test/test-app';
import { startFakeStripe, type FakeStripe } from '../../test/fake-stripe';
import { clinic, W, type Clinic } from '../../test/session-fixtures';

// The same flows through the real Stripe client (the official SDK) against a local server speaking
// Stripe's HTTP API: the headers Stripe needs, its signed webhooks, and one charge for a double click
// even when the two clicks land on two server processes (PostgreSQL).
let fake: FakeStripe;
let t: TestApp;
let second: TestApp | undefined;
let c: Clinic;
let lucia: string;
let accountId: string;
const I = () => `${W(c.ws.id)}/invoices`;
const ok = async <T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as T;
};
/** Delivers a signed event to a server's webhook endpoint. */
const deliver = (app: TestApp, e: { payload: string; header: string }) =>
  app.app.inject({
    method: 'POST',
    url: '/api/v1/payments/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': e.header },
    payload: e.payload,
  });
async function issued(cents: number): Promise<Invoice> {
  const draft = await ok<Invoice>(
    t.post(I(), { patientId: lucia, lines: [{ description: 'Sesión', unitPriceCents: cents }] }, { token: c.tere.accessToken }),
    201,
  );
  return ok<Invoice>(t.post(`${I()}/${draft.id}/issue`, undefined, { token: c.tere.accessToken }));
}

beforeAll(async () => {
  fake = await startFakeStripe();
  const stripe = { secretKey: 'sk_test_divan', webhookSecret: fake.webhookSecret, apiBase: fake.url };
  t = await createTestApp({ stripe });
  if (t.database === 'postgres') second = await createSecondApp(t, { stripe });
  c = await clinic(t, 'stripe');
  await ok(
    t.put(
      '/api/v1/me/billing',
      { fullName: 'Tere Terapeuta', taxId: '12345678Z', line1: 'Calle Mayor 1', city: 'Madrid', zipCode: '28013', country: 'España' },
      { token: c.tere.accessToken },
    ),
  );
  lucia = (
    await ok<{ id: string }>(
      t.post(
        `${W(c.ws.id)}/patients`,
        { firstName: 'Lucía', lastName: 'Stripe', email: 'lucia@stripe.test', assignedTherapistId: c.tere.userId },
        { token: c.owner.accessToken },
      ),
      201,
    )
  ).id;
}, 60_000);
afterAll(async () => {
  await second?.close();
  await t?.close();
  await fake?.close();
});

describe('Stripe Connect through the SDK', () => {
  it('creates an Express account in Spain and follows account.updated', async () => {
    const created = await ok<PaymentAccount>(t.post('/api/v1/me/payment-account', undefined, { token: c.tere.accessToken }), 201);
    expect(created).toMatchObject({ provider: 'stripe', mode: 'test', status: 'pending' });
    accountId = created.accountId!;
    const req = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/accounts')!;
    expect(req.body).toMatchObject({ type: 'express', country: 'ES', email: 'tere-stripe@sesiones.test' });
    expect(req.headers.authorization).toBe('Bearer sk_test_divan');

    fake.completeOnboarding(accountId);
    expect((await deliver(t, fake.event('account.updated', fake.get(accountId), accountId))).statusCode).toBe(200);
    expect(await ok<PaymentAccount>(t.get('/api/v1/me/payment-account', { token: c.tere.accessToken }))).toMatchObject({
      status: 'active',
      chargesEnabled: true,
    });
  });

  it('saves the card through a setup checkout on the connected account', async () => {
    const link = await ok<{ url: string }>(
      t.post(`${W(c.ws.id)}/patients/${lucia}/payment-method/link`, { send: false }, { token: c.tere.accessToken }),
      201,
    );
    const token = new URL(link.url).pathname.split('/').pop()!;
    await ok(t.post(`/api/v1/public/payment-links/${token}/checkout`));
    const checkout = fake.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(checkout.account).toBe(accountId);
    expect(checkout.body).toMatchObject({ mode: 'setup', metadata: { purpose: 'card', patientId: lucia } });
    const session = fake.list(accountId, 'checkout.session')[0]!;
    const done = fake.completeCheckout(session.id as string);
    expect((await deliver(t, fake.event('checkout.session.completed', done, accountId))).statusCode).toBe(200);
    expect(
      await ok<PatientPaymentMethod>(t.get(`${W(c.ws.id)}/patients/${lucia}/payment-method`, { token: c.tere.accessToken })),
    ).toMatchObject({ card: { brand: 'visa', last4: '4242' } });
  });

  it('charges off-session with Stripe-Account and an Idempotency-Key; payment_intent.succeeded marks it paid', async () => {
    const inv = await issued(6000);
    expect(await ok(t.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken }))).toMatchObject({ status: 'succeeded' });
    const create = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').at(-1)!;
    expect(create.account).toBe(accountId);
    expect(create.idempotencyKey).toBe(`invoice-${inv.id}-charge-1`);
    expect(create.body).toMatchObject({
      amount: '6000',
      currency: 'eur',
      off_session: 'true',
      confirm: 'true',
      metadata: { invoiceId: inv.id },
    });
    // Marked by the webhook, not by the answer.
    expect((await ok<Invoice>(t.get(`${I()}/${inv.id}`, { token: c.tere.accessToken }))).paymentStatus).toBe('pending');
    const pi = fake.get(
      fake.list(accountId, 'payment_intent').find((p) => (p.metadata as Record<string, string>).invoiceId === inv.id)!.id as string,
    );
    // The same PaymentIntent and metadata, but sent for another connected account: acknowledged, changes nothing.
    expect((await deliver(t, fake.event('payment_intent.succeeded', pi, 'acct_someone_else'))).json()).toEqual({
      received: true,
      duplicate: false,
    });
    expect((await ok<Invoice>(t.get(`${I()}/${inv.id}`, { token: c.tere.accessToken }))).paymentStatus).toBe('pending');
    expect((await deliver(t, fake.event('payment_intent.succeeded', pi, accountId))).json()).toEqual({ received: true, duplicate: false });
    expect((await ok<Invoice>(t.get(`${I()}/${inv.id}`, { token: c.tere.accessToken }))).paymentStatus).toBe('paid');
  });

  it('a double click charges once, also when the clicks land on two server processes', async () => {
    const inv = await issued(7000);
    const other = second ?? t;
    const both = await Promise.all([
      t.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken }),
      other.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken }),
    ]);
    expect(both.some((r) => r.statusCode === 200)).toBe(true);
    const intents = fake.list(accountId, 'payment_intent').filter((p) => (p.metadata as Record<string, string>).invoiceId === inv.id);
    expect(intents).toHaveLength(1);
    const keys = new Set(
      fake.requests
        .filter(
          (r) => r.path === '/v1/payment_intents' && r.body.metadata && (r.body.metadata as Record<string, string>).invoiceId === inv.id,
        )
        .map((r) => r.idempotencyKey),
    );
    expect([...keys]).toEqual([`invoice-${inv.id}-charge-1`]);
  });

  it('authentication required: the attempt waits and the patient is mailed a pay link', async () => {
    const link = await ok<{ url: string }>(
      t.post(`${W(c.ws.id)}/patients/${lucia}/payment-method/link`, { send: false }, { token: c.tere.accessToken }),
      201,
    );
    await ok(t.post(`/api/v1/public/payment-links/${new URL(link.url).pathname.split('/').pop()}/checkout`));
    const session = fake.list(accountId, 'checkout.session').find((s) => s.status === 'open' && s.mode === 'setup')!;
    await deliver(t, fake.event('checkout.session.completed', fake.completeCheckout(session.id as string, '4000002760003184'), accountId));
    const inv = await issued(5000);
    expect(await ok(t.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken }))).toMatchObject({
      status: 'requires_action',
    });
    const mail = await t.lastMail('lucia@stripe.test');
    expect(mail.subject).toContain(inv.number!);
    expect(mail.text).toContain('Tu banco pide que confirmes este pago');
  });

  it('events out of order end in the right state: a refund heard before the payment leaves the invoice refunded', async () => {
    const link = await ok<{ url: string }>(
      t.post(`${W(c.ws.id)}/patients/${lucia}/payment-method/link`, { send: false }, { token: c.tere.accessToken }),
      201,
    );
    await ok(t.post(`/api/v1/public/payment-links/${new URL(link.url).pathname.split('/').pop()}/checkout`));
    const session = fake.list(accountId, 'checkout.session').find((s) => s.status === 'open' && s.mode === 'setup')!;
    await deliver(t, fake.event('checkout.session.completed', fake.completeCheckout(session.id as string), accountId));
    const inv = await issued(6000);
    await ok(t.post(`${I()}/${inv.id}/charge`, undefined, { token: c.tere.accessToken }));
    const pi = fake.list(accountId, 'payment_intent').find((p) => (p.metadata as Record<string, string>).invoiceId === inv.id)!;
    // Refunded in Stripe's dashboard; Stripe's events arrive refund first.
    const refunded = {
      id: 'ch_dashboard',
      object: 'charge',
      payment_intent: pi.id,
      amount_refunded: 6000,
      currency: 'eur',
      refunds: {
        object: 'list',
        data: [
          { id: 're_dashboard', object: 'refund', amount: 6000, currency: 'eur', status: 'succeeded', payment_intent: pi.id, metadata: {} },
        ],
      },
    };
    expect((await deliver(t, fake.event('charge.refunded', refunded, accountId))).statusCode).toBe(200);
    expect((await deliver(t, fake.event('payment_intent.succeeded', fake.get(pi.id as string), accountId))).statusCode).toBe(200);
    expect((await ok<Invoice>(t.get(`${I()}/${inv.id}`, { token: c.tere.accessToken }))).paymentStatus).toBe('refunded');
    const payments = await ok<{ refundedCents: number; refunds: { reason: string }[] }>(
      t.get(`${I()}/${inv.id}/payments`, { token: c.tere.accessToken }),
    );
    expect(payments).toMatchObject({ refundedCents: 6000, refunds: [{ reason: 'Devolución hecha desde Stripe' }] });
  });

  it('a bad signature is refused with 400', async () => {
    const e = fake.event('payment_intent.succeeded', { id: 'pi_x', object: 'payment_intent' }, accountId, 'whsec_someone_else');
    const res = await deliver(t, e);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'webhook_signature_invalid' });
  });
});
