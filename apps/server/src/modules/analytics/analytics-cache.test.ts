import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AnalyticsResponse, DashboardStats, Invoice, Session } from '@divan/core';
import { createTestApp, type TestApp } from '../../test/test-app';
import { clinic, W, type Clinic } from '../../test/session-fixtures';
import { addMember, therapist, type Therapist } from '../../test/workspace-fixtures';

/**
 * The tabs' cached answers (analytics-cache.ts): the same question is answered from memory until the
 * workspace's data changes — a raw write no event announces is not seen (which shows the answer is
 * cached), every write through the product is.
 */
let t: TestApp;
let c: Clinic;
let now = new Date('2026-09-20T08:00:00Z');
let A: string;
const ids: Record<string, string> = {};
const OCT = 'from=2026-10-01&to=2026-10-31';

const ok = async <T>(res: Promise<{ statusCode: number; body: string; json(): unknown }>, status = 200) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json() as T;
};
const tab = async <T extends AnalyticsResponse['tab']>(who: Therapist, name: T, q = OCT) =>
  (await ok<AnalyticsResponse>(t.get(`${A}/${name}?${q}`, { token: who.accessToken }))).stats as Extract<
    AnalyticsResponse,
    { tab: T }
  >['stats'];

beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
  c = await clinic(t, 'cache-estadisticas');
  A = `${W(c.ws.id)}/analytics`;
  const owner = c.owner.accessToken;
  await ok(
    t.put(
      '/api/v1/me/billing',
      { fullName: 'Teresa Terapeuta', taxId: '12345678-z', line1: 'Calle Mayor 1', city: 'Madrid', zipCode: '28013', country: 'España' },
      { token: c.tere.accessToken },
    ),
  );
  const patient = await ok<{ id: string }>(
    t.post(
      `${W(c.ws.id)}/patients`,
      { firstName: 'Alicia', lastName: 'Caché', assignedTherapistId: c.tere.userId, treatment: { sessionPrice: 6000 } },
      { token: owner },
    ),
    201,
  );
  ids.patient = patient.id;
  for (const [key, who, day] of [
    ['s1', c.tere, '2026-10-05'],
    ['s2', c.tere, '2026-10-06'],
    ['s3', c.tomas, '2026-10-07'],
  ] as const) {
    const { session } = await ok<{ session: Session }>(
      t.post(
        `${W(c.ws.id)}/sessions`,
        { patientId: patient.id, therapistId: who.userId, day, from: '10:00', to: '10:50' },
        { token: owner },
      ),
      201,
    );
    ids[key] = session.id;
  }
  now = new Date('2026-10-20T08:00:00Z');
}, 60_000);
afterAll(() => t?.close());

describe('the statistics’ cached answers', () => {
  it('answer the same question from memory, and are dropped by a write through the product', async () => {
    const first = await tab(c.owner, 'sessions');
    expect([first.totals.scheduled, first.totals.canceled]).toEqual([3, 0]);
    // A raw write publishes no event: the answer is the cached one.
    await t.rows(sql`update sessions set status = 'canceled', cancellation_reason = 'patient' where id = ${ids.s3}`);
    expect((await tab(c.owner, 'sessions')).totals.canceled).toBe(0);
    // Another question (another period) is counted afresh.
    expect((await tab(c.owner, 'sessions', 'from=2026-10-01&to=2026-10-30')).totals.canceled).toBe(1);
    // A session completed through the API drops the workspace's answers: the raw write shows too now.
    await ok(t.post(`${W(c.ws.id)}/sessions/${ids.s1}/complete`, undefined, { token: c.owner.accessToken }));
    const after = await tab(c.owner, 'sessions');
    expect([after.totals.completed, after.totals.canceled]).toEqual([1, 1]);
  });

  it('are kept per reader: a therapist with her own scope never gets the workspace’s answer', async () => {
    expect((await tab(c.owner, 'sessions')).totals.scheduled).toBe(3);
    expect((await tab(c.tere, 'sessions')).totals.scheduled).toBe(2);
    expect((await tab(c.tomas, 'sessions')).totals.scheduled).toBe(1);
  });

  it('are dropped when an invoice is issued or paid, and when a booking schedule changes', async () => {
    expect((await tab(c.tere, 'billing')).totals.issuedCents).toBe(0);
    const I = `${W(c.ws.id)}/invoices`;
    const draft = await ok<Invoice>(
      t.post(`${I}/from-sessions`, { patientId: ids.patient, sessionIds: [ids.s1] }, { token: c.tere.accessToken }),
      201,
    );
    await ok(t.post(`${I}/${draft.id}/issue`, undefined, { token: c.tere.accessToken }));
    expect((await tab(c.tere, 'billing')).totals).toMatchObject({ issuedCents: 6000, collectedCents: 0 });
    await ok(t.post(`${I}/${draft.id}/payment`, { paymentType: 'cash', paidOn: '2026-10-20' }, { token: c.tere.accessToken }));
    expect((await tab(c.tere, 'billing')).totals).toMatchObject({ issuedCents: 6000, collectedCents: 6000 });

    expect((await tab(c.tere, 'sessions')).utilisation).toBeNull();
    await ok(
      t.post(
        `${W(c.ws.id)}/booking-services`,
        {
          title: 'Consulta',
          schedule: { 1: [{ from: '09:00', to: '14:00' }] },
          timeZone: 'Europe/Madrid',
          priceCents: 6000,
          modality: 'presential',
          durationMinutes: 50,
        },
        { token: c.tere.accessToken },
      ),
      201,
    );
    // October 2026 has four Mondays (5, 12, 19, 26): 4 × 300 minutes; Tere's two sessions book 100.
    expect((await tab(c.tere, 'sessions')).utilisation).toEqual({ bookedMinutes: 100, offeredMinutes: 1200 });
  });

  it('the dashboard’s figures too', async () => {
    const dashboard = () => ok<DashboardStats>(t.get(`${A}/dashboard`, { token: c.owner.accessToken }));
    const first = await dashboard();
    expect(first.sessions).toEqual({ completed: 1, pending: 1, canceled: 1 });
    expect(first.revenue?.monthIssuedCents).toBe(6000);
    await t.rows(sql`update sessions set status = 'completed' where id = ${ids.s2}`);
    expect((await dashboard()).sessions).toEqual({ completed: 1, pending: 1, canceled: 1 });
    // A session booked through the API: counted, and the raw write shows now too.
    await ok(
      t.post(
        `${W(c.ws.id)}/sessions`,
        { patientId: ids.patient, therapistId: c.tomas.userId, day: '2026-10-22', from: '10:00', to: '10:50' },
        { token: c.owner.accessToken },
      ),
      201,
    );
    expect((await dashboard()).sessions).toEqual({ completed: 2, pending: 1, canceled: 1 });
  });

  it('the dashboard’s members are dropped when the workspace’s access changes, and named afresh', async () => {
    const names = async () =>
      (await ok<DashboardStats>(t.get(`${A}/dashboard`, { token: c.owner.accessToken }))).scope.therapists.map((x) => x.name);
    const before = await names();
    expect(before).toContain('Tomás');
    expect(before).not.toContain('Nuria');
    const nuria = await therapist(t, 'nuria-cache@sesiones.test', 'Nuria');
    await addMember(t, c.owner, c.ws.id, nuria, [c.ws.roles.find((r) => r.name === 'Terapeuta')!.id]);
    expect(await names()).toContain('Nuria');
  });
});
