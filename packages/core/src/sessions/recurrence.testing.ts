import { shiftDay } from '../time/zoned';

/** The series tests run every assertion with the process in each server zone (time/testing). */
export { underEveryServerZone as underServerZones } from '../time/testing/server-zones';

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
