// The sandbox's off-session charge of a platform customer's saved card (PlatformBilling.chargeSaved) and
// its refund: Stripe's test cards' outcomes, the card it picks, idempotency keys, Stripe's refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { findObject, getObject, saveObject } from './sandbox-store';
import type { SandboxCharge, SandboxCustomer, SandboxPaymentIntent, SandboxRefund } from './sandbox-objects';
import type { SandboxSubscription } from './sandbox-subscriptions';
import { openSandbox, PUBLIC_URL, type SandboxKit } from './sandbox-test-kit';

let k: SandboxKit;
let seq = 0;
beforeAll(async () => {
  k = await openSandbox();
}, 60_000);
afterAll(() => k?.close());

const billing = () => k.sandbox.billing;
const key = (what: string) => `saved-charge-${++seq}-${what}`;
const countRows = async (q: ReturnType<typeof sql>) =>
  Number(((await k.db.execute(q)) as unknown as { rows: { n: number | string }[] }).rows[0]!.n);
const intentsOf = (customerId: string) =>
  countRows(sql`SELECT count(*) AS n FROM sandbox_stripe_objects WHERE type = 'payment_intent' AND data->>'customer' = ${customerId}`);
const stored = async (id: string) => getObject<SandboxPaymentIntent>(k.db, 'payment_intent', id, { account: null });

async function customer(name = 'Consulta Ana') {
  const { id } = await billing().createCustomer({
    email: 'ana@divan.test',
    name,
    metadata: { workspaceId: 'w1' },
    idempotencyKey: key('cus'),
  });
  return id;
}

/** A card added on the customer's portal (a card Checkout would not save, such as 4000 0000 0000 9995, too). */
async function addCard(customerId: string, number: string) {
  const { id } = await billing().portals.create(customerId, `${PUBLIC_URL}/settings/workspace/plan`);
  const view = await billing().portals.addCard(id, { number, exp: '12/40', cvc: '123' });
  expect(view).toMatchObject({ notice: expect.stringContaining('añadida') });
}

/** A customer subscribed through the sandbox's Checkout with a card (saved on it, the subscription's default). */
async function subscribed(number = '4242 4242 4242 4242') {
  const customerId = await customer();
  const price = await billing().ensurePrice({ plan: 'advance', interval: 'month', unitAmount: 2900, productName: 'Diván Premium' });
  const checkout = await billing().checkoutSubscription({
    customerId,
    priceId: price.id,
    quantity: 1,
    successUrl: `${PUBLIC_URL}/ok`,
    cancelUrl: `${PUBLIC_URL}/no`,
    metadata: { workspaceId: 'w1' },
    taxRateIds: [],
    idempotencyKey: key('checkout'),
  });
  expect(await k.sandbox.hosted.submitCard(checkout.id, { number, exp: '12/40', cvc: '123' })).toMatchObject({ kind: 'redirect' });
  const { subscriptionId } = await billing().retrieveCheckout(checkout.id);
  const sub = await getObject<SandboxSubscription>(k.db, 'subscription', subscriptionId!, { account: null });
  return { customerId, paymentMethodId: sub.default_payment_method! };
}

const charge = (customerId: string, idempotencyKey: string, amount = 3509) =>
  billing().chargeSaved({ customerId, amount, description: 'Diván: asiento adicional', metadata: { divan_seat: 's1' }, idempotencyKey });

describe('chargeSaved in the sandbox', () => {
  it('charges the card saved by Checkout: a succeeded PaymentIntent off session, its charge; the same key answers it again', async () => {
    const { customerId, paymentMethodId } = await subscribed();
    const k1 = key('charge');
    const result = await charge(customerId, k1);
    expect(result).toEqual({ status: 'succeeded', paymentIntentId: expect.stringMatching(/^pi_[0-9A-Za-z]{24}$/), amount: 3509 });
    const id = (result as { paymentIntentId: string }).paymentIntentId;
    expect(await stored(id)).toMatchObject({
      object: 'payment_intent',
      status: 'succeeded',
      amount: 3509,
      amount_received: 3509,
      currency: 'eur',
      customer: customerId,
      payment_method: paymentMethodId,
      off_session: true,
      description: 'Diván: asiento adicional',
      metadata: { divan_seat: 's1' },
    });
    const pi = await stored(id);
    expect(await getObject<SandboxCharge>(k.db, 'charge', pi.latest_charge!, { account: null })).toMatchObject({
      status: 'succeeded',
      amount: 3509,
      payment_intent: id,
    });

    expect(await charge(customerId, k1)).toEqual(result);
    expect(await intentsOf(customerId)).toBe(1);
    expect(
      await countRows(sql`SELECT count(*) AS n FROM sandbox_stripe_objects WHERE type = 'charge' AND data->>'payment_intent' = ${id}`),
    ).toBe(1);
    // The key of another request: Stripe's idempotency error, nothing charged.
    await expect(charge(customerId, k1, 4000)).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
    await expect(charge(await customer(), k1)).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
    expect(await intentsOf(customerId)).toBe(1);
  });

  it('4000 0027 6000 3184: the bank asks for 3-D Secure, which cannot happen off session', async () => {
    const customerId = await customer();
    await addCard(customerId, '4000 0027 6000 3184');
    const result = await charge(customerId, key('charge'));
    expect(result).toEqual({ status: 'requires_authentication', paymentIntentId: expect.stringMatching(/^pi_/) });
    expect(await stored((result as { paymentIntentId: string }).paymentIntentId)).toMatchObject({
      status: 'requires_payment_method',
      off_session: true,
      last_payment_error: { type: 'card_error', code: 'authentication_required' },
    });
  });

  it('4000 0000 0000 9995: declined for insufficient funds, the failed intent and charge kept', async () => {
    const customerId = await customer();
    await addCard(customerId, '4000 0000 0000 9995');
    const k1 = key('charge');
    const result = await charge(customerId, k1);
    expect(result).toEqual({ status: 'declined', paymentIntentId: expect.stringMatching(/^pi_/), declineCode: 'insufficient_funds' });
    const pi = await stored((result as { paymentIntentId: string }).paymentIntentId);
    expect(pi).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' },
    });
    expect(await getObject<SandboxCharge>(k.db, 'charge', pi.latest_charge!, { account: null })).toMatchObject({ status: 'failed' });
    // A repeat is the same decline, not a second attempt.
    expect(await charge(customerId, k1)).toEqual(result);
    expect(await intentsOf(customerId)).toBe(1);
  });

  it('no card saved: no_payment_method and nothing stored; an unknown customer or too small an amount is Stripe’s refusal', async () => {
    const customerId = await customer();
    const k1 = key('charge');
    expect(await charge(customerId, k1)).toEqual({ status: 'no_payment_method' });
    expect(await intentsOf(customerId)).toBe(0);
    // The key made nothing: once a card is saved, it charges.
    await addCard(customerId, '4242 4242 4242 4242');
    expect(await charge(customerId, k1)).toMatchObject({ status: 'succeeded' });

    await expect(charge('cus_missing', key('charge'))).rejects.toThrow(/No such customer: 'cus_missing'/);
    await expect(charge(customerId, key('charge'), 49)).rejects.toMatchObject({ code: 'amount_too_small' });
  });

  it('the customer’s default card (invoice_settings), else its newest; a default removed from the customer is passed over', async () => {
    const { customerId, paymentMethodId: first } = await subscribed();
    // The newest card (the portal makes it the plan's default) is charged: declined.
    await addCard(customerId, '4000 0000 0000 9995');
    expect(await charge(customerId, key('charge'))).toMatchObject({ status: 'declined', declineCode: 'insufficient_funds' });
    // The customer's default, as Stripe's API or Dashboard sets it, comes first.
    const cus = await getObject<SandboxCustomer>(k.db, 'customer', customerId, { account: null });
    await saveObject(k.db, { ...cus, invoice_settings: { default_payment_method: first } });
    const paid = await charge(customerId, key('charge'));
    expect(paid).toMatchObject({ status: 'succeeded' });
    expect((await stored((paid as { paymentIntentId: string }).paymentIntentId)).payment_method).toBe(first);
    // Removed on the portal (no longer the plan's card): detached, so the newest attached one is charged again.
    const { id: portal } = await billing().portals.create(customerId, `${PUBLIC_URL}/settings/workspace/plan`);
    expect(await billing().portals.removeCard(portal, first)).toMatchObject({ notice: expect.stringContaining('eliminada') });
    expect(await charge(customerId, key('charge'))).toMatchObject({ status: 'declined' });
  });
});

describe('refundCharge in the sandbox', () => {
  it('refunds a succeeded charge in full, once per key; a second refund, an unknown or a declined intent are refused', async () => {
    const customerId = await customer();
    await addCard(customerId, '4242 4242 4242 4242');
    const paid = (await charge(customerId, key('charge'), 8700)) as { paymentIntentId: string };
    const k1 = key('refund');
    const refund = await billing().refundCharge({ paymentIntentId: paid.paymentIntentId, idempotencyKey: k1 });
    expect(refund).toEqual({ refundId: expect.stringMatching(/^re_[0-9A-Za-z]{24}$/), amount: 8700 });
    expect(await findObject<SandboxRefund>(k.db, 'refund', refund.refundId, { account: null })).toMatchObject({
      status: 'succeeded',
      amount: 8700,
      payment_intent: paid.paymentIntentId,
    });
    const pi = await stored(paid.paymentIntentId);
    expect(await getObject<SandboxCharge>(k.db, 'charge', pi.latest_charge!, { account: null })).toMatchObject({
      amount_refunded: 8700,
      refunded: true,
    });

    expect(await billing().refundCharge({ paymentIntentId: paid.paymentIntentId, idempotencyKey: k1 })).toEqual(refund);
    expect(
      await countRows(
        sql`SELECT count(*) AS n FROM sandbox_stripe_objects WHERE type = 'refund' AND data->>'payment_intent' = ${paid.paymentIntentId}`,
      ),
    ).toBe(1);
    await expect(billing().refundCharge({ paymentIntentId: paid.paymentIntentId, idempotencyKey: key('refund') })).rejects.toMatchObject({
      code: 'charge_already_refunded',
    });
    await expect(billing().refundCharge({ paymentIntentId: 'pi_missing', idempotencyKey: key('refund') })).rejects.toThrow(
      /No such payment_intent: 'pi_missing'/,
    );

    const declined = await customer();
    await addCard(declined, '4000 0000 0000 9995');
    const failed = (await charge(declined, key('charge'))) as { paymentIntentId: string };
    await expect(billing().refundCharge({ paymentIntentId: failed.paymentIntentId, idempotencyKey: key('refund') })).rejects.toMatchObject({
      code: 'charge_not_refundable',
    });
  });
});
