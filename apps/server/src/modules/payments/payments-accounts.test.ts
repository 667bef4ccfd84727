import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Invoice, PaymentAccount } from '@divan/core';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { sandboxWebhookSecret } from '../../platform/payments/create-gateway';
import { createTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { clinic, W, type Clinic } from '../../test/session-fixtures';

// Two workspaces, each therapist with their own connected account on the sandbox. Any connected account
// can emit events carrying the metadata it likes: B's events, naming A's attempts, refunds, account or
// patient, never change A's records; each is acknowledged, logged and kept as ignored.
let t: TestApp;
let a: Clinic;
let b: Clinic;
let accountA: string;
let accountB: string;
let luciaA: string;
const sandbox = () => t.app.services.paymentsSandbox!;
const lastSegment = (url: string) => new URL(url).pathname.split('/').pop()!;
const ok = async <T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as T;
};
const I = (c: Clinic) => `${W(c.ws.id)}/invoices`;
const card = (number: string) => ({ number, exp: '12/30', cvc: '123' });

async function connect(c: Clinic): Promise<string> {
  const token = c.tere.accessToken;
  await ok(
    t.put(
      '/api/v1/me/billing',
      { fullName: 'Tere Terapeuta', taxId: '12345678Z', line1: 'Calle Mayor 1', city: 'Madrid', zipCode: '28013', country: 'España' },
      { token },
    ),
  );
  const created = await ok<PaymentAccount>(t.post('/api/v1/me/payment-account', undefined, { token }), 201);
  const { url } = await ok<{ url: string }>(t.post('/api/v1/me/payment-account/onboarding-link', undefined, { token }));
  await sandbox().hosted.completeOnboarding(lastSegment(url), { businessName: 'Tere Terapeuta', iban: 'ES91 2100 0418 4502 0005 1332' });
  expect(await ok<PaymentAccount>(t.post('/api/v1/me/payment-account/sync', undefined, { token }))).toMatchObject({ chargesEnabled: true });
  return created.accountId!;
}

async function issued(c: Clinic, patientId: string, cents: number): Promise<Invoice> {
  const draft = await ok<Invoice>(
    t.post(
      I(c),
      { therapistId: c.tere.userId, patientId, lines: [{ description: 'Sesión', unitPriceCents: cents }] },
      { token: c.tere.accessToken },
    ),
    201,
  );
  return ok<Invoice>(t.post(`${I(c)}/${draft.id}/issue`, undefined, { token: c.tere.accessToken }));
}
const invoiceOf = (c: Clinic, id: string) => ok<Invoice>(t.get(`${I(c)}/${id}`, { token: c.tere.accessToken }));
const attemptsOf = (invoiceId: string) =>
  t.rows<{ id: string; status: string; intent_id: string | null; checkout_id: string | null; amount: number; account_id: string }>(
    sql`select * from invoice_payments where invoice_id = ${invoiceId} order by created_at`,
  );

/** The patient of A saves a card through the mailed link (a setup checkout on A's account). */
async function saveCardA(number: string) {
  const link = await ok<{ url: string }>(
    t.post(`${W(a.ws.id)}/patients/${luciaA}/payment-method/link`, { send: false }, { token: a.tere.accessToken }),
    201,
  );
  const { url } = await ok<{ url: string }>(t.post(`/api/v1/public/payment-links/${lastSegment(link.url)}/checkout`));
  expect(await sandbox().hosted.submitCard(lastSegment(url), card(number))).toMatchObject({ kind: 'redirect' });
  await until(
    () => cardOfA(),
    (c) => c?.last4 === number.slice(-4),
  );
}
const cardOfA = async () =>
  (
    await t.rows<{ payment_method_id: string | null; last4: string | null; account_id: string }>(
      sql`select * from patient_cards where patient_id = ${luciaA}`,
    )
  )[0];

/** A card saved on B's own account by B's own customer, as B may do with its dashboard or API. */
async function cardOnB(metadata: Record<string, string>) {
  const customer = await sandbox().createCustomer(accountB, { email: 'otro@b.test', name: 'Cliente de B', metadata });
  const setup = await sandbox().checkoutSetup(accountB, {
    customerId: customer.id,
    successUrl: 'http://b.test/ok',
    cancelUrl: 'http://b.test/no',
    metadata,
  });
  expect(await sandbox().hosted.submitCard(setup.id, card('4242424242424242'))).toMatchObject({ kind: 'redirect' });
  const si = (await sandbox().hosted.checkout(setup.id))!.session.setup_intent!;
  return {
    customerId: customer.id,
    paymentMethodId: (await sandbox().setupIntentCard(accountB, si)).card!.paymentMethodId,
    checkoutId: setup.id,
  };
}

/** The events the sandbox emitted about `objectId`, once the app has taken each: their rows in payment_events. */
async function handled(objectId: string, types: string[]) {
  const ids = await t.rows<{ id: string }>(
    sql`select id from sandbox_stripe_objects where type = 'event' and data->'data'->'object'->>'id' = ${objectId} and data->>'type' in (${sql.join(
      types.map((x) => sql`${x}`),
      sql`, `,
    )})`,
  );
  expect(ids.length, `events ${types.join(', ')} of ${objectId}`).toBe(types.length);
  const list = sql.join(
    ids.map((r) => sql`${r.id}`),
    sql`, `,
  );
  return until(
    () =>
      t.rows<{ event_id: string; type: string; account: string; ignored: string | null }>(
        sql`select * from payment_events where event_id in (${list})`,
      ),
    (rows) => rows.length === ids.length,
    20_000,
  );
}

/** An event as the provider would send it, on `account`, signed with the sandbox's secret. */
async function post(type: string, account: string, object: Record<string, unknown>) {
  const id = `evt_test_${randomUUID()}`;
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    account,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object },
  });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: sandboxWebhookSecret(t.config.appSecret) });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/payments/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (await t.rows<{ ignored: string | null }>(sql`select ignored from payment_events where event_id = ${id}`))[0]!.ignored;
}

beforeAll(async () => {
  t = await createTestApp();
  a = await clinic(t, 'cuenta-a');
  b = await clinic(t, 'cuenta-b');
  accountA = await connect(a);
  accountB = await connect(b);
  luciaA = (
    await ok<{ id: string }>(
      t.post(
        `${W(a.ws.id)}/patients`,
        { firstName: 'Lucía', lastName: 'De A', email: 'lucia@a.test', assignedTherapistId: a.tere.userId },
        { token: a.owner.accessToken },
      ),
      201,
    )
  ).id;
}, 60_000);
afterAll(() => t?.close());

describe("events of another connected account never change this workspace's records", () => {
  it("a charge succeeded on B's account naming A's failed attempt leaves A's invoice pending", async () => {
    await saveCardA('4000000000009995');
    const inv = await issued(a, luciaA, 6000);
    expect((await t.post(`${I(a)}/${inv.id}/charge`, undefined, { token: a.tere.accessToken })).statusCode).toBe(402);
    const [attempt] = await attemptsOf(inv.id);
    expect(attempt).toMatchObject({ status: 'failed', account_id: accountA });

    const onB = await cardOnB({ note: 'de B' });
    const pi = await sandbox().chargeOffSession(accountB, {
      ...onB,
      amount: 6000,
      description: 'De B',
      metadata: { invoiceId: inv.id, attemptId: attempt!.id, workspaceId: a.ws.id },
      idempotencyKey: randomUUID(),
    });
    expect(pi.status).toBe('succeeded');
    const [event] = await handled(pi.id, ['payment_intent.succeeded']);
    expect((await invoiceOf(a, inv.id)).paymentStatus).toBe('pending');
    expect(await attemptsOf(inv.id)).toEqual([
      expect.objectContaining({ id: attempt!.id, status: 'failed', intent_id: attempt!.intent_id }),
    ]);
    expect(event).toMatchObject({ account: accountB, ignored: expect.stringContaining(`connected account ${accountB}`) });
    await saveCardA('4242424242424242');
  });

  it("a checkout paid on B's account naming A's pay-link attempt leaves it open; A's own checkout still pays it", async () => {
    const inv = await issued(a, luciaA, 4500);
    const link = await ok<{ url: string }>(t.post(`${I(a)}/${inv.id}/pay-link`, { send: false }, { token: a.tere.accessToken }), 201);
    const { url } = await ok<{ url: string }>(t.post(`/api/v1/public/payment-links/${lastSegment(link.url)}/checkout`));
    const [attempt] = await attemptsOf(inv.id);

    const metadata = { invoiceId: inv.id, attemptId: attempt!.id, workspaceId: a.ws.id };
    const onB = await sandbox().checkoutPayment(accountB, {
      customerId: null,
      customerEmail: 'x@b.test',
      amount: 4500,
      description: 'De B',
      successUrl: 'http://b.test/ok',
      cancelUrl: 'http://b.test/no',
      metadata,
      idempotencyKey: randomUUID(),
    });
    expect(await sandbox().hosted.submitCard(onB.id, card('4242424242424242'))).toMatchObject({ kind: 'redirect' });
    const piB = (await sandbox().hosted.checkout(onB.id))!.session.payment_intent!;
    const [completed] = await handled(onB.id, ['checkout.session.completed']);
    const [succeeded] = await handled(piB, ['payment_intent.succeeded']);
    expect((await invoiceOf(a, inv.id)).paymentStatus).toBe('pending');
    expect(await attemptsOf(inv.id)).toEqual([
      expect.objectContaining({ status: 'processing', intent_id: null, checkout_id: lastSegment(url) }),
    ]);
    expect(completed!.ignored).toContain(`connected account ${accountB}`);
    expect(succeeded!.ignored).toContain(`connected account ${accountB}`);

    expect(await sandbox().hosted.submitCard(lastSegment(url), card('4242424242424242'))).toMatchObject({ kind: 'redirect' });
    expect(
      await until(
        () => invoiceOf(a, inv.id),
        (i) => i.paymentStatus === 'paid',
      ),
    ).toMatchObject({ paymentStatus: 'paid' });
  });

  it("a refund reported on B's account for A's PaymentIntent records nothing", async () => {
    const inv = await issued(a, luciaA, 3000);
    await ok(t.post(`${I(a)}/${inv.id}/charge`, undefined, { token: a.tere.accessToken }));
    await until(
      () => invoiceOf(a, inv.id),
      (i) => i.paymentStatus === 'paid',
    );
    const [attempt] = await attemptsOf(inv.id);
    const refund = {
      id: `re_${randomUUID()}`,
      object: 'refund',
      amount: 3000,
      currency: 'eur',
      status: 'succeeded',
      payment_intent: attempt!.intent_id,
      metadata: { invoiceId: inv.id },
    };
    const created = await post('refund.created', accountB, refund);
    const charge = await post('charge.refunded', accountB, {
      id: `ch_${randomUUID()}`,
      object: 'charge',
      amount: 3000,
      currency: 'eur',
      payment_intent: attempt!.intent_id,
      refunds: { object: 'list', data: [refund] },
    });
    expect(await t.rows(sql`select * from payment_refunds where invoice_id = ${inv.id}`)).toEqual([]);
    expect((await invoiceOf(a, inv.id)).paymentStatus).toBe('paid');
    expect([created, charge]).toEqual([
      expect.stringContaining(`connected account ${accountB}`),
      expect.stringContaining(`connected account ${accountB}`),
    ]);
  });

  it("account.updated sent for B's account naming A's account does not touch A's connection", async () => {
    const before = await t.rows<{ updated_at: string; charges_enabled: boolean }>(
      sql`select updated_at::text, charges_enabled from payment_accounts where account_id = ${accountA}`,
    );
    const object = { id: accountA, object: 'account', details_submitted: false, charges_enabled: false, payouts_enabled: false };
    const ignored = await post('account.updated', accountB, object);
    expect(await t.rows(sql`select updated_at::text, charges_enabled from payment_accounts where account_id = ${accountA}`)).toEqual(
      before,
    );
    expect(ignored).toContain(`account.updated of ${accountA}`);
  });

  it("a card saved on B's account naming A's patient does not reach A's patient", async () => {
    const mine = await cardOfA();
    const onB = await cardOnB({ purpose: 'card', patientId: luciaA, workspaceId: a.ws.id });
    await handled(onB.checkoutId, ['checkout.session.completed']);
    expect(await cardOfA()).toEqual(mine);
    expect(await t.rows(sql`select * from patient_cards where account_id = ${accountB}`)).toEqual([]);
  });
});

describe("an event on the attempt's own account must agree with it", () => {
  it('another PaymentIntent, amount or currency is ignored; the matching event is taken', async () => {
    await saveCardA('4000000000009995');
    const inv = await issued(a, luciaA, 5000);
    expect((await t.post(`${I(a)}/${inv.id}/charge`, undefined, { token: a.tere.accessToken })).statusCode).toBe(402);
    const [attempt] = await attemptsOf(inv.id);
    const pi = {
      id: attempt!.intent_id,
      object: 'payment_intent',
      status: 'succeeded',
      amount: 5000,
      currency: 'eur',
      metadata: { invoiceId: inv.id, attemptId: attempt!.id },
    };
    expect(await post('payment_intent.succeeded', accountA, { ...pi, id: `pi_${randomUUID()}` })).toContain('PaymentIntent');
    expect(await post('payment_intent.succeeded', accountA, { ...pi, amount: 5001 })).toContain('amount 5001');
    expect(await post('payment_intent.succeeded', accountA, { ...pi, currency: 'usd' })).toContain('currency usd');
    expect(
      await post('payment_intent.succeeded', accountA, { ...pi, metadata: { attemptId: 'not-a-uuid' }, id: `pi_${randomUUID()}` }),
    ).toBeNull();
    expect((await invoiceOf(a, inv.id)).paymentStatus).toBe('pending');
    expect(await post('payment_intent.succeeded', accountA, pi)).toBeNull();
    expect((await invoiceOf(a, inv.id)).paymentStatus).toBe('paid');
    await saveCardA('4242424242424242');
  });
});
