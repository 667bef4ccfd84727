import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shiftDay } from '../time/zoned';

/**
 * Every assertion of the series tests runs with the process in each of these zones (switching
 * process.env.TZ at runtime, proven by getTimezoneOffset): the results must not change.
 */
const SERVER_ZONES = [
  { zone: 'UTC', jan1Offset: 0 },
  { zone: 'America/New_York', jan1Offset: 300 },
  { zone: 'Asia/Tokyo', jan1Offset: -540 },
  { zone: 'Europe/Madrid', jan1Offset: -60 },
];

export function underServerZones(body: () => void): void {
  describe.each(SERVER_ZONES)('with the server in $zone', ({ zone, jan1Offset }) => {
    const saved = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = zone;
    });
    afterAll(() => {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    });
    it('really runs in that zone (Node re-read TZ)', () => {
      expect(new Date(2026, 0, 1).getTimezoneOffset()).toBe(jan1Offset);
    });
    body();
  });
}

/** A small seeded PRNG (mulberry32), so generated cases are the same on every run. */
export function prng(seed: number): { int: (min: number, max: number) => number; pick: <T>(xs: readonly T[]) => T } {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { int, pick: (xs) => xs[int(0, xs.length - 1)]! };
}

/** A random day of 2026–2027 and a time, biased towards the night hours of the clock changes. */
export function randomStart(r: ReturnType<typeof prng>): { startDay: string; startTime: string } {
  const startDay = shiftDay('2026-01-01', r.int(0, 729));
  const hour = r.pick([1, 2, 2, 3, 8, 9, 12, 17, 18, 19, 20, 23]);
  const minute = r.pick([0, 15, 30, 45, 50]);
  return { startDay, startTime: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}` };
}
