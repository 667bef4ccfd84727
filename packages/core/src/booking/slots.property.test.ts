import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoWeekday, toInstant, toLocal } from '../time/zoned';
import { ISO_WEEKDAYS, type IsoWeekday } from './booking.constants';
import type { TimeRange } from './booking-service.contracts';
import { freeSlots, type FreeSlotsInput, type SlotOverride } from './slots';
import { plain, referenceSlots } from './slots.testing';
import { addTimespan, type Timespan } from './timespan';

const RUNS = { numRuns: 150 };
const MINUTE = 60_000;
const DAY = 86_400_000;
const ZONES = [
  'Europe/Madrid',
  'Atlantic/Canary',
  'America/Mexico_City',
  'America/New_York',
  'America/Havana',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'UTC',
];
/** Around the 2026 and 2027 clock changes (Europe and the Americas) and an ordinary week. */
const ANCHORS = ['2026-03-08', '2026-03-29', '2026-10-25', '2026-11-01', '2027-03-28', '2027-10-31', '2026-06-10'].map((d) =>
  Date.parse(`${d}T00:00:00Z`),
);
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** A day's ranges: sorted, not overlapping, on 5-minute marks anywhere in the day (nights included). */
const dayRangesArb: fc.Arbitrary<TimeRange[]> = fc.uniqueArray(fc.integer({ min: 0, max: 287 }), { maxLength: 6 }).map((marks) => {
  const sorted = [...marks].sort((a, b) => a - b);
  const ranges: TimeRange[] = [];
  for (let i = 0; i + 1 < sorted.length; i += 2) ranges.push({ from: hhmm(sorted[i]! * 5), to: hhmm(sorted[i + 1]! * 5) });
  return ranges;
});
const scheduleArb = fc
  .tuple(...ISO_WEEKDAYS.map(() => dayRangesArb))
  .map((days) => Object.fromEntries(days.map((r, i) => [i + 1, r])) as Record<IsoWeekday, TimeRange[]>);
const spanArb = (maxDays: number): fc.Arbitrary<Timespan> =>
  fc.oneof(
    fc.integer({ min: 0, max: maxDays * 24 * 60 }).map((amount) => ({ amount, unit: 'minutes' as const })),
    fc.integer({ min: 0, max: maxDays * 24 }).map((amount) => ({ amount, unit: 'hours' as const })),
    fc.integer({ min: 0, max: maxDays }).map((amount) => ({ amount, unit: 'days' as const })),
    fc.integer({ min: 0, max: Math.ceil(maxDays / 28) }).map((amount) => ({ amount, unit: 'months' as const })),
  );

const inputArb: fc.Arbitrary<FreeSlotsInput> = fc
  .record({
    timeZone: fc.constantFrom(...ZONES),
    anchor: fc.constantFrom(...ANCHORS),
    schedule: scheduleArb,
    durationMinutes: fc.integer({ min: 5, max: 180 }),
    gapMinutes: fc.integer({ min: 0, max: 60 }),
    minNotice: spanArb(1),
    maxNotice: fc.oneof(
      { arbitrary: spanArb(12), weight: 1 },
      { arbitrary: fc.constant<Timespan>({ amount: 2, unit: 'months' }), weight: 2 },
    ),
    nowOffset: fc.integer({ min: -3 * 24 * 60, max: 12 * 60 }),
    fromOffset: fc.integer({ min: -3 * 24 * 60, max: 24 * 60 }),
    windowMinutes: fc.integer({ min: 12 * 60, max: 8 * 24 * 60 }),
    busy: fc.array(fc.record({ at: fc.integer({ min: -4 * 24 * 60, max: 9 * 24 * 60 }), minutes: fc.integer({ min: 1, max: 300 }) }), {
      maxLength: 25,
    }),
    overrides: fc.array(
      fc.record({
        day: fc.integer({ min: -3, max: 9 }),
        allDay: fc.boolean(),
        from: fc.integer({ min: 0, max: 1439 }),
        length: fc.integer({ min: 1, max: 600 }),
      }),
      { maxLength: 4 },
    ),
  })
  .map((r) => {
    const base = r.anchor;
    return {
      schedule: r.schedule,
      timeZone: r.timeZone,
      durationMinutes: r.durationMinutes,
      gapMinutes: r.gapMinutes,
      minNotice: r.minNotice,
      maxNotice: r.maxNotice,
      now: new Date(base + r.nowOffset * MINUTE),
      from: new Date(base + r.fromOffset * MINUTE),
      to: new Date(base + (r.fromOffset + r.windowMinutes) * MINUTE),
      busy: r.busy.map((b) => ({ start: new Date(base + b.at * MINUTE), end: new Date(base + (b.at + b.minutes) * MINUTE) })),
      overrides: r.overrides.map((o): SlotOverride => {
        const day = new Date(base + o.day * DAY).toISOString().slice(0, 10);
        return o.allDay ? { day, allDay: true } : { day, allDay: false, from: hhmm(o.from), to: hhmm(Math.min(1439, o.from + o.length)) };
      }),
    };
  });

const key = (s: { start: Date }) => s.start.getTime();

describe('free slots (properties, in several zones around the 2026–2027 clock changes)', () => {
  it('agree with the slow reference', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(plain(freeSlots(input))).toEqual(referenceSlots(input));
      }),
      RUNS,
    );
  });

  it('are sorted and never overlap each other', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const slots = freeSlots(input);
        slots.forEach((s, i) => {
          expect(s.end.getTime() - s.start.getTime()).toBe(input.durationMinutes * MINUTE);
          if (i) expect(s.start.getTime()).toBeGreaterThanOrEqual(slots[i - 1]!.end.getTime());
        });
      }),
      RUNS,
    );
  });

  it('never meet a busy session widened by the gap, nor a blocked date', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const gap = input.gapMinutes * MINUTE;
        for (const s of freeSlots(input)) {
          for (const b of input.busy!) {
            const met = b.start.getTime() - gap < s.end.getTime() && b.end.getTime() + gap > s.start.getTime();
            expect(met).toBe(false);
          }
          for (const o of input.overrides!.filter((o) => o.day === s.day)) {
            expect(o.allDay).toBe(false);
            const [bs, be] = [toInstant(o.day, o.from!, input.timeZone), toInstant(o.day, o.to!, input.timeZone)];
            expect(bs < s.end && be > s.start).toBe(false);
          }
        }
      }),
      RUNS,
    );
  });

  it('lie wholly inside a schedule range of their local day, start in [from, to) and respect the notice', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const tz = input.timeZone;
        const earliest = addTimespan(input.now, input.minNotice, tz);
        const latest = addTimespan(input.now, input.maxNotice, tz);
        for (const s of freeSlots(input)) {
          expect(toLocal(s.start, tz)).toEqual({ day: s.day, time: s.time });
          const ranges = input.schedule[ISO_WEEKDAYS[isoWeekday(s.day) - 1]!] ?? [];
          const inside = ranges.some((r) => toInstant(s.day, r.from, tz) <= s.start && s.end <= toInstant(s.day, r.to, tz));
          expect(inside).toBe(true);
          expect(s.start >= input.from && s.start < input.to).toBe(true);
          expect(s.start >= earliest && s.start <= latest).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('removing a busy session never removes a slot', () => {
    fc.assert(
      fc.property(inputArb, fc.nat(), (input, pick) => {
        fc.pre(input.busy!.length > 0);
        const fewer = input.busy!.filter((_, i) => i !== pick % input.busy!.length);
        const after = new Set(freeSlots({ ...input, busy: fewer }).map(key));
        for (const s of freeSlots(input)) expect(after.has(key(s))).toBe(true);
      }),
      RUNS,
    );
  });

  it('adding a blocked date never adds a slot', () => {
    fc.assert(
      fc.property(
        inputArb,
        fc.integer({ min: -1, max: 8 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 1380 }),
        (input, dayIndex, allDay, from) => {
          const day = new Date(input.from.getTime() + dayIndex * DAY).toISOString().slice(0, 10);
          const override: SlotOverride = allDay ? { day, allDay } : { day, allDay, from: hhmm(from), to: hhmm(from + 59) };
          const before = new Set(freeSlots(input).map(key));
          for (const s of freeSlots({ ...input, overrides: [...input.overrides!, override] })) expect(before.has(key(s))).toBe(true);
        },
      ),
      RUNS,
    );
  });
});
