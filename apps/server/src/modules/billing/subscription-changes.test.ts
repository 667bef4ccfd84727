import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { BillingChangePreview, BillingOverview, Workspace } from '@divan/core';
import { platformEventsTaken, subscribe } from '../../test/billing-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';
import { until } from '../../test/until';
import { changePlan } from './subscription-changes.service';

// Workspace › Plan (issue 27, slice 2) on the sandbox's Billing: up now with the provider's proration,
// down at the renewal keeping what was paid for, monthly → yearly, renewal off and on, and what is refused.
let t: TestApp;
let owner: Therapist;
let tere: Therapist;
let ws: Workspace;
const B = () => `/api/v1/workspaces/${ws.id}/billing`;
const ok = async <T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as T;
};
const refused = async (res: Promise<{ statusCode: number; json(): unknown }>) => {
  const r = await res;
  return [r.statusCode, (r.json() as { code: string }).code];
};
const workspace = () => ok<Workspace>(t.get(`/api/v1/workspaces/${ws.id}`, { token: owner.accessToken }));
const overview = () => ok<BillingOverview>(t.get(B(), { token: owner.accessToken }));
const preview = (body: object) => ok<BillingChangePreview>(t.post(`${B()}/subscription/preview`, body, { token: owner.accessToken }));
const change = (body: object) => ok<BillingOverview>(t.put(`${B()}/subscription`, body, { token: owner.accessToken }));

beforeAll(async () => {
  t = await createTestApp();
  const set = await withWorkspace(t, 'Consulta Cambios', {
    owner: { email: 'olga@cambios.test', firstName: 'Olga' },
    members: { tere: { email: 'tere@cambios.test', firstName: 'Tere', role: 'Terapeuta' } },
  });
  ({ owner, ws } = set);
  tere = set.members.tere;
  await subscribe(t, owner, ws.id, { planId: 'basic', interval: 'month' });
});
afterAll(() => t?.close());

describe('what a change does', () => {
  const row = (planId: 'basic' | 'advance', interval: 'month' | 'year', paidPlanId: 'basic' | 'advance' | null = null) => ({
    planId,
    interval,
    paidPlanId,
    scheduledPlanId: null,
  });
  it('up now, down at the renewal, monthly → yearly now, back to what is paid for free, yearly → monthly at the renewal', () => {
    expect(changePlan(row('basic', 'month'), { planId: 'advance', interval: 'month' })).toEqual({
      effective: 'now',
      proration: 'create_prorations',
    });
    expect(changePlan(row('advance', 'month'), { planId: 'basic', interval: 'month' })).toEqual({
      effective: 'period_end',
      proration: 'none',
    });
    expect(changePlan(row('advance', 'month'), { planId: 'basic', interval: 'year' })).toEqual({
      effective: 'now',
      proration: 'create_prorations',
    });
    expect(changePlan(row('basic', 'month', 'advance'), { planId: 'advance', interval: 'month' })).toEqual({
      effective: 'now',
      proration: 'none',
    });
    expect(changePlan(row('advance', 'year'), { planId: 'basic', interval: 'month' })).toEqual({
      effective: 'period_end',
      proration: 'none',
      via: 'schedule',
    });
    expect(changePlan({ ...row('advance', 'year'), scheduledPlanId: 'advance' }, { planId: 'advance', interval: 'year' })).toEqual({
      effective: 'now',
      proration: 'none',
      via: 'release',
    });
    expect(() => changePlan(row('basic', 'month'), { planId: 'basic', interval: 'month' })).toThrow(/ya tiene ese plan/);
    expect(() => changePlan(row('basic', 'month'), { planId: 'team', interval: 'month' })).toThrow(/Team/);
  });
});

describe('Workspace › Plan on the sandbox', () => {
  it('Basic → Premium now: the preview is the provider’s proration, the features at once', async () => {
    const p = await preview({ planId: 'advance', interval: 'month' });
    expect(p.effective).toBe('now');
    // Two users, a month just begun: about the whole difference, 2 × (29 − 19) €, less the seconds gone.
    expect(p.proration).toBeGreaterThan(1990);
    expect(p.proration).toBeLessThanOrEqual(2000);
    expect(p.subtotal).toBe(2 * 2900 + p.proration);
    expect(p.lines.filter((l) => l.proration).map((l) => Math.sign(l.amount))).toEqual([-1, 1]);
    const after = await change({ planId: 'advance', interval: 'month' });
    expect(after.subscription).toMatchObject({ planId: 'advance', interval: 'month', quantity: 2, unitAmount: 2900, paidPlan: null });
    expect((await workspace()).plan.id).toBe('advance');
    // The proration waits on the next invoice: it is what the preview said (to the cent per second gone).
    const pending = await t.rows<{ amount: number }>(
      sql`select (data->>'amount')::int as amount from sandbox_stripe_objects where type = 'invoiceitem' and data->>'invoice' is null`,
    );
    expect(Math.abs(pending.reduce((a, r) => a + r.amount, 0) - p.proration)).toBeLessThanOrEqual(2);
  });

  it('renewal off, refused twice, on again', async () => {
    const off = await ok<BillingOverview>(t.post(`${B()}/subscription/cancel`, undefined, { token: owner.accessToken }));
    expect(off.subscription?.cancelAtPeriodEnd).toBe(true);
    expect((await workspace()).plan).toMatchObject({ id: 'advance', renovationEnabled: false });
    expect(await refused(t.post(`${B()}/subscription/cancel`, undefined, { token: owner.accessToken }))).toEqual([
      409,
      'therapist_already_cancelled',
    ]);
    // With renewal off there is no next invoice to change: reactivate first.
    const put = t.put(`${B()}/subscription`, { planId: 'basic', interval: 'month' }, { token: owner.accessToken });
    expect(await refused(put)).toEqual([409, 'therapist_already_cancelled']);
    const on = await ok<BillingOverview>(t.post(`${B()}/subscription/reactivate`, undefined, { token: owner.accessToken }));
    expect(on.subscription?.cancelAtPeriodEnd).toBe(false);
    expect((await workspace()).plan.renovationEnabled).toBe(true);
    expect(await refused(t.post(`${B()}/subscription/reactivate`, undefined, { token: owner.accessToken }))).toEqual([
      409,
      'therapist_already_subscribed',
    ]);
  });

  it('a webhook that read «renewal off» just before «Reactivar» does not turn it off again after', async () => {
    await platformEventsTaken(t);
    const billing = t.app.services.paymentsSandbox!.billing;
    const read = billing.retrieveSubscription.bind(billing);
    let reached!: () => void;
    const readOff = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let armed = true;
    let resume!: () => void;
    const later = new Promise<void>((r) => (resume = r));
    // The first delivery that reads the renewal off holds its read until «Reactivar» had its chance;
    // the deliveries of «Reactivar»'s own events wait until what is left of the late one was looked at.
    billing.retrieveSubscription = async (id) => {
      const fact = await read(id);
      if (armed && fact.cancelAtPeriodEnd) {
        armed = false;
        reached();
        await gate;
      } else if (!fact.cancelAtPeriodEnd) await later;
      return fact;
    };
    const taken = async () => (await t.rows<{ n: number }>(sql`select count(*)::int as n from billing_events`))[0]!.n;
    try {
      const before = await taken();
      await ok(t.post(`${B()}/subscription/cancel`, undefined, { token: owner.accessToken }));
      await readOff;
      const on = ok<BillingOverview>(t.post(`${B()}/subscription/reactivate`, undefined, { token: owner.accessToken }));
      // Sequencing, not timing: without the subscription's turn «Reactivar» ends here, before the late write.
      await Promise.race([on, new Promise((r) => setTimeout(r, 300))]);
      release();
      expect((await on).subscription?.cancelAtPeriodEnd).toBe(false);
      await until(taken, (n) => n > before);
      // The late read landed (or waited for its turn): the renewal is still on.
      expect((await overview()).subscription?.cancelAtPeriodEnd).toBe(false);
      resume();
      await platformEventsTaken(t);
    } finally {
      billing.retrieveSubscription = read;
      release();
      resume();
    }
    expect((await overview()).subscription?.cancelAtPeriodEnd).toBe(false);
    expect((await workspace()).plan.renovationEnabled).toBe(true);
  });

  it('Premium → Basic waits for the renewal: Premium kept until then, and back to Premium costs nothing', async () => {
    const p = await preview({ planId: 'basic', interval: 'month' });
    expect(p).toMatchObject({ effective: 'period_end', proration: expect.any(Number) });
    expect(p.lines.at(-1)).toMatchObject({ amount: 2 * 1900, proration: false });
    const down = await change({ planId: 'basic', interval: 'month' });
    expect(down.subscription).toMatchObject({
      planId: 'basic',
      paidPlan: { planId: 'advance', until: down.subscription!.currentPeriodEnd },
    });
    expect((await workspace()).plan.id).toBe('advance');
    expect((await workspace()).features.canCreateInvoiceBatch).toBe(true);
    // The webhooks of that change, arriving after, keep it so.
    await platformEventsTaken(t);
    expect((await workspace()).plan.id).toBe('advance');
    const back = await preview({ planId: 'advance', interval: 'month' });
    expect(back).toMatchObject({ effective: 'now' });
    expect(
      back.lines.filter((l) => l.proration && l.description.includes('restante') && l.amount > 0 && !l.description.includes('Premium'))
        .length,
    ).toBe(0);
    const again = await change({ planId: 'advance', interval: 'month' });
    expect(again.subscription).toMatchObject({ planId: 'advance', paidPlan: null });
  });

  it('monthly → yearly now: the year billed at once less the month’s unused time', async () => {
    const p = await preview({ planId: 'advance', interval: 'year' });
    expect(p.effective).toBe('now');
    expect(p.lines.at(-1)).toMatchObject({ amount: 2 * 29000, proration: false });
    const year = await change({ planId: 'advance', interval: 'year' });
    expect(year.subscription).toMatchObject({ planId: 'advance', interval: 'year' });
    const days = (Date.parse((await workspace()).plan.periodEnd!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    const [paid] = await t.rows<{ id: string; subtotal: number; total: number }>(
      sql`select id, (data->>'subtotal')::int as subtotal, (data->>'total')::int as total from sandbox_stripe_objects
          where type = 'invoice' and data->>'billing_reason' = 'subscription_update'`,
    );
    expect(paid!.subtotal).toBe(2 * 29000 + p.proration);
    // Charged with 21 % IVA (a customer in Madrid), and Diván's own invoice for it says the same total.
    await platformEventsTaken(t);
    const [divan] = await until(
      () => t.rows<{ total: number; vat: number }>(sql`select total, vat from billing_invoices where provider_invoice_id = ${paid!.id}`),
      (rows) => rows.length === 1,
    );
    expect(divan).toEqual({ total: paid!.total, vat: paid!.total - paid!.subtotal });
    // The earlier changes' prorations went on that invoice: none left waiting.
    const [waiting] = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from sandbox_stripe_objects where type = 'invoiceitem' and data->>'invoice' is null`,
    );
    expect(waiting!.n).toBe(0);
  });

  it('yearly → monthly waits for the renewal (the provider’s schedule); dropped on request, by the renewal off, or by choosing the year again', async () => {
    const end = (await overview()).subscription!.currentPeriodEnd!;
    const p = await preview({ planId: 'advance', interval: 'month' });
    expect(p).toMatchObject({ effective: 'period_end', proration: 0, nextPaymentAt: end });
    expect(p.lines.at(-1)).toEqual({ description: '2 × Diván Premium mensual', amount: 2 * 2900, proration: false });
    const scheduled = { planId: 'advance', interval: 'month', at: end };
    const monthly = await change({ planId: 'advance', interval: 'month' });
    // Nothing charged, the year kept to its end; the provider's schedule holds the change.
    expect(monthly.subscription).toMatchObject({ planId: 'advance', interval: 'year', currentPeriodEnd: end, scheduledChange: scheduled });
    expect((await workspace()).plan).toMatchObject({ id: 'advance', periodEnd: end });
    const [updates] = await t.rows<{ n: number }>(
      sql`select count(*)::int as n from sandbox_stripe_objects where type = 'invoice' and data->>'billing_reason' = 'subscription_update'`,
    );
    expect(updates!.n).toBe(1);
    // The webhooks of the schedule, taken after, say the same; the next invoice is the month's.
    await platformEventsTaken(t);
    expect((await overview()).subscription?.scheduledChange).toEqual(scheduled);
    const next = await ok<BillingChangePreview>(t.get(`${B()}/next-invoice`, { token: owner.accessToken }));
    expect(next).toMatchObject({ nextPaymentAt: end, subtotal: 2 * 2900 });

    // «Anular el cambio»; twice is refused.
    const dropped = await ok<BillingOverview>(t.post(`${B()}/subscription/scheduled-change/drop`, undefined, { token: owner.accessToken }));
    expect(dropped.subscription).toMatchObject({ interval: 'year', scheduledChange: null });
    expect(await refused(t.post(`${B()}/subscription/scheduled-change/drop`, undefined, { token: owner.accessToken }))).toEqual([
      409,
      'billing_no_scheduled_change',
    ]);
    // The renewal off drops it too (nothing renews), and on again renews the year.
    await change({ planId: 'advance', interval: 'month' });
    const off = await ok<BillingOverview>(t.post(`${B()}/subscription/cancel`, undefined, { token: owner.accessToken }));
    expect(off.subscription).toMatchObject({ cancelAtPeriodEnd: true, scheduledChange: null });
    await ok<BillingOverview>(t.post(`${B()}/subscription/reactivate`, undefined, { token: owner.accessToken }));
    // Choosing the plan in force again drops the change, at no cost.
    await change({ planId: 'basic', interval: 'month' });
    const back = await preview({ planId: 'advance', interval: 'year' });
    expect(back).toMatchObject({ effective: 'now', subtotal: 2 * 29000 });
    const year = await change({ planId: 'advance', interval: 'year' });
    expect(year.subscription).toMatchObject({ planId: 'advance', interval: 'year', scheduledChange: null, cancelAtPeriodEnd: false });
    await platformEventsTaken(t);
    expect((await overview()).subscription?.scheduledChange).toBeNull();
    expect(await refused(t.post(`${B()}/subscription/scheduled-change/drop`, undefined, { token: tere.accessToken }))).toEqual([
      403,
      'access_denied',
    ]);
  });

  it('refuses Team, the same plan, and a member without workspace billing', async () => {
    expect(await refused(t.put(`${B()}/subscription`, { planId: 'team', interval: 'year' }, { token: owner.accessToken }))).toEqual([
      400,
      'therapist_plan_invalid',
    ]);
    expect(await refused(t.put(`${B()}/subscription`, { planId: 'advance', interval: 'year' }, { token: owner.accessToken }))).toEqual([
      409,
      'therapist_already_has_plan',
    ]);
    expect(await refused(t.post(`${B()}/subscription/cancel`, undefined, { token: tere.accessToken }))).toEqual([403, 'access_denied']);
    expect((await overview()).subscription?.cancelAtPeriodEnd).toBe(false);
  });

  it('opens the Customer Portal for the owner: cards added and removed there, the default kept; not for a member', async () => {
    const { url } = await ok<{ url: string }>(t.post(`${B()}/portal`, undefined, { token: owner.accessToken }));
    const path = new URL(url).pathname;
    expect(path).toMatch(/^\/sandbox\/stripe\/portal\/bps_/);
    const form = (to: string, fields: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: to,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });
    const first = await t.app.inject({ method: 'GET', url: path });
    expect(first.body).toContain('Visa ···· 4242 · caduca 12/30 <strong>(la que paga tu plan)</strong>');
    expect(first.body).toContain('Volver a Diván');
    const declined = await form(path, { number: '4000 0000 0000 0002', exp: '12/30', cvc: '123' });
    expect([declined.statusCode, declined.body.includes('rechazada')]).toEqual([422, true]);
    const added = await form(path, { number: '5555 5555 5555 4444', exp: '12/30', cvc: '123' });
    expect(added.body).toContain('Tarjeta ···· 4444 añadida');
    expect(added.body).toContain('Mastercard ···· 4444 · caduca 12/30 <strong>(la que paga tu plan)</strong>');
    const oldCard = /name="paymentMethod" value="(pm_\w+)"/.exec(added.body)![1]!;
    expect((await form(`${path}/quitar`, { paymentMethod: oldCard })).body).toContain('Tarjeta ···· 4242 eliminada');
    const [sub] = await t.rows<{ id: string }>(
      sql`select data->>'default_payment_method' as id from sandbox_stripe_objects where type = 'subscription' and data->'metadata'->>'divan_workspace' = ${ws.id}`,
    );
    const refusedRemoval = await form(`${path}/quitar`, { paymentMethod: sub!.id });
    expect([refusedRemoval.statusCode, refusedRemoval.body.includes('añade otra antes de quitarla')]).toEqual([422, true]);
    expect(await refused(t.post(`${B()}/portal`, undefined, { token: tere.accessToken }))).toEqual([403, 'access_denied']);
    expect((await t.app.inject({ method: 'GET', url: '/sandbox/stripe/portal/bps_000000000000000000000000' })).statusCode).toBe(404);
  });

  it('refuses a change before any plan was bought', async () => {
    const other = await withWorkspace(t, 'Sin plan', { owner: { email: 'sinplan@cambios.test', firstName: 'Sin' } });
    const res = t.post(`/api/v1/workspaces/${other.ws.id}/billing/subscription/cancel`, undefined, { token: other.owner.accessToken });
    expect(await refused(res)).toEqual([409, 'therapist_customer_not_created']);
    const portal = t.post(`/api/v1/workspaces/${other.ws.id}/billing/portal`, undefined, { token: other.owner.accessToken });
    expect(await refused(portal)).toEqual([409, 'therapist_customer_not_created']);
  });
});
