import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { BillingDetailsResponse, BillingOverview, DivanInvoices, Workspace } from '@divan/core';
import { FRENCH_BUSINESS, giveBillingDetails, platformEventsTaken, postPlatformEvent, subscribe } from '../../test/billing-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';

// The sandbox's test clock (issue 27, slice 4; decision 0026 §6): a renewal paid, and a renewal whose
// card is declined (4000 0000 0000 0341) — the owner mailed once, the plan kept while the provider
// retries (1, 3, 5 and 7 days later), Basic when the retries end (nothing deleted), and Premium back
// when a new card pays the open invoice; each paid charge with its Diván invoice.
let t: TestApp;
const DAY = 86_400;
const B = (wid: string) => `/api/v1/workspaces/${wid}/billing`;
const sandbox = () => t.app.services.paymentsSandbox!.billing!;

type Subscribed = { owner: Therapist; wid: string; subscriptionId: string; periodEnd: number };
async function subscribed(name: string, email: string, interval: 'month' | 'year' = 'month'): Promise<Subscribed> {
  const { owner, ws } = await withWorkspace(t, name, { owner: { email, firstName: name.split(' ')[1]! } });
  await subscribe(t, owner, ws.id, { planId: 'advance', interval });
  await platformEventsTaken(t);
  const [row] = await t.rows<{ id: string; end: string }>(
    sql`select subscription_id as id, extract(epoch from current_period_end)::bigint::text as end from billing_subscriptions where workspace_id = ${ws.id}`,
  );
  return { owner, wid: ws.id, subscriptionId: row!.id, periodEnd: Number(row!.end) };
}
const workspace = async (s: Subscribed) => (await t.get(`/api/v1/workspaces/${s.wid}`, { token: s.owner.accessToken })).json() as Workspace;
const overview = async (s: Subscribed) => (await t.get(B(s.wid), { token: s.owner.accessToken })).json() as BillingOverview;
const invoices = async (s: Subscribed) =>
  ((await t.get(`${B(s.wid)}/invoices`, { token: s.owner.accessToken })).json() as DivanInvoices).items;
async function advance(s: Subscribed, to: number) {
  const sub = await sandbox().renewals.advance(s.subscriptionId, to);
  await platformEventsTaken(t);
  return sub;
}
/** A card added on the provider's portal (it becomes the subscription's default), as the owner does it. */
async function addCard(s: Subscribed, number: string) {
  const { url } = (await t.post(`${B(s.wid)}/portal`, {}, { token: s.owner.accessToken })).json() as { url: string };
  const view = await sandbox().portals.addCard(new URL(url).pathname.split('/').pop()!, { number, exp: '12/30', cvc: '123' });
  expect(view).toMatchObject({ notice: expect.stringContaining('añadida') });
  await platformEventsTaken(t);
}
const failureMails = (s: Subscribed) =>
  t.rows<{ key: string }>(sql`select key from mail_outbox where purpose = 'billing' and workspace_id = ${s.wid}`);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('renewals on the test clock', () => {
  it('renews at the period’s end: charged to the card, the next period, its own Diván invoice', async () => {
    const s = await subscribed('Consulta Rita', 'rita@renueva.test');
    // Through the sandbox's endpoint, as a person testing by hand would (Stripe's test_clocks.advance).
    const res = await t.app.inject({
      method: 'POST',
      url: '/sandbox/stripe/test_clocks/advance',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ subscription: s.subscriptionId, frozen_time: String(s.periodEnd + 60) }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: s.subscriptionId, status: 'active', current_period_end: expect.any(Number) });
    await platformEventsTaken(t);
    const after = await overview(s);
    expect(Date.parse(after.subscription!.currentPeriodEnd!) / 1000).toBeGreaterThan(s.periodEnd + 27 * DAY);
    expect((await workspace(s)).plan.id).toBe('advance');
    const items = await invoices(s);
    expect(items.map((i) => i.number)).toHaveLength(2);
    expect(new Set(items.map((i) => i.number)).size).toBe(2);
    // Nothing more happens until the next period ends.
    await advance(s, s.periodEnd + 10 * DAY);
    expect(await invoices(s)).toHaveLength(2);
  });

  it('a declined renewal: one mail, Premium kept while retried, Basic after the last retry, Premium back when a new card pays', async () => {
    const s = await subscribed('Consulta Dalia', 'dalia@renueva.test');
    // Its trial long over (a workspace without a plan would otherwise be back in it).
    await t.rows(sql`update workspaces set free_trial_end = now() - interval '1 day' where id = ${s.wid}`);
    await addCard(s, '4000 0000 0000 0341');
    // The renewal is declined: past due, the plan in force, the owner told once.
    expect((await advance(s, s.periodEnd + 60)).status).toBe('past_due');
    expect((await overview(s)).subscription).toMatchObject({ status: 'past_due', planId: 'advance' });
    expect((await workspace(s)).plan.id).toBe('advance');
    // Mailed after the event is recorded: waited for.
    expect(
      await until(
        () => failureMails(s),
        (m) => m.length > 0,
      ),
    ).toEqual([{ key: expect.stringMatching(/^billing-renewal-failed:in_/) }]);
    // Retried after 1, 3 and 5 days: still declined, still Premium, no second mail.
    expect((await advance(s, s.periodEnd + 6 * DAY)).status).toBe('past_due');
    expect((await workspace(s)).plan.id).toBe('advance');
    const [open] = await t.rows<{ attempts: number }>(
      sql`select (data->>'attempt_count')::int as attempts from sandbox_stripe_objects
          where type = 'invoice' and data->>'status' = 'open' and data->'parent'->'subscription_details'->>'subscription' = ${s.subscriptionId}`,
    );
    expect(open!.attempts).toBe(4);
    expect(await failureMails(s)).toHaveLength(1);
    // The last retry, a week after the renewal, fails too: Basic's features, nothing deleted.
    expect((await advance(s, s.periodEnd + 8 * DAY)).status).toBe('unpaid');
    const lapsed = await workspace(s);
    expect(lapsed.plan).toMatchObject({ id: null });
    expect(lapsed.features).toMatchObject({ activePatientLimit: 30, canCreateInvoiceBatch: false });
    expect(await invoices(s)).toHaveLength(1);
    // A working card on the portal pays the open invoice at once: Premium again, and its Diván invoice.
    await addCard(s, '4242 4242 4242 4242');
    expect((await overview(s)).subscription).toMatchObject({ status: 'active', planId: 'advance' });
    expect((await workspace(s)).plan.id).toBe('advance');
    expect(await invoices(s)).toHaveLength(2);
  });

  it('new billing data in another tax case: the next renewal is charged and invoiced by it (an EU business: no IVA)', async () => {
    const s = await subscribed('Consulta Lore', 'lore@renueva.test');
    expect((await invoices(s))[0]).toMatchObject({ vatRate: 21 });
    await giveBillingDetails(t, s.owner, s.wid, FRENCH_BUSINESS);
    await advance(s, s.periodEnd + 60);
    const [renewal, first] = await invoices(s);
    expect(renewal).toMatchObject({ vatRate: 0, vat: 0, total: renewal!.subtotal });
    expect(first).toMatchObject({ vatRate: 21 });
    const [charged] = await t.rows<{ total: number; subtotal: number }>(
      sql`select (data->>'total')::int as total, (data->>'subtotal')::int as subtotal from sandbox_stripe_objects
          where type = 'invoice' and data->>'billing_reason' = 'subscription_cycle' and data->>'customer' = (
            select customer_id from billing_customers where workspace_id = ${s.wid})`,
    );
    expect(charged!.total).toBe(charged!.subtotal);
  });

  it('ends at the period’s end when the renewal is off: nothing charged, Basic after', async () => {
    const s = await subscribed('Consulta Fina', 'fina@renueva.test');
    expect((await t.post(`${B(s.wid)}/subscription/cancel`, {}, { token: s.owner.accessToken })).statusCode).toBe(200);
    await platformEventsTaken(t);
    expect((await advance(s, s.periodEnd + DAY)).status).toBe('canceled');
    expect((await workspace(s)).plan.id).toBeNull();
    expect(await invoices(s)).toHaveLength(1);
  });

  it('yearly → monthly at the renewal: the year kept, then a month charged on the monthly price for the users billed then', async () => {
    const s = await subscribed('Consulta Nieves', 'nieves@renueva.test', 'year');
    const put = await t.put(`${B(s.wid)}/subscription`, { planId: 'advance', interval: 'month' }, { token: s.owner.accessToken });
    expect(put.statusCode, put.body).toBe(200);
    await platformEventsTaken(t);
    // A second user joins before the renewal (the seats job pushes the quantity): the schedule's month takes it too.
    await sandbox().updateSubscription(s.subscriptionId, { quantity: 2, proration: 'none', idempotencyKey: 'renewals-test:seat' });
    await advance(s, s.periodEnd - DAY);
    expect((await overview(s)).subscription).toMatchObject({ interval: 'year', quantity: 2, scheduledChange: { interval: 'month' } });
    const sub = await advance(s, s.periodEnd + 60);
    expect(sub.items.data[0]).toMatchObject({ quantity: 2, price: { lookup_key: 'divan_advance_month' } });
    expect(sub.schedule).toBeNull();
    const after = await overview(s);
    expect(after.subscription).toMatchObject({ planId: 'advance', interval: 'month', quantity: 2, scheduledChange: null });
    const end = Date.parse(after.subscription!.currentPeriodEnd!) / 1000;
    expect(end - s.periodEnd).toBeGreaterThan(27 * DAY);
    expect(end - s.periodEnd).toBeLessThan(32 * DAY);
    expect((await workspace(s)).plan.id).toBe('advance');
    // The renewal's Diván invoice: 2 × 29 € and its IVA.
    const [renewal] = await invoices(s);
    expect(renewal).toMatchObject({ subtotal: 2 * 2900, vatRate: 21, vat: 1218, total: 2 * 2900 + 1218 });
    // The month after renews monthly, with no schedule left.
    await advance(s, end + 60);
    const [next] = await invoices(s);
    expect(next).toMatchObject({ subtotal: 2 * 2900 });
    expect(await invoices(s)).toHaveLength(3);
  });

  it('a VAT id VIES does not know is invoiced with IVA; corrected and verified, the next renewal is reverse charge', async () => {
    const s = await subscribed('Consulta Vera', 'vera@renueva.test');
    const details = () => t.get(`${B(s.wid)}/details`, { token: s.owner.accessToken }).then((r) => r.json() as BillingDetailsResponse);
    // The sandbox's VIES knows no id ending in 111111111: its verdict arrives by the provider's event.
    await giveBillingDetails(t, s.owner, s.wid, { ...FRENCH_BUSINESS, vatId: 'FR12111111111' });
    await platformEventsTaken(t);
    expect(await details()).toMatchObject({
      vatCheck: { status: 'unverified', verifiedName: null },
      tax: { case: 'eu_consumer', vatRate: 21 },
    });
    await advance(s, s.periodEnd + 60);
    expect((await invoices(s))[0]).toMatchObject({ vatRate: 21, vat: 609 });
    // The id corrected: checked again, verified with VIES' name, and the next renewal goes without IVA.
    await giveBillingDetails(t, s.owner, s.wid, FRENCH_BUSINESS);
    await platformEventsTaken(t);
    expect(await details()).toMatchObject({
      vatCheck: { status: 'verified', verifiedName: 'CABINET MARIE SARL' },
      tax: { case: 'reverse_charge', vatRate: 0 },
    });
    const end = Date.parse((await overview(s)).subscription!.currentPeriodEnd!) / 1000;
    await advance(s, end + 60);
    const [renewal] = await invoices(s);
    expect(renewal).toMatchObject({ vatRate: 0, vat: 0, total: renewal!.subtotal });
    // A replayed verdict changes nothing; one about a VAT id the data no longer hold is not kept.
    const taxId = (
      await t.rows<{ id: string }>(
        sql`select data->'tax_ids'->0->>'id' as id from sandbox_stripe_objects where id = (select customer_id from billing_customers where workspace_id = ${s.wid})`,
      )
    )[0]!.id;
    const customerId = (
      await t.rows<{ id: string }>(sql`select customer_id as id from billing_customers where workspace_id = ${s.wid}`)
    )[0]!.id;
    const replay = await postPlatformEvent(t, 'customer.tax_id.updated', { id: taxId, object: 'tax_id', customer: customerId });
    expect(replay.statusCode).toBe(200);
    expect((await details()).vatCheck).toMatchObject({ status: 'verified' });
  });
});
