import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingService, PublicSlots, Workspace } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { createWorkspace, therapist, type Therapist } from '../../test/workspace-fixtures';
import { PUBLIC_SLOTS_TTL_MS, PublicSlotsCache } from './public-slots-cache';

const month = (m: string, days: string[]): PublicSlots => ({
  month: m,
  timeZone: 'Europe/Madrid',
  durationMinutes: 50,
  days: days.map((day) => ({ day, slots: [] })),
});

describe('the cache of public months', () => {
  it('keeps a month for its TTL, per key; a change of the workspace drops its months only', async () => {
    let now = 0;
    const cache = new PublicSlotsCache<PublicSlots>(() => now);
    let computed = 0;
    const make = (days: string[]) => async () => (computed++, month('2026-12', days));
    expect((await cache.read('w1', 'a', make(['2026-12-01']))).days).toHaveLength(1);
    expect((await cache.read('w1', 'a', make(['x', 'y']))).days).toHaveLength(1);
    await cache.read('w2', 'a', make(['2026-12-02']));
    expect(computed).toBe(2);
    cache.changed('w1');
    expect((await cache.read('w1', 'a', make(['x', 'y']))).days).toHaveLength(2);
    expect((await cache.read('w2', 'a', make(['z', 'z', 'z']))).days).toHaveLength(1);
    now += PUBLIC_SLOTS_TTL_MS;
    expect((await cache.read('w2', 'a', make(['z', 'z', 'z']))).days).toHaveLength(3);
  });

  it('a month computed while its workspace changed is answered but not kept', async () => {
    const cache = new PublicSlotsCache<PublicSlots>();
    const answer = await cache.read('w', 'k', async () => {
      cache.changed('w');
      return month('2026-12', ['old']);
    });
    expect(answer.days[0]!.day).toBe('old');
    expect((await cache.read('w', 'k', async () => month('2026-12', ['new']))).days[0]!.day).toBe('new');
  });
});

describe('public months on the running app (real clock, cache on)', () => {
  let t: TestApp;
  let olga: Therapist;
  let ws: Workspace;
  beforeAll(async () => {
    t = await createTestApp();
    olga = await therapist(t, 'olga@cache.test', 'Olga');
    ws = await createWorkspace(t, olga, 'Consulta Caché', 'freelance');
  }, 60_000);
  afterAll(() => t?.close());

  it('a new session, a blocked day and a change of the service show at once', async () => {
    const every = [{ from: '09:00', to: '11:00' }];
    const body = {
      title: 'Sesión',
      schedule: { 1: every, 2: every, 3: every, 4: every, 5: every, 6: every, 7: every },
      priceCents: 5000,
      modality: 'online',
      durationMinutes: 50,
      gapMinutes: 10,
      maxNotice: { amount: 3, unit: 'months' },
    };
    const service = json<BookingService>(await t.post(`/api/v1/workspaces/${ws.id}/booking-services`, body, { token: olga.accessToken }));
    const next = new Date();
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + 1);
    const m = next.toISOString().slice(0, 7);
    const P = `/api/v1/public/reservations/${ws.id}/${olga.userId}/${service.id}/slots?month=${m}`;
    const read = async () => json<PublicSlots>(await t.get(P));
    const before = await read();
    const first = before.days[0]!;
    expect(first.slots.map((s) => s.therapist.from)).toEqual(['09:00', '10:00']);

    const patient = json<{ id: string }>(
      await t.post(`/api/v1/workspaces/${ws.id}/patients`, { firstName: 'Noa' }, { token: olga.accessToken }),
    );
    const s = await t.post(
      `/api/v1/workspaces/${ws.id}/sessions`,
      { patientId: patient.id, day: first.day, from: '09:00', to: '09:50' },
      { token: olga.accessToken },
    );
    expect(s.statusCode, s.body).toBe(201);
    expect((await read()).days[0]!.slots.map((x) => x.therapist.from)).toEqual(['10:00']);

    expect(
      (await t.post(`/api/v1/workspaces/${ws.id}/availability-overrides`, { dates: [{ day: first.day }] }, { token: olga.accessToken }))
        .statusCode,
    ).toBe(201);
    expect((await read()).days[0]!.day).not.toBe(first.day);

    await t.patch(`/api/v1/workspaces/${ws.id}/booking-services/${service.id}`, { durationMinutes: 110 }, { token: olga.accessToken });
    expect((await read()).days[0]!.slots.map((x) => x.therapist.from)).toEqual(['09:00']);
  });
});
