/**
 * For tests only: free slots computed the slow, obvious way — every conversion through `toInstant` and
 * `toLocal` of time/zoned.ts, every busy range and override checked against every candidate — so the
 * fast `freeSlots` (its zone table, its merged busy sweep) is compared with an independent reading of
 * the same rules. Valid schedules only (no overlapping ranges: the rules refuse them).
 */
import { isoWeekday, shiftDay, toInstant, toLocal } from '../time/zoned';
import { ISO_WEEKDAYS } from './booking.constants';
import type { FreeSlotsInput } from './slots';
import { addTimespan } from './timespan';

export type PlainSlot = { start: string; end: string; day: string; time: string };

const MINUTE = 60_000;

export function referenceSlots(input: FreeSlotsInput): PlainSlot[] {
  const tz = input.timeZone;
  const duration = input.durationMinutes * MINUTE;
  const gap = input.gapMinutes * MINUTE;
  const earliest = addTimespan(input.now, input.minNotice, tz).getTime();
  const latest = addTimespan(input.now, input.maxNotice, tz).getTime();
  const from = input.from.getTime();
  const to = input.to.getTime();
  const out: PlainSlot[] = [];
  let floor = -Infinity;
  const lastDay = toLocal(new Date(to + 86_400_000), tz).day;
  for (let day = toLocal(new Date(from - 2 * 86_400_000), tz).day; day <= lastDay; day = shiftDay(day, 1)) {
    const weekday = ISO_WEEKDAYS[isoWeekday(day) - 1]!;
    const ranges = [...(input.schedule[weekday] ?? [])].sort((a, b) => a.from.localeCompare(b.from));
    const overrides = (input.overrides ?? []).filter((o) => o.day === day);
    const allDay = overrides.some((o) => o.allDay || !o.from || !o.to);
    for (const r of ranges) {
      const rangeStart = toInstant(day, r.from, tz).getTime();
      const rangeEnd = toInstant(day, r.to, tz).getTime();
      const previousEnd = floor;
      floor = Math.max(floor, rangeEnd);
      if (allDay) continue;
      for (let s = rangeStart; s + duration <= rangeEnd; s += duration + gap) {
        const e = s + duration;
        if (s < previousEnd || s < from || s >= to || s < earliest || s > latest) continue;
        const busy = (input.busy ?? []).some((b) => b.end > b.start && b.start.getTime() - gap < e && b.end.getTime() + gap > s);
        const blocked = overrides.some(
          (o) => o.from! < o.to! && toInstant(day, o.from!, tz).getTime() < e && toInstant(day, o.to!, tz).getTime() > s,
        );
        if (busy || blocked) continue;
        out.push({ start: new Date(s).toISOString(), end: new Date(e).toISOString(), day, time: toLocal(new Date(s), tz).time });
      }
    }
  }
  return out;
}

/** `freeSlots`' answer in the same plain shape. */
export const plain = (slots: readonly { start: Date; end: Date; day: string; time: string }[]): PlainSlot[] =>
  slots.map((s) => ({ start: s.start.toISOString(), end: s.end.toISOString(), day: s.day, time: s.time }));
