import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { BillingChangePreview, BillingOverview, Workspace } from '@divan/core';
import { postPlatformEvent, subscribe } from '../../test/billing-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { until } from '../../test/until';
import { addMember, therapist, withWorkspace, type Therapist } from '../../test/workspace-fixtures';

// The database is the truth for seats (issue 27, decision 0026 §2): a member holding a role is a billed
// user; the subscription's quantity follows, prorated, and a quantity changed elsewhere is put back.
let t: TestApp;
let owner: Therapist;
let ws: Workspace;
const B = () => `/api/v1/workspaces/${ws.id}/billing`;
const ok = async <T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as T;
};
const overview = () => ok<BillingOverview>(t.get(B(), { token: owner.accessToken }));
const nextInvoice = (quantity?: number) =>
  ok<BillingChangePreview>(t.get(`${B()}/next-invoice${quantity ? `?quantity=${quantity}` : ''}`, { token: owner.accessToken }));
const quantityIs = async (n: number) => {
  const o = await until(
    () => overview(),
    (o) => o.subscription?.quantity === n,
    20_000,
  );
  expect(o.subscription?.quantity).toBe(n);
};

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, ws } = await withWorkspace(t, 'Consulta Plazas', { owner: { email: 'olga@plazas.test', firstName: 'Olga' } }));
  await subscribe(t, owner, ws.id, { planId: 'advance', interval: 'year' });
});
afterAll(() => t?.close());

describe('seats billed as they are used', () => {
  let tere: Therapist;
  let memberId: string;

  it('has no next invoice without a plan', async () => {
    const other = await withWorkspace(t, 'Sin plan', { owner: { email: 'sinplan@plazas.test', firstName: 'Sin' } });
    const res = await t.get(`/api/v1/workspaces/${other.ws.id}/billing/next-invoice`, { token: other.owner.accessToken });
    expect([res.statusCode, res.json()]).toEqual([200, null]);
  });

  it('adds a member: the quantity follows, and the next invoice’s proration is what the preview said', async () => {
    expect((await overview()).subscription?.quantity).toBe(1);
    const preview = await nextInvoice(2);
    expect(preview.proration).toBeGreaterThan(0);
    // A pending invitation is not a user.
    tere = await therapist(t, 'tere@plazas.test', 'Tere');
    const role = ws.roles.find((r) => r.name === 'Terapeuta')!.id;
    ({ memberId } = await addMember(t, owner, ws.id, tere, [role]));
    await quantityIs(2);
    const after = await nextInvoice();
    // A year's proration moves by a thousandth of a cent a second: the same to the cent.
    expect(Math.abs(after.proration - preview.proration)).toBeLessThanOrEqual(1);
    expect(after.lines.at(-1)).toMatchObject({ amount: 2 * 29000, proration: false });
    expect((await ok<Workspace>(t.get(`/api/v1/workspaces/${ws.id}`, { token: owner.accessToken }))).plan.id).toBe('advance');
  });

  it('removes the member: back to one, the unused time credited', async () => {
    const before = (await nextInvoice()).proration;
    expect((await t.del(`/api/v1/workspaces/${ws.id}/members/${memberId}`, { token: owner.accessToken })).statusCode).toBe(204);
    await quantityIs(1);
    expect((await nextInvoice()).proration).toBeLessThan(before);
  });

  it('puts back a quantity changed at the provider (its dashboard): the members decide', async () => {
    const [sub] = await t.rows<{ id: string }>(sql`select subscription_id as id from billing_subscriptions where workspace_id = ${ws.id}`);
    await t.rows(sql`update sandbox_stripe_objects set data = jsonb_set(data, '{items,data,0,quantity}', '5') where id = ${sub!.id}`);
    const res = await postPlatformEvent(t, 'customer.subscription.updated', { id: sub!.id, object: 'subscription' });
    expect(res.json()).toEqual({ received: true, duplicate: false });
    await quantityIs(1);
  });
});
