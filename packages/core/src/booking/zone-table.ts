/**
 * A time zone's offsets over a window of instants, read from Intl once a day of the window instead of
 * once per instant: the slot computation converts hundreds of wall times and Intl costs ~3 µs a call.
 *
 * The window is sampled every 24 hours; where two samples differ, the change is located to the minute
 * by bisection (~11 more calls). This assumes at most one offset change between two samples, the same
 * assumption as `toInstant` in time/zoned.ts (true of every zone's rules in use: changes are weeks apart).
 * `fromWall` reads a wall time with exactly the rules of `toInstant`: a time in a spring-forward gap is
 * moved forward by the gap, an ambiguous autumn time is its first occurrence. Nothing reads the
 * process's zone.
 */
import { tzOffset } from '../time/tz-offset';

export const MINUTE = 60_000;
export const DAY = 86_400_000;

export type ZoneTable = {
  /** The zone's offset (ms) at instant `t`. */
  offsetAt(t: number): number;
  /** Instant → local wall clock written as UTC milliseconds. */
  toWall(t: number): number;
  /** Local wall clock → instant, as `toInstant` reads it. */
  fromWall(wall: number): number;
};

/** Offsets of `timeZone` in [start, end] (instants, ms); outside it, the nearest known offset. */
export function zoneTable(timeZone: string, start: number, end: number): ZoneTable {
  const read = (t: number) => tzOffset(timeZone, new Date(t)) * MINUTE;
  const first = Math.floor(start / MINUTE) * MINUTE;
  const changes: number[] = []; // the first instant of each new offset…
  const values: number[] = [read(first)]; // …and the offsets: values[i] before changes[i]
  for (let prev = first; prev < end;) {
    const next = Math.min(prev + DAY, Math.ceil(end / MINUTE) * MINUTE);
    const before = values[values.length - 1]!;
    const after = read(next);
    if (after !== before) {
      let lo = prev; // read(lo) === before
      let hi = next; // read(hi) === after
      while (hi - lo > MINUTE) {
        const mid = lo + Math.floor((hi - lo) / (2 * MINUTE)) * MINUTE;
        if (read(mid) === before) lo = mid;
        else hi = mid;
      }
      changes.push(hi);
      values.push(after);
    }
    prev = next;
  }

  const offsetAt = (t: number): number => {
    let i = 0;
    while (i < changes.length && t >= changes[i]!) i++;
    return values[i]!;
  };
  return {
    offsetAt,
    toWall: (t) => t + offsetAt(t),
    fromWall: (wall) => {
      // The same steps as wallToInstant in time/zoned.ts, on the table.
      const before = offsetAt(wall - DAY);
      const after = offsetAt(wall + DAY);
      const tBefore = wall - before;
      const tAfter = wall - after;
      const beforeFits = offsetAt(tBefore) === before;
      const afterFits = offsetAt(tAfter) === after;
      if (beforeFits && afterFits) return Math.min(tBefore, tAfter);
      if (beforeFits) return tBefore;
      if (afterFits) return tAfter;
      return tBefore;
    },
  };
}
