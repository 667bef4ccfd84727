/**
 * The time a therapist's booking schedule offers (issue 28, utilisation = booked ÷ offered minutes):
 * for each day of a period, the union of the weekday's ranges of all their active services (two
 * services open on the same morning offer that morning once), less the blocked dates (a whole day, or
 * the part of the ranges a blocked range covers).
 *
 * Counted in wall-clock minutes of the day: a range across a clock change counts its written length
 * (an hour more or less on two nights a year). The schedules as they are today stand for the whole
 * period — a service's earlier schedules are not kept.
 */
import { isHHmm, isIsoDay, isoWeekday, shiftDay } from '../time/zoned';
import { ISO_WEEKDAYS, type IsoWeekday } from './booking.constants';
import type { TimeRange } from './booking-service.contracts';
import { hhmmToMinutes } from './booking-service.rules';

export type WeeklyRanges = Partial<Record<IsoWeekday, readonly TimeRange[]>>;
/** A blocked date as the slots and the offered time read it: the whole day, or from–to of it. */
export type BlockedDay = { day: string; allDay: boolean; from?: string | null; to?: string | null };

/** Sorted, overlapping or touching ranges joined. */
function merged(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const r of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && r[0] < last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/**
 * Each ISO weekday's valid ranges in minutes (index 1 Monday … 7 Sunday), sorted, overlapping ones
 * merged — of one schedule (the slots) or the union of several (the offered time).
 */
export function weeklyMinutes(...schedules: readonly WeeklyRanges[]): [number, number][][] {
  const week: [number, number][][] = [[]];
  for (const d of ISO_WEEKDAYS) {
    const ranges = schedules
      .flatMap((s) => s[d] ?? [])
      .filter((r) => isHHmm(r.from) && isHHmm(r.to) && r.from < r.to)
      .map((r): [number, number] => [hhmmToMinutes(r.from), hhmmToMinutes(r.to)]);
    week.push(merged(ranges));
  }
  return week;
}

/** Minutes of `ranges` (disjoint) outside `blocks` (disjoint). */
function minutesOutside(ranges: [number, number][], blocks: [number, number][]): number {
  let total = 0;
  for (const [f, t] of ranges) {
    total += t - f;
    for (const [bf, bt] of blocks) total -= Math.max(0, Math.min(t, bt) - Math.max(f, bf));
  }
  return total;
}

/** The minutes the schedules offer from `from` to `to` (days 'YYYY-MM-DD', both included). */
export function offeredMinutes(input: {
  schedules: readonly WeeklyRanges[];
  blocked?: readonly BlockedDay[];
  from: string;
  to: string;
}): number {
  if (!isIsoDay(input.from) || !isIsoDay(input.to)) throw new RangeError(`Invalid period: ${input.from}–${input.to}`);
  const week = weeklyMinutes(...input.schedules);
  const blocked = new Map<string, 'allDay' | [number, number][]>();
  for (const b of input.blocked ?? []) {
    const known = blocked.get(b.day);
    if (known === 'allDay') continue;
    if (b.allDay || !isHHmm(b.from) || !isHHmm(b.to)) blocked.set(b.day, 'allDay');
    else if (b.from < b.to) blocked.set(b.day, merged([...(known ?? []), [hhmmToMinutes(b.from), hhmmToMinutes(b.to)]]));
  }
  let total = 0;
  // The weekday counted on from the first day's.
  const first = isoWeekday(input.from);
  for (let day = input.from, i = 0; day <= input.to; day = shiftDay(day, 1), i++) {
    const ranges = week[((first - 1 + i) % 7) + 1]!;
    if (!ranges.length) continue;
    const block = blocked.get(day);
    if (block === 'allDay') continue;
    total += minutesOutside(ranges, block ?? []);
  }
  return total;
}
