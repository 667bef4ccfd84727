// The built-in sandbox provider behaves like Stripe's test mode: test cards, idempotency, refunds, signed events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { GatewayCardError } from '../gateway';
import { openSandbox, type SandboxKit } from './sandbox-test-kit';
import { SANDBOX_WEBHOOK_QUEUE } from './sandbox-webhooks';

let k: SandboxKit;
let account: string;
beforeAll(async () => {
  k = await openSandbox();
  account = await k.readyAccount();
}, 60_000);
afterAll(() => k?.close());

const charge = (card: { customerId: string; paymentMethodId: string }, key: string, amount = 6000) =>
  k.sandbox.chargeOffSession(account, {
    ...card,
    amount,
    description: 'Factura 2025-0001',
    metadata: { invoice: 'inv-1' },
    idempotencyKey: key,
  });
const cardError = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a card error');
    },
    (err: unknown) => {
      expect(err).toBeInstanceOf(GatewayCardError);
      return err as GatewayCardError;
    },
  );
const countRows = async (q: ReturnType<typeof sql>) =>
  Number(((await k.db.execute(q)) as unknown as { rows: { n: number | string }[] }).rows[0]!.n);

describe('connected accounts', () => {
  it('start without details, charges or payouts; refuse charges until onboarded; link to a dashboard once onboarded', async () => {
    const fresh = await k.sandbox.createAccount({ email: null, businessName: null, metadata: {} });
    expect(fresh).toEqual({
      id: expect.stringMatching(/^acct_[0-9A-Za-z]{24}$/),
      detailsSubmitted: false,
      chargesEnabled: false,
      payoutsEnabled: false,
    });
    expect(await k.sandbox.retrieveAccount(fresh.id)).toEqual(fresh);
    const link = await k.sandbox.onboardingLink(fresh.id, { refreshUrl: 'http://divan.test/r', returnUrl: 'http://divan.test/ok' });
    expect(link.url).toMatch(/^http:\/\/divan\.test\/sandbox\/stripe\/connect\/acctlink_[0-9A-Za-z]{24}$/);
    await expect(k.sandbox.dashboardLink(fresh.id)).rejects.toThrow(/not completed onboarding/);
    const customer = await k.sandbox.createCustomer(fresh.id, { email: null, name: 'Ana', metadata: {} });
    await expect(
      k.sandbox.checkoutSetup(fresh.id, { customerId: customer.id, successUrl: 'http://x/ok', cancelUrl: 'http://x/no', metadata: {} }),
    ).rejects.toThrow(/onboarding is not complete/);
    await expect(k.sandbox.retrieveAccount('acct_missing')).rejects.toThrow(/No such account/);

    expect(await k.sandbox.retrieveAccount(account)).toMatchObject({ detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: true });
    expect((await k.sandbox.dashboardLink(account)).url).toBe(`http://divan.test/sandbox/stripe/dashboard/${account}`);
  });
});

describe('off-session charges with Stripe’s test cards', () => {
  it('4242 4242 4242 4242 succeeds: a succeeded PaymentIntent, payment_intent.succeeded and charge.succeeded', async () => {
    const card = await k.savedCard(account, '4242 4242 4242 4242');
    const pi = await charge(card, 'invoice-1-charge-1');
    expect(pi).toEqual({
      id: expect.stringMatching(/^pi_[0-9A-Za-z]{24}$/),
      status: 'succeeded',
      amount: 6000,
      errorCode: null,
      declineCode: null,
      metadata: { invoice: 'inv-1' },
    });
    expect(await k.sandbox.retrievePaymentIntent(account, pi.id)).toEqual(pi);
    const succeeded = await k.delivery('payment_intent.succeeded', pi.id);
    expect(succeeded).toMatchObject({
      account,
      object: {
        object: 'payment_intent',
        status: 'succeeded',
        amount: 6000,
        amount_received: 6000,
        currency: 'eur',
        customer: card.customerId,
        payment_method: card.paymentMethodId,
        metadata: { invoice: 'inv-1' },
      },
    });
    await k.until(() => k.eventsOf('charge.succeeded').some((e) => e.object.payment_intent === pi.id), 'charge.succeeded');
    const ch = k.eventsOf('charge.succeeded').find((e) => e.object.payment_intent === pi.id)!;
    expect(ch.object).toMatchObject({
      id: succeeded.object.latest_charge,
      object: 'charge',
      status: 'succeeded',
      paid: true,
      amount: 6000,
      payment_method_details: { card: { brand: 'visa', last4: '4242' } },
    });
  });

  it('4000 0000 0000 9995 is declined for insufficient funds: the PaymentIntent stays, requires_payment_method, payment_failed is sent', async () => {
    const card = await k.savedCard(account, '4000000000009995');
    const err = await cardError(charge(card, 'invoice-2-charge-1'));
    expect(err).toMatchObject({
      code: 'card_declined',
      declineCode: 'insufficient_funds',
      message: 'Tu tarjeta no tiene fondos suficientes.',
    });
    expect(err.paymentIntent).toMatchObject({
      status: 'requires_payment_method',
      errorCode: 'card_declined',
      declineCode: 'insufficient_funds',
      amount: 6000,
    });
    expect(await k.sandbox.retrievePaymentIntent(account, err.paymentIntent!.id)).toEqual(err.paymentIntent);
    const failed = await k.delivery('payment_intent.payment_failed', err.paymentIntent!.id);
    expect(failed.object).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' },
    });
  });

  it('4000 0027 6000 3184 needs authentication, which cannot happen off session: authentication_required', async () => {
    const card = await k.savedCard(account, '4000 0027 6000 3184');
    const err = await cardError(charge(card, 'invoice-3-charge-1'));
    expect(err).toMatchObject({ code: 'authentication_required', declineCode: null });
    expect(err.paymentIntent).toMatchObject({ status: 'requires_payment_method', errorCode: 'authentication_required' });
    await k.delivery('payment_intent.payment_failed', err.paymentIntent!.id);
  });

  it('4000 0000 0000 0341 saves fine but its charges are declined (generic_decline)', async () => {
    const card = await k.savedCard(account, '4000000000000341');
    const err = await cardError(charge(card, 'invoice-4-charge-1'));
    expect(err).toMatchObject({ code: 'card_declined', declineCode: 'generic_decline' });
    await k.delivery('payment_intent.payment_failed', err.paymentIntent!.id);
  });

  it('answers one key with one PaymentIntent, even for two requests at once; a declined key is declined again; another request with the key is refused', async () => {
    const card = await k.savedCard(account, '4242424242424242');
    const [a, b] = await Promise.all([charge(card, 'invoice-5-charge-1'), charge(card, 'invoice-5-charge-1')]);
    expect(b).toEqual(a);
    expect(await charge(card, 'invoice-5-charge-1')).toEqual(a);
    expect(
      await countRows(
        sql`SELECT count(*) AS n FROM sandbox_stripe_objects WHERE type = 'payment_intent' AND idempotency_key = 'invoice-5-charge-1'`,
      ),
    ).toBe(1);
    expect(
      await countRows(sql`SELECT count(*) AS n FROM sandbox_stripe_objects WHERE type = 'charge' AND data->>'payment_intent' = ${a.id}`),
    ).toBe(1);
    await k.delivery('payment_intent.succeeded', a.id);
    await expect(charge(card, 'invoice-5-charge-1', 7000)).rejects.toThrow(/same parameters/);

    const declined = await k.savedCard(account, '4000000000009995');
    const first = await cardError(charge(declined, 'invoice-6-charge-1'));
    const again = await cardError(charge(declined, 'invoice-6-charge-1'));
    expect(again.paymentIntent).toEqual(first.paymentIntent);
    expect(
      await countRows(
        sql`SELECT count(*) AS n FROM sandbox_stripe_objects WHERE type = 'payment_intent' AND idempotency_key = 'invoice-6-charge-1'`,
      ),
    ).toBe(1);
  });

  it('refuses a card that is not the customer’s, and an amount below 0,50 €', async () => {
    const one = await k.savedCard(account, '4242424242424242');
    const other = await k.savedCard(account, '4242424242424242');
    await expect(charge({ customerId: one.customerId, paymentMethodId: other.paymentMethodId }, 'mismatch')).rejects.toThrow(
      /not attached to the customer/,
    );
    await expect(charge(one, 'tiny', 49)).rejects.toThrow(/at least €0.50/);
  });

  it('cancels a PaymentIntent left unpaid, not a succeeded one', async () => {
    const declined = await k.savedCard(account, '4000000000000341');
    const { paymentIntent } = await cardError(charge(declined, 'invoice-7-charge-1'));
    await k.sandbox.cancelPaymentIntent(account, paymentIntent!.id);
    expect((await k.sandbox.retrievePaymentIntent(account, paymentIntent!.id)).status).toBe('canceled');
    await k.delivery('payment_intent.canceled', paymentIntent!.id);
    const ok = await charge(await k.savedCard(account, '4242424242424242'), 'invoice-8-charge-1');
    await expect(k.sandbox.cancelPaymentIntent(account, ok.id)).rejects.toThrow(/status of succeeded/);
  });

  it('detaches a saved card from its customer', async () => {
    const card = await k.savedCard(account, '5555 5555 5555 4444');
    expect(await k.sandbox.retrievePaymentMethod(account, card.paymentMethodId)).toMatchObject({
      brand: 'mastercard',
      last4: '4444',
      expMonth: 12,
      expYear: 2040,
    });
    await k.sandbox.detachPaymentMethod(account, card.paymentMethodId);
    expect((await k.delivery('payment_method.detached', card.paymentMethodId)).object.customer).toBeNull();
    await expect(charge(card, 'after-detach')).rejects.toThrow(/not attached/);
  });
});

describe('refunds', () => {
  it('refund at once, partly then the rest, never more than is left; each sends refund.created and charge.refunded', async () => {
    const pi = await charge(await k.savedCard(account, '4242424242424242'), 'invoice-9-charge-1');
    const part = await k.sandbox.refund(account, {
      paymentIntentId: pi.id,
      amount: 2000,
      metadata: { invoice: 'inv-9' },
      idempotencyKey: 'refund-9-1',
    });
    expect(part).toEqual({
      id: expect.stringMatching(/^re_[0-9A-Za-z]{24}$/),
      status: 'succeeded',
      amount: 2000,
      paymentIntentId: pi.id,
      metadata: { invoice: 'inv-9' },
    });
    expect(
      await k.sandbox.refund(account, {
        paymentIntentId: pi.id,
        amount: 2000,
        metadata: { invoice: 'inv-9' },
        idempotencyKey: 'refund-9-1',
      }),
    ).toEqual(part);
    await expect(
      k.sandbox.refund(account, { paymentIntentId: pi.id, amount: 4001, metadata: {}, idempotencyKey: 'refund-9-2' }),
    ).rejects.toThrow('Refund amount (€40.01) is greater than unrefunded amount on charge (€40.00)');
    const rest = await k.sandbox.refund(account, { paymentIntentId: pi.id, amount: 4000, metadata: {}, idempotencyKey: 'refund-9-3' });

    expect((await k.delivery('refund.created', part.id)).object).toMatchObject({
      object: 'refund',
      amount: 2000,
      payment_intent: pi.id,
      status: 'succeeded',
    });
    await k.until(() => k.eventsOf('charge.refunded').filter((e) => e.object.payment_intent === pi.id).length === 2, 'two charge.refunded');
    // Like Stripe's, events may arrive in any order.
    const refunded = k
      .eventsOf('charge.refunded')
      .filter((e) => e.object.payment_intent === pi.id)
      .sort((a, b) => Number(a.object.amount_refunded) - Number(b.object.amount_refunded));
    expect(refunded.map((e) => [e.object.amount_refunded, e.object.refunded])).toEqual([
      [2000, false],
      [6000, true],
    ]);
    expect((refunded[1]!.object.refunds as { data: { id: string }[] }).data.map((r) => r.id)).toEqual([rest.id, part.id]);
    await expect(
      k.sandbox.refund(account, { paymentIntentId: pi.id, amount: 1, metadata: {}, idempotencyKey: 'refund-9-4' }),
    ).rejects.toThrow(/already been refunded/);
  });
});

describe('webhooks', () => {
  it('delivers every event signed with the secret: verifyWebhook accepts it and refuses a tampered body or a missing signature', async () => {
    const stored = (
      (await k.db.execute(sql`SELECT id FROM sandbox_stripe_objects WHERE type = 'event'`)) as unknown as { rows: { id: string }[] }
    ).rows.map((r) => r.id);
    expect(stored.length).toBeGreaterThan(20);
    await k.until(() => stored.every((id) => k.delivered.some((d) => d.event.id === id)), 'every stored event delivered');
    for (const d of k.delivered) {
      const raw = JSON.parse(d.payload) as Record<string, unknown>;
      expect(raw).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        object: 'event',
        livemode: false,
        api_version: Stripe.API_VERSION,
        type: d.event.type,
        account,
        data: { object: d.event.object },
      });
      expect(await k.sandbox.verifyWebhook(Buffer.from(d.payload), d.signature)).toEqual(d.event);
    }
    const d = k.delivered.find((x) => x.event.type === 'payment_intent.succeeded')!;
    await expect(k.sandbox.verifyWebhook(d.payload.replace('"amount":6000', '"amount":1'), d.signature)).rejects.toThrow(/signature/i);
    await expect(k.sandbox.verifyWebhook(d.payload, undefined)).rejects.toThrow();
    const forged = Stripe.webhooks.generateTestHeaderString({ payload: d.payload, secret: 'whsec_other' });
    await expect(k.sandbox.verifyWebhook(d.payload, forged)).rejects.toThrow(/signature/i);
  });

  it('keeps events until a receiver is plugged in, and retries one that failed', async () => {
    // Retried at once (no delay), and the worker woken at each look instead of waiting for its next poll:
    // the test waits for the delivery, never for a retry's delay.
    const late = await openSandbox({ receiver: false, delivery: { retryDelaySeconds: 0 } });
    try {
      const acct = await late.readyAccount();
      const updated = (await late.db.execute(
        sql`SELECT id FROM sandbox_stripe_objects WHERE type = 'event' AND account = ${acct}`,
      )) as unknown as { rows: { id: string }[] };
      const eventId = updated.rows[0]!.id;
      // No receiver: the delivery fails and waits for its retry.
      const state = () => late.jobs.stateOf(SANDBOX_WEBHOOK_QUEUE, eventId);
      let seen = await state();
      for (let i = 0; i < 400 && seen !== 'retry'; i++) seen = await new Promise((r) => setTimeout(r, 25)).then(state);
      expect(seen).toBe('retry');
      expect(late.delivered).toEqual([]);
      let refusals = 1;
      late.sandbox.deliverTo(async (payload, signature) => {
        if (refusals-- > 0) throw new Error('receiver down');
        late.delivered.push({ payload, signature, event: await late.sandbox.verifyWebhook(payload, signature) });
      });
      await late.until(
        () => (late.jobs.wake(SANDBOX_WEBHOOK_QUEUE), late.delivered.some((d) => d.event.id === eventId)),
        'delivered after retries',
        30_000,
      );
      expect(late.delivered.find((d) => d.event.id === eventId)!.event).toMatchObject({
        type: 'account.updated',
        account: acct,
        object: { id: acct, charges_enabled: true },
      });
    } finally {
      await late.close();
    }
  }, 60_000);
});
