import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingHold, PublicSlots } from '@divan/core';
import { createTestApp, json, type TestApp } from '../../test/test-app';
import { bookingKit, type Kit } from './booking-flow.testkit';

// Without a test clock the public month is cached (30 s): a hold must drop it at once, and so must its release.
let t: TestApp;
let k: Kit;
const every = { from: '09:00', to: '14:00' };

beforeAll(async () => {
  t = await createTestApp();
  k = await bookingKit(t, 'cache');
}, 60_000);
afterAll(() => t?.close());

describe('the cached public month and holds', () => {
  it('a hold takes its slot out of the cached month at once; given up, it comes back', async () => {
    const service = await k.createService({
      schedule: { 1: [every], 2: [every], 3: [every], 4: [every], 5: [every], 6: [every], 7: [every] },
    });
    const next = new Date();
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + 1);
    const month = next.toISOString().slice(0, 7);
    const url = `/api/v1/public/reservations/${k.ws.id}/${k.owner.userId}/${service.id}/slots?month=${month}`;
    const starts = async () => json<PublicSlots>(await t.get(url)).days.flatMap((d) => d.slots.map((s) => s.startsAt));
    const before = await starts();
    const slot = before[0]!;
    const held = await k.hold(service, slot, 'cache@correo.test');
    expect(held.statusCode, held.body).toBe(201);
    expect(await starts()).not.toContain(slot);
    // Too many wrong codes: the hold is given up and the slot offered again.
    const { holdId } = json<BookingHold>(held);
    const wrong = (await k.codeFor('cache@correo.test')) === '000000' ? '111111' : '000000';
    for (let i = 0; i <= 5; i++) await k.confirm(holdId, wrong);
    expect(await starts()).toEqual(before);
  });
});
