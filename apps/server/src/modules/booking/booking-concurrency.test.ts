// Fifty visitors ask for the same slot at once: exactly one holds it. On PostgreSQL (TEST_DATABASE_URL)
// the requests are split over two server processes sharing the database, so only the therapist's
// advisory lock stands between them; on PGlite they interleave in one process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { BookingService } from '@divan/core';
import { createSecondApp, createTestApp, json, type TestApp } from '../../test/test-app';
import { at, bookingKit, type Kit } from './booking-flow.testkit';

const now = new Date('2026-11-28T10:00:00Z');
const pg = !!process.env.TEST_DATABASE_URL;
let t: TestApp;
let second: TestApp | undefined;
let k: Kit;
let service: BookingService;

beforeAll(async () => {
  // A rate limit no burst of this test reaches (holds get a third of it per IP).
  t = await createTestApp(
    { rateLimit: { perIpPerMinute: 100_000, perEmailPer15Min: 10_000, uploadsPerMinute: 10_000, exportsPerMinute: 10_000 } },
    { clock: () => now },
  );
  if (pg) second = await createSecondApp(t, { rateLimit: t.config.rateLimit });
  k = await bookingKit(t, 'concurrencia');
  service = await k.createService();
}, 60_000);
afterAll(async () => {
  await second?.close();
  await t?.close();
});

describe(`50 holds of one slot at once (${pg ? 'PostgreSQL, two processes' : 'PGlite'})`, () => {
  it('exactly one is held, 49 are told the slot is not available', async () => {
    const startsAt = at('2026-11-30', '10:00');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => k.hold(service, startsAt, `visita${i}@correo.test`, {}, i % 2 && second ? second : t)),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(new Set(results.filter((r) => r.statusCode === 409).map((r) => json<{ code: string }>(r).code))).toEqual(
      new Set(['public_service_slot_not_available']),
    );
    const holds = await t.rows<{ n: number }>(sql`select count(*)::int as n from booking_holds where starts_at = ${startsAt}`);
    expect(holds[0]!.n).toBe(1);
  });

  it('the one held is booked; a hold of the slot next to it, at the same time, is not disturbed', async () => {
    const [a, b] = await Promise.all([
      k.hold(service, at('2026-12-02', '09:00'), 'a@correo.test'),
      k.hold(service, at('2026-12-02', '10:00'), 'b@correo.test', {}, second ?? t),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const booked = await k.confirm(json<{ holdId: string }>(a).holdId, await k.codeFor('a@correo.test'));
    expect(booked.statusCode, booked.body).toBe(200);
  });
});
