import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { BookingConfirmResult, BookingHold, BookingService } from '@divan/core';
import { randomUUID } from 'node:crypto';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { at, bookingKit, type Kit } from './booking-flow.testkit';

// Two workspaces taking booking payments on their own connected accounts. A checkout B opens and
// completes on its own account, with metadata naming A's hold, neither books A's slot, nor refunds
// anything, nor saves B's card on a patient of A: only the checkout A created, on A's account, does.
const now = new Date('2026-11-28T10:00:00Z');
let t: TestApp;
let a: Kit;
let b: Kit;
let accountB: string;
const sandbox = () => t.app.services.paymentsSandbox!;
const lastSegment = (url: string) => new URL(url).pathname.split('/').pop()!;
const card = { number: '4242424242424242', exp: '12/30', cvc: '123' };
const sessionsAt = (startsAt: string) =>
  t.rows<{ workspace_id: string; payment_status: string }>(
    sql`select * from sessions where starts_at = ${startsAt} and status <> 'canceled'`,
  );

async function connect(k: Kit): Promise<string> {
  const token = k.owner.accessToken;
  const created = json<{ accountId: string }>(await t.post('/api/v1/me/payment-account', undefined, { token }));
  const { url } = json<{ url: string }>(await t.post('/api/v1/me/payment-account/onboarding-link', undefined, { token }));
  await sandbox().hosted.completeOnboarding(lastSegment(url), { businessName: 'Olga Terapeuta', iban: 'ES91 2100 0418 4502 0005 1332' });
  expect(json(await t.post('/api/v1/me/payment-account/sync', undefined, { token }))).toMatchObject({ chargesEnabled: true });
  return created.accountId;
}

/** A's visitor holds and proves the email: the checkout A opened, and the hold it is for. */
async function heldForPayment(service: BookingService, startsAt: string, email: string) {
  const held = await a.hold(service, startsAt, email);
  expect(held.statusCode, held.body).toBe(201);
  const { holdId } = json<BookingHold>(held);
  const res = await a.confirm(holdId, await a.codeFor(email));
  expect(res.statusCode, res.body).toBe(200);
  return { holdId, result: json<BookingConfirmResult & { status: 'payment_required' }>(res) };
}

/** The app has taken the sandbox's `type` event about `objectId`: its payment_events row. */
async function handled(objectId: string, type: string) {
  const [event] = await until(
    () =>
      t.rows<{ id: string }>(
        sql`select id from sandbox_stripe_objects where type = 'event' and data->>'type' = ${type} and data->'data'->'object'->>'id' = ${objectId}`,
      ),
    (rows) => rows.length > 0,
  );
  expect(event, `${type} of ${objectId}`).toBeDefined();
  const [row] = await until(
    () => t.rows<{ account: string; ignored: string | null }>(sql`select * from payment_events where event_id = ${event!.id}`),
    (rows) => rows.length > 0,
    20_000,
  );
  return row;
}

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  a = await bookingKit(t, 'cobros-a');
  b = await bookingKit(t, 'cobros-b');
  await connect(a);
  accountB = await connect(b);
}, 60_000);
afterAll(() => t?.close());

describe("a booking checkout of another connected account naming this workspace's hold", () => {
  it("paid on B's account: A's slot is not booked and nothing is refunded; A's own checkout then books it", async () => {
    const paid = await a.createService({ title: 'Sesión pagada', payment: 'pay' });
    const startsAt = at('2026-11-30', '09:00');
    const { holdId, result } = await heldForPayment(paid, startsAt, 'visita@a.test');

    const metadata = { purpose: 'booking', holdId, workspaceId: a.ws.id };
    const onB = await sandbox().checkoutPayment(accountB, {
      customerId: null,
      customerEmail: 'x@b.test',
      amount: 6000,
      description: 'De B',
      successUrl: 'http://b.test/ok',
      cancelUrl: 'http://b.test/no',
      metadata,
      idempotencyKey: randomUUID(),
    });
    expect(await sandbox().hosted.submitCard(onB.id, card)).toMatchObject({ kind: 'redirect' });
    const event = await handled(onB.id, 'checkout.session.completed');
    expect(await sessionsAt(startsAt)).toEqual([]);
    expect(await t.rows(sql`select id from sandbox_stripe_objects where type = 'refund'`)).toEqual([]);
    expect(event).toMatchObject({ account: accountB, ignored: expect.stringContaining('was not created here') });

    expect(await sandbox().hosted.submitCard(lastSegment(result.checkoutUrl), card)).toMatchObject({ kind: 'redirect' });
    const [session] = await until(
      () => sessionsAt(startsAt),
      (rows) => rows.length > 0,
    );
    expect(session).toMatchObject({ workspace_id: a.ws.id, payment_status: 'paid' });
  });

  it("a card saved on B's account: A's slot is not booked and no patient of A gets B's card", async () => {
    const withCard = await a.createService({ title: 'Con tarjeta', payment: 'card' });
    const startsAt = at('2026-12-02', '09:00');
    const { holdId } = await heldForPayment(withCard, startsAt, 'tarjeta@a.test');

    const customer = await sandbox().createCustomer(accountB, { email: 'tarjeta@a.test', name: 'Lola Martín', metadata: {} });
    const onB = await sandbox().checkoutSetup(accountB, {
      customerId: customer.id,
      successUrl: 'http://b.test/ok',
      cancelUrl: 'http://b.test/no',
      metadata: { purpose: 'booking', holdId, workspaceId: a.ws.id },
    });
    expect(await sandbox().hosted.submitCard(onB.id, card)).toMatchObject({ kind: 'redirect' });
    const event = await handled(onB.id, 'checkout.session.completed');
    expect(await sessionsAt(startsAt)).toEqual([]);
    expect(await t.rows(sql`select id from patients where email = 'tarjeta@a.test'`)).toEqual([]);
    expect(await t.rows(sql`select patient_id from patient_cards where account_id = ${accountB}`)).toEqual([]);
    expect(event).toMatchObject({ account: accountB, ignored: expect.stringContaining('was not created here') });
  });
});
