import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { SELF_SERVE_MAX_SEATS, type BillingCheckout, type BillingCheckoutStatus, type BillingOverview, type Workspace } from '@divan/core';
import { sandboxBillingWebhookSecret, sandboxWebhookSecret } from '../../platform/payments/create-gateway';
import { giveBillingDetails, platformEventsTaken } from '../../test/billing-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';

// Diván's own plans (issue 27, slice 1) on the built-in sandbox's Billing: the plans page's state, a
// Checkout for Premium yearly paid with a test card, the platform webhook that applies it (never the
// redirect), replays, a stale event, and who may buy.
let t: TestApp;
let owner: Therapist;
let tere: Therapist;
let rosa: Therapist;
let ws: Workspace;
const B = () => `/api/v1/workspaces/${ws.id}/billing`;
const ok = async <T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as T;
};
const sandbox = () => t.app.services.paymentsSandbox!;
const lastSegment = (url: string) => new URL(url).pathname.split('/').pop()!;
const workspace = async (who = owner) => ok<Workspace>(t.get(`/api/v1/workspaces/${ws.id}`, { token: who.accessToken }));
/** A platform event, signed as Stripe signs for the billing endpoint (or another secret). */
function signed(type: string, object: Record<string, unknown>, secret = sandboxBillingWebhookSecret(t.config.appSecret)) {
  const payload = JSON.stringify({
    id: `evt_test_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
  });
  return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}
const post = (url: string, e: { payload: string; header: string }) =>
  t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', 'stripe-signature': e.header }, payload: e.payload });

let checkout: BillingCheckout;

beforeAll(async () => {
  t = await createTestApp();
  const set = await withWorkspace(t, 'Consulta Planes', {
    owner: { email: 'olga@planes.test', firstName: 'Olga' },
    members: {
      tere: { email: 'tere@planes.test', firstName: 'Tere', role: 'Terapeuta' },
      rosa: { email: 'rosa@planes.test', firstName: 'Rosa', role: 'Recepción' },
    },
  });
  ({ owner, ws } = set);
  ({ tere, rosa } = set.members);
  await giveBillingDetails(t, owner, ws.id);
  // A pending invitation is not an active user.
  await ok(
    t.post(
      `${B().replace('/billing', '')}/invitations`,
      { email: 'pendiente@planes.test', roleIds: [ws.roles[0]!.id] },
      { token: owner.accessToken },
    ),
    201,
  );
});
afterAll(() => t?.close());

describe("Diván's plans on the sandbox's Billing", () => {
  it('shows the plans page its state: no subscription, three active users, who may buy', async () => {
    expect(await ok<BillingOverview>(t.get(B(), { token: owner.accessToken }))).toEqual({
      available: true,
      mode: 'test',
      canManage: true,
      activeUsers: 3,
      subscription: null,
    });
    expect((await ok<BillingOverview>(t.get(B(), { token: tere.accessToken }))).canManage).toBe(false);
  });

  it('refuses Team (on contact), an unknown plan, and a member without workspace billing', async () => {
    const team = await t.post(`${B()}/checkout`, { planId: 'team', interval: 'year' }, { token: owner.accessToken });
    expect([team.statusCode, team.json().code]).toEqual([400, 'therapist_plan_invalid']);
    const gold = await t.post(`${B()}/checkout`, { planId: 'gold', interval: 'year' }, { token: owner.accessToken });
    expect(gold.statusCode).toBe(400);
    expect(gold.json().fields[0].message).toBe('Elige un plan');
    for (const who of [tere, rosa]) {
      const res = await t.post(`${B()}/checkout`, { planId: 'advance', interval: 'year' }, { token: who.accessToken });
      expect([res.statusCode, res.json().code]).toEqual([403, 'access_denied']);
    }
    const [none] = await t.rows<{ n: number }>(sql`select count(*)::int as n from billing_checkouts`);
    expect(none!.n).toBe(0);
  });

  it('opens one Checkout for Premium yearly on the platform account, the same for a double click', async () => {
    const body = { planId: 'advance', interval: 'year' };
    const [a, b] = await Promise.all([
      ok<BillingCheckout>(t.post(`${B()}/checkout`, body, { token: owner.accessToken })),
      ok<BillingCheckout>(t.post(`${B()}/checkout`, body, { token: owner.accessToken })),
    ]);
    expect(b.sessionId).toBe(a.sessionId);
    checkout = a;
    expect(a.url).toMatch(/\/sandbox\/stripe\/checkout\/cs_test_/);
    const view = await sandbox().hosted.checkout(lastSegment(a.url));
    expect(view).toMatchObject({ kind: 'checkout', step: 'card', sellerName: 'Diván' });
    // Three users at 290 € a year, VAT apart (and 21 % IVA on top: a customer in Madrid); on the platform (no connected account).
    const session = (view as { session: Record<string, unknown> }).session;
    expect(session).toMatchObject({
      mode: 'subscription',
      amount_total: 105270,
      line_items: [{ quantity: 3, unit_amount: 29000, interval: 'year' }],
    });
    const [row] = await t.rows<{ account: string | null }>(sql`select account from sandbox_stripe_objects where id = ${a.sessionId}`);
    expect(row!.account).toBeNull();
    expect(await ok<BillingCheckoutStatus>(t.get(`${B()}/checkout/${a.sessionId}`, { token: owner.accessToken }))).toEqual({
      status: 'open',
      applied: false,
      planId: 'advance',
      interval: 'year',
    });
  });

  it('keeps the workspace in trial after a declined card, and puts Premium on once the webhook says it is paid', async () => {
    const id = lastSegment(checkout.url);
    const declined = await sandbox().hosted.submitCard(id, { number: '4000 0000 0000 0002', exp: '12/30', cvc: '123' });
    expect(declined).toMatchObject({ kind: 'checkout', error: { title: 'Tarjeta rechazada' } });
    expect((await workspace()).plan.id).toBeNull();

    const done = await sandbox().hosted.submitCard(id, { number: '4242 4242 4242 4242', exp: '12/30', cvc: '123' });
    expect(done).toEqual({ kind: 'redirect', url: `${t.config.publicUrl}/plans/payment-success?session_id=${id}&workspace=${ws.id}` });
    const status = await until(
      () => ok<BillingCheckoutStatus>(t.get(`${B()}/checkout/${id}`, { token: owner.accessToken })),
      (s) => s.applied,
    );
    expect(status).toEqual({ status: 'complete', applied: true, planId: 'advance', interval: 'year' });
    const after = await workspace();
    expect(after.plan).toMatchObject({ id: 'advance', seats: SELF_SERVE_MAX_SEATS, renovationEnabled: true, promptUpgrade: false });
    const days = (Date.parse(after.plan.periodEnd!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(367);
    expect(after.features.canCreateInvoiceBatch).toBe(true);
    expect((await ok<BillingOverview>(t.get(B(), { token: tere.accessToken }))).subscription).toMatchObject({
      planId: 'advance',
      interval: 'year',
      status: 'active',
      quantity: 3,
      unitAmount: 29000,
      cancelAtPeriodEnd: false,
    });
    const again = await t.post(`${B()}/checkout`, { planId: 'basic', interval: 'month' }, { token: owner.accessToken });
    expect([again.statusCode, again.json().code]).toEqual([409, 'therapist_already_subscribed']);
    const [audit] = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from audit_events where workspace_id = ${ws.id} and action = 'plan.changed'`,
    );
    expect(audit!.n).toBe(1);
  });

  it('takes every event once: the sandbox’s own deliveries replayed change nothing', async () => {
    await platformEventsTaken(t);
    const events = await t.rows<{ id: string }>(
      sql`select id from sandbox_stripe_objects where type = 'event' and account is null order by created_at`,
    );
    expect(events.length).toBeGreaterThanOrEqual(4);
    for (const { id } of events) {
      const { payload, signature } = await sandbox().signedEvent(id);
      const res = await post('/api/v1/billing/webhook', { payload, header: signature });
      expect(res.json()).toEqual({ received: true, duplicate: true });
    }
    expect((await workspace()).plan).toMatchObject({ id: 'advance', seats: SELF_SERVE_MAX_SEATS });
  });

  it('refuses a bad signature, and the Connect endpoint refuses a platform event (each endpoint its own secret)', async () => {
    const forged = signed('customer.subscription.deleted', { id: 'sub_x' }, 'whsec_otro');
    const res = await post('/api/v1/billing/webhook', forged);
    expect([res.statusCode, res.json().code]).toEqual([400, 'webhook_signature_invalid']);
    const [sub] = await t.rows<{ id: string }>(sql`select subscription_id as id from billing_subscriptions where workspace_id = ${ws.id}`);
    const wrongDoor = await post('/api/v1/payments/webhook', signed('customer.subscription.deleted', { id: sub!.id }));
    expect(wrongDoor.statusCode).toBe(400);
    const connectSigned = signed('customer.subscription.deleted', { id: sub!.id }, sandboxWebhookSecret(t.config.appSecret));
    expect((await post('/api/v1/billing/webhook', connectSigned)).statusCode).toBe(400);
    expect((await workspace()).plan.id).toBe('advance');
  });

  it('reads the subscription again on each event: a stale «active» after the provider canceled it ends the plan', async () => {
    const [sub] = await t.rows<{ id: string }>(sql`select subscription_id as id from billing_subscriptions where workspace_id = ${ws.id}`);
    // The provider ended it (as its dashboard or a failed renewal would), then an old event arrives.
    await t.rows(sql`update sandbox_stripe_objects set data = jsonb_set(data, '{status}', '"canceled"') where id = ${sub!.id}`);
    const stale = signed('customer.subscription.updated', { id: sub!.id, object: 'subscription', status: 'active' });
    expect((await post('/api/v1/billing/webhook', stale)).json()).toEqual({ received: true, duplicate: false });
    const after = await workspace();
    expect(after.plan).toMatchObject({ id: null, promptUpgrade: true });
    // Nothing deleted: the trial's features (still running) are in force again.
    expect(after.features.canCreateInvoiceBatch).toBe(true);
    expect((await ok<BillingOverview>(t.get(B(), { token: owner.accessToken }))).subscription?.status).toBe('canceled');
  });

  it('does not sell Basic or Premium over a Team plan an operator set', async () => {
    const team = await withWorkspace(t, 'Clínica Team', {
      owner: { email: 'team@planes.test', firstName: 'Teo' },
      plan: { id: 'team', seats: 5 },
    });
    const res = await t.post(
      `/api/v1/workspaces/${team.ws.id}/billing/checkout`,
      { planId: 'advance', interval: 'year' },
      { token: team.owner.accessToken },
    );
    expect([res.statusCode, res.json().code]).toEqual([409, 'therapist_already_subscribed']);
  });

  it('answers another workspace’s Checkout as not found', async () => {
    const other = await withWorkspace(t, 'Otra consulta', { owner: { email: 'otra@planes.test', firstName: 'Otra' } });
    const res = await t.get(`/api/v1/workspaces/${other.ws.id}/billing/checkout/${checkout.sessionId}`, { token: other.owner.accessToken });
    expect([res.statusCode, res.json().code]).toEqual([404, 'billing_checkout_not_found']);
  });
});
