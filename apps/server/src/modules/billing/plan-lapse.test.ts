import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { BillingOverview, Workspace } from '@divan/core';
import { postPlatformEvent, subscribe } from '../../test/billing-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';
import { withWorkspace, type Therapist } from '../../test/workspace-fixtures';

// A trial that ends without a plan, and a plan that ends (decision 0026 §4): the workspace falls to
// Basic's limits and loses nothing — 40 active patients stay readable and editable, a 31st cannot
// become active — until a plan is bought again.
let t: TestApp;
let owner: Therapist;
let ws: Workspace;
const P = () => `/api/v1/workspaces/${ws.id}/patients`;
const letters = (i: number) => `P${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}`;
const workspace = async () => (await t.get(`/api/v1/workspaces/${ws.id}`, { token: owner.accessToken })).json() as Workspace;

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, ws } = await withWorkspace(t, 'Consulta Prueba', { owner: { email: 'olga@prueba.test', firstName: 'Olga' } }));
  // During the trial (Premium's features): 40 active patients and one paused.
  for (let i = 0; i < 41; i++) {
    const res = await t.post(P(), { firstName: letters(i) }, { token: owner.accessToken });
    expect(res.statusCode, res.body).toBe(201);
  }
  const [last] = (await t.get(`${P()}?pageSize=1&sort=createdAt&direction=desc`, { token: owner.accessToken })).json().items;
  expect((await t.put(`${P()}/${last.id}/treatment`, { status: 'paused' }, { token: owner.accessToken })).statusCode).toBe(200);
});
afterAll(() => t?.close());

describe('when the trial ends without a plan', () => {
  it('falls to Basic with a prompt to upgrade, every patient still readable and editable', async () => {
    // The trial's end has passed (as the clock would have it).
    await t.rows(sql`update workspaces set free_trial_end = now() - interval '1 minute' where id = ${ws.id}`);
    const after = await workspace();
    expect(after.plan).toMatchObject({ id: null, promptUpgrade: true });
    expect(after.features).toMatchObject({ activePatientLimit: 30, canCreateInvoiceBatch: false, sessionReminders: 1 });
    const list = (await t.get(`${P()}?pageSize=100`, { token: owner.accessToken })).json() as { items: { id: string; status?: string }[] };
    expect(list.items).toHaveLength(41);
    expect(list.items.filter((p) => p.status === 'active')).toHaveLength(40);
    const one = list.items.find((p) => p.status === 'active')!;
    expect((await t.get(`${P()}/${one.id}`, { token: owner.accessToken })).statusCode).toBe(200);
    expect((await t.patch(`${P()}/${one.id}`, { phone: '+34 600 000 000' }, { token: owner.accessToken })).statusCode).toBe(200);
  });

  it('refuses a 41st active patient, new or reactivated, with the plan’s code', async () => {
    const created = await t.post(P(), { firstName: 'Nueva' }, { token: owner.accessToken });
    expect([created.statusCode, created.json().code]).toEqual([409, 'patient_limit_reached']);
    const paused = (
      (await t.get(`${P()}?pageSize=100`, { token: owner.accessToken })).json().items as { id: string; status: string }[]
    ).find((p) => p.status === 'paused')!;
    const back = await t.put(`${P()}/${paused.id}/treatment`, { status: 'active' }, { token: owner.accessToken });
    expect([back.statusCode, back.json().code]).toEqual([409, 'patient_limit_reached']);
  });

  it('lifts the limits once Premium is bought, and falls back again when the subscription ends', async () => {
    await subscribe(t, owner, ws.id, { planId: 'advance', interval: 'month' });
    expect((await workspace()).features.activePatientLimit).toBeNull();
    expect((await t.post(P(), { firstName: 'Nueva' }, { token: owner.accessToken })).statusCode).toBe(201);
    const [sub] = await t.rows<{ id: string }>(sql`select subscription_id as id from billing_subscriptions where workspace_id = ${ws.id}`);
    // The provider ends it (a renewal that failed every retry): its event reaches the platform endpoint.
    await t.rows(sql`update sandbox_stripe_objects set data = jsonb_set(data, '{status}', '"canceled"') where id = ${sub!.id}`);
    const overview = (await t.get(`/api/v1/workspaces/${ws.id}/billing`, { token: owner.accessToken })).json() as BillingOverview;
    expect(overview.subscription?.status).toBe('active');
    expect((await postPlatformEvent(t, 'customer.subscription.deleted', { id: sub!.id, object: 'subscription' })).statusCode).toBe(200);
    const after = await workspace();
    expect(after.plan).toMatchObject({ id: null, promptUpgrade: true });
    expect(after.features.activePatientLimit).toBe(30);
    expect(((await t.get(`${P()}?pageSize=100`, { token: owner.accessToken })).json().items as unknown[]).length).toBe(42);
  });
});
