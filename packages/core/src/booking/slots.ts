/**
 * Free slots of a booking service: ONE pure function from the weekly schedule, the blocked dates, the
 * therapist's existing sessions, the gap, the notice and the time zone to the slots a visitor may book.
 * It reads no clock (`now` is passed in) and never the process's zone (TZ): offsets come from Intl data.
 *
 * Decisions (each tested in slots*.test.ts):
 * - Ranges are local wall-clock times of their day in `timeZone`: 09:00 stays 09:00 across clock changes.
 *   A range boundary is read as `toInstant` reads it: a time in a spring-forward gap is moved forward by
 *   the gap (02:30 on 29/03/2026 in Madrid is 03:30), an ambiguous autumn time is its first occurrence.
 * - Stepping: slots start at the range's start and every `duration + gap` minutes of real time after it
 *   (a fixed grid), while the slot fits wholly in the range. A session that takes a grid slot does not
 *   move the following ones (re-anchoring after it would make the offer shift with every booking, and a
 *   freed session could then remove slots). Real-time steps mean a range that spans the autumn change is
 *   an hour longer and offers its repeated hour once per occurrence, at distinct instants (two slots both
 *   labelled 02:00, +02:00 then +01:00, never overlapping); a range across the spring change is an hour
 *   shorter and no slot is labelled with a time that did not exist.
 * - A range starting before the end of the previous one in wall order (only when a boundary is in a
 *   spring-forward gap, e.g. 01:00–02:30 and 03:00–05:00 on that night) offers slots from that end only,
 *   still on its own grid: slots never overlap. Overlapping ranges (refused by the rules) are merged.
 * - Busy: every existing session of the therapist that occupies time (the caller decides which
 *   statuses), widened by the gap on both sides. Blocked dates are not widened.
 * - Notice: a slot starts at or after now + minNotice and at or before now + maxNotice (`addTimespan`:
 *   months and days on the zone's calendar). Within [from, to): by start.
 * - A blocked range of a day needs both times; one without them (refused by the contract) blocks the day.
 *
 * Cost: a handful of Intl calls per day of the window (zone-table.ts), none per slot; busy ranges are
 * merged once and swept with one pointer, since slot starts only grow.
 */
import { isHHmm, isIsoDay, isValidTimeZone, type InstantRange } from '../time/zoned';
import { type IsoWeekday } from './booking.constants';
import type { TimeRange } from './booking-service.contracts';
import { hhmmToMinutes } from './booking-service.rules';
import { weeklyMinutes } from './offered-time';
import { addTimespan, type Timespan } from './timespan';
import { DAY, MINUTE, zoneTable } from './zone-table';

export type SlotOverride = { day: string; allDay: boolean; from?: string | null; to?: string | null };

export type FreeSlotsInput = {
  /** Local ranges per ISO weekday (1 Monday … 7 Sunday); a day left out has none. */
  schedule: Partial<Record<IsoWeekday, readonly TimeRange[]>>;
  timeZone: string;
  durationMinutes: number;
  gapMinutes: number;
  minNotice: Timespan;
  maxNotice: Timespan;
  /** Blocked dates, local to `timeZone`. */
  overrides?: readonly SlotOverride[];
  /** All the therapist's sessions that occupy time, as instants (end exclusive). */
  busy?: readonly InstantRange[];
  /** Slots starting in [from, to). */
  from: Date;
  to: Date;
  now: Date;
};

/** A free slot: its instants, and the day of the schedule it belongs to with its local start time. */
export type Slot = { start: Date; end: Date; day: string; time: string };

const pad = (n: number) => String(n).padStart(2, '0');
let labels: string[] | undefined;
/** 'HH:mm' of a wall clock (ms). */
function timeLabel(wall: number): string {
  labels ??= Array.from({ length: 1440 }, (_, m) => `${pad(Math.floor(m / 60))}:${pad(m % 60)}`);
  return labels[Math.floor((((wall % DAY) + DAY) % DAY) / MINUTE)]!;
}
const dayStart = (wall: number) => Math.floor(wall / DAY) * DAY;
/** ISO weekday of a day's wall (1970-01-01 was a Thursday). */
const weekdayOf = (dayWall: number) => ((((Math.round(dayWall / DAY) + 3) % 7) + 7) % 7) + 1;
const wallOfDay = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
const dayOfWall = (wall: number) => new Date(wall).toISOString().slice(0, 10);

function instantOf(d: Date, what: string): number {
  const t = d instanceof Date ? d.getTime() : NaN;
  if (Number.isNaN(t)) throw new RangeError(`Invalid ${what}`);
  return t;
}
function minutesOf(n: number, what: string, min: number): number {
  if (!Number.isSafeInteger(n) || n < min) throw new RangeError(`${what} must be an integer ≥ ${min}: ${n}`);
  return n;
}

/** Blocked dates by day wall: the whole day, or its ranges in minutes. */
function blockedByDay(overrides: readonly SlotOverride[]): Map<number, 'allDay' | [number, number][]> {
  const byDay = new Map<number, 'allDay' | [number, number][]>();
  for (const o of overrides) {
    if (!isIsoDay(o.day)) throw new RangeError(`Invalid override day: ${JSON.stringify(o.day)}`);
    const wall = wallOfDay(o.day);
    const known = byDay.get(wall);
    if (known === 'allDay') continue;
    if (o.allDay || !isHHmm(o.from) || !isHHmm(o.to)) byDay.set(wall, 'allDay');
    else if (o.from < o.to) byDay.set(wall, [...(known ?? []), [hhmmToMinutes(o.from), hhmmToMinutes(o.to)]]);
  }
  return byDay;
}

/** Busy ranges widened by `gap` on both sides, sorted and merged into disjoint [start, end) pairs. */
function mergedBusy(busy: readonly InstantRange[], gap: number): number[] {
  const widened: [number, number][] = [];
  for (const r of busy) {
    const s = instantOf(r.start, 'busy start');
    const e = instantOf(r.end, 'busy end');
    if (e > s) widened.push([s - gap, e + gap]);
  }
  widened.sort((a, b) => a[0] - b[0]);
  const flat: number[] = []; // start0, end0, start1, end1…
  for (const [s, e] of widened) {
    const n = flat.length;
    if (n && s <= flat[n - 1]!) flat[n - 1] = Math.max(flat[n - 1]!, e);
    else flat.push(s, e);
  }
  return flat;
}

/** The free slots in [from, to), sorted by start, none overlapping another. See the decisions above. */
export function freeSlots(input: FreeSlotsInput): Slot[] {
  const tz = input.timeZone;
  if (!isValidTimeZone(tz)) throw new RangeError(`Invalid time zone: ${JSON.stringify(tz)}`);
  const duration = minutesOf(input.durationMinutes, 'durationMinutes', 1) * MINUTE;
  const step = duration + minutesOf(input.gapMinutes, 'gapMinutes', 0) * MINUTE;
  instantOf(input.now, 'now');
  const earliest = addTimespan(input.now, input.minNotice, tz).getTime();
  const latest = addTimespan(input.now, input.maxNotice, tz).getTime();
  const lo = Math.max(instantOf(input.from, 'from'), earliest);
  const hi = Math.min(instantOf(input.to, 'to'), latest + 1); // starts in [lo, hi)
  if (lo >= hi) return [];

  const zone = zoneTable(tz, lo - 3 * DAY, hi + 3 * DAY);
  const busy = mergedBusy(input.busy ?? [], input.gapMinutes * MINUTE);
  const blocked = blockedByDay(input.overrides ?? []);
  const week = weeklyMinutes(input.schedule);
  const slots: Slot[] = [];
  let floor = -Infinity; // the end of the previous range in wall order
  let b = 0; // the first merged busy range that may still meet a slot

  const lastDay = dayStart(zone.toWall(hi - 1));
  // From the day before `lo`'s: its ranges set `floor` when a gap moves one past midnight.
  for (let dayWall = dayStart(zone.toWall(lo)) - DAY; dayWall <= lastDay; dayWall += DAY) {
    const ranges = week[weekdayOf(dayWall)]!;
    if (!ranges.length) continue;
    const block = blocked.get(dayWall);
    const blockedInstants = Array.isArray(block)
      ? block.map(([f, t]) => [zone.fromWall(dayWall + f * MINUTE), zone.fromWall(dayWall + t * MINUTE)] as const)
      : [];
    let day: string | undefined;
    for (const [f, t] of ranges) {
      const rangeStart = zone.fromWall(dayWall + f * MINUTE);
      const rangeEnd = zone.fromWall(dayWall + t * MINUTE);
      const startAt = Math.max(lo, floor);
      floor = Math.max(floor, rangeEnd);
      if (block === 'allDay') continue;
      let s = rangeStart < startAt ? rangeStart + Math.ceil((startAt - rangeStart) / step) * step : rangeStart;
      for (; s < hi && s + duration <= rangeEnd; s += step) {
        const e = s + duration;
        while (b < busy.length && busy[b + 1]! <= s) b += 2;
        if (b < busy.length && busy[b]! < e) continue;
        if (blockedInstants.some(([bs, be]) => bs < e && be > s)) continue;
        slots.push({ start: new Date(s), end: new Date(e), day: (day ??= dayOfWall(dayWall)), time: timeLabel(zone.toWall(s)) });
      }
    }
  }
  return slots;
}
