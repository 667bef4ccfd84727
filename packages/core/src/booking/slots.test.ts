import { describe, expect, it } from 'vitest';
import { underEveryServerZone } from '../time/testing/server-zones';
import { toInstant } from '../time/zoned';
import type { WeeklySchedule } from './booking-service.contracts';
import { freeSlots, type FreeSlotsInput } from './slots';
import { plain, referenceSlots } from './slots.testing';
import { freeDaysOf, presentSlot, utcOffsetLabel } from './slots-view';

const MAD = 'Europe/Madrid';
const at = (iso: string) => new Date(iso);
const WORKDAY = [
  { from: '09:00', to: '14:00' },
  { from: '16:00', to: '20:00' },
];
const TYPICAL: Partial<WeeklySchedule> = { 1: WORKDAY, 2: WORKDAY, 3: WORKDAY, 4: WORKDAY, 5: WORKDAY };
const DAY_TIMES = ['09:00', '10:00', '11:00', '12:00', '13:00', '16:00', '17:00', '18:00', '19:00'];

/** The week of Monday 2 March 2026 (CET, UTC+1), booked from the Friday before. */
const week = (over: Partial<FreeSlotsInput> = {}): FreeSlotsInput => ({
  schedule: TYPICAL,
  timeZone: MAD,
  durationMinutes: 50,
  gapMinutes: 10,
  minNotice: { amount: 24, unit: 'hours' },
  maxNotice: { amount: 2, unit: 'months' },
  overrides: [],
  busy: [],
  from: at('2026-03-01T23:00:00Z'),
  to: at('2026-03-08T23:00:00Z'),
  now: at('2026-02-27T12:00:00Z'),
  ...over,
});
const timesOn = (input: FreeSlotsInput, day: string) =>
  freeSlots(input)
    .filter((s) => s.day === day)
    .map((s) => s.time);
const local = (day: string, time: string) => toInstant(day, time, MAD);
const session = (day: string, from: string, to: string) => ({ start: local(day, from), end: local(day, to) });

/** A deterministic pseudo-random sequence (mulberry32), for a busy month that is the same on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

underEveryServerZone(() => {
  describe('free slots of a week', () => {
    it('steps by duration + gap from each range start, wholly inside the ranges, local 09:00 being 08:00 UTC in winter', () => {
      const slots = freeSlots(week());
      expect(slots).toHaveLength(5 * 9);
      expect(slots[0]).toEqual({ start: at('2026-03-02T08:00:00Z'), end: at('2026-03-02T08:50:00Z'), day: '2026-03-02', time: '09:00' });
      for (const day of ['2026-03-02', '2026-03-04', '2026-03-06']) expect(timesOn(week(), day)).toEqual(DAY_TIMES);
      expect(slots.some((s) => s.day === '2026-03-07' || s.day === '2026-03-08')).toBe(false);
      // 13:00–13:50 fits before 14:00; 19:00–19:50 before 20:00; nothing starts at 14:00 or 20:00.
      expect(slots.filter((s) => s.day === '2026-03-02').map((s) => s.end.toISOString())).toContain('2026-03-02T12:50:00.000Z');
    });

    it('the last slot of a range needs no gap after it: 09:00–10:50 with 50 + 10 offers 09:00 and 10:00', () => {
      expect(timesOn(week({ schedule: { 1: [{ from: '09:00', to: '11:30' }] } }), '2026-03-02')).toEqual(['09:00', '10:00']);
      expect(timesOn(week({ schedule: { 1: [{ from: '09:00', to: '10:50' }] } }), '2026-03-02')).toEqual(['09:00', '10:00']);
      expect(timesOn(week({ schedule: { 1: [{ from: '09:00', to: '10:49' }] } }), '2026-03-02')).toEqual(['09:00']);
    });

    it('keeps the gap around every session, and a session off the grid does not move the grid', () => {
      const input = week({ busy: [session('2026-03-02', '10:30', '11:20')] });
      // 10:30–11:20 widened by 10 minutes is 10:20–11:30: it takes 10:00 and 11:00; 12:00 stays on the grid.
      expect(timesOn(input, '2026-03-02')).toEqual(['09:00', '12:00', '13:00', '16:00', '17:00', '18:00', '19:00']);
      expect(timesOn(input, '2026-03-03')).toEqual(DAY_TIMES);
    });

    it('a session ending exactly a gap before a slot leaves it free; a minute later takes it', () => {
      expect(timesOn(week({ busy: [session('2026-03-02', '08:00', '08:50')] }), '2026-03-02')[0]).toBe('09:00');
      expect(timesOn(week({ busy: [session('2026-03-02', '08:00', '08:51')] }), '2026-03-02')[0]).toBe('10:00');
      expect(timesOn(week({ busy: [session('2026-03-02', '14:00', '14:30')] }), '2026-03-02')).toEqual(DAY_TIMES);
      expect(timesOn(week({ busy: [session('2026-03-02', '13:55', '14:30')] }), '2026-03-02')).not.toContain('13:00');
    });

    it('reads overlapping, unsorted and invalid sessions: a long one takes everything it covers', () => {
      const busy = [
        session('2026-03-03', '09:00', '19:00'),
        session('2026-03-03', '10:00', '10:30'),
        { start: local('2026-03-04', '10:00'), end: local('2026-03-04', '10:00') },
      ];
      expect(timesOn(week({ busy }), '2026-03-03')).toEqual([]);
      expect(timesOn(week({ busy }), '2026-03-04')).toEqual(DAY_TIMES);
    });

    it('blocked dates: a whole day, or the slots meeting a range of it', () => {
      const overrides = [
        { day: '2026-03-03', allDay: true },
        { day: '2026-03-04', allDay: false, from: '16:00', to: '18:00' },
        { day: '2026-03-05', allDay: false, from: '17:30', to: '17:40' },
        { day: '2026-03-06', allDay: false, from: '13:50', to: '16:00' },
      ];
      const input = week({ overrides });
      expect(timesOn(input, '2026-03-03')).toEqual([]);
      expect(timesOn(input, '2026-03-04')).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '18:00', '19:00']);
      expect(timesOn(input, '2026-03-05')).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '16:00', '18:00', '19:00']);
      // Not widened by the gap: 13:00–13:50 touches 13:50 and stays.
      expect(timesOn(input, '2026-03-06')).toEqual(DAY_TIMES);
    });

    it('minimum and maximum notice from now, both inclusive', () => {
      const now = local('2026-03-02', '08:30');
      const input = week({ now, minNotice: { amount: 150, unit: 'minutes' }, maxNotice: { amount: 2, unit: 'days' } });
      // Earliest 11:00 Monday (inclusive), latest Wednesday 08:30: Wednesday's 09:00 is out.
      expect(freeSlots(input)[0]!.time).toBe('11:00');
      expect(freeSlots(input)[0]!.day).toBe('2026-03-02');
      expect(freeSlots(input).at(-1)).toMatchObject({ day: '2026-03-03', time: '19:00' });
      const exactly = week({ now, minNotice: { amount: 2, unit: 'hours' }, maxNotice: { amount: 49, unit: 'hours' } });
      expect(freeSlots(exactly)[0]!.time).toBe('11:00');
      expect(
        freeSlots(week({ now, minNotice: { amount: 0, unit: 'minutes' }, maxNotice: { amount: 210, unit: 'minutes' } })).map((s) => s.time),
      ).toEqual(['09:00', '10:00', '11:00', '12:00']);
    });

    it('months of notice are calendar months in the zone: 31 January + 1 month is 28 February', () => {
      const input = week({
        schedule: { 6: [{ from: '09:00', to: '14:00' }] },
        now: local('2026-01-31', '10:00'),
        minNotice: { amount: 0, unit: 'minutes' },
        maxNotice: { amount: 1, unit: 'months' },
        from: local('2026-02-28', '00:00'),
        to: local('2026-03-01', '00:00'),
      });
      expect(freeSlots(input).map((s) => s.time)).toEqual(['09:00', '10:00']);
    });

    it('the window is [from, to) by start', () => {
      const from = local('2026-03-02', '10:00');
      const to = local('2026-03-02', '16:00');
      expect(freeSlots(week({ from, to })).map((s) => s.time)).toEqual(['10:00', '11:00', '12:00', '13:00']);
      expect(freeSlots(week({ from: to, to: from }))).toEqual([]);
      expect(freeSlots(week({ now: at('2026-03-09T00:00:00Z') }))).toEqual([]);
    });

    it('refuses what it cannot read', () => {
      expect(() => freeSlots(week({ timeZone: 'Mars/Olympus' }))).toThrow(RangeError);
      expect(() => freeSlots(week({ durationMinutes: 0 }))).toThrow(RangeError);
      expect(() => freeSlots(week({ gapMinutes: -5 }))).toThrow(RangeError);
      expect(() => freeSlots(week({ now: new Date(NaN) }))).toThrow(RangeError);
      expect(() => freeSlots(week({ overrides: [{ day: '2026-02-30', allDay: true }] }))).toThrow(RangeError);
    });
  });

  describe('against the slow reference, whatever the server zone', () => {
    it('a month of the typical schedule with 80 sessions and blocked dates gives the same slots', () => {
      const next = random(14);
      const busy = Array.from({ length: 80 }, () => {
        const day = `2026-03-${String(2 + Math.floor(next() * 28)).padStart(2, '0')}`;
        const start = local(
          day,
          `${String(8 + Math.floor(next() * 12)).padStart(2, '0')}:${String(Math.floor(next() * 12) * 5).padStart(2, '0')}`,
        );
        return { start, end: new Date(start.getTime() + (30 + Math.floor(next() * 60)) * 60_000) };
      });
      const input = week({
        busy,
        overrides: [
          { day: '2026-03-19', allDay: true },
          { day: '2026-03-26', allDay: false, from: '11:15', to: '17:05' },
        ],
        from: local('2026-03-01', '00:00'),
        to: local('2026-04-01', '00:00'),
      });
      const slots = plain(freeSlots(input));
      expect(slots.length).toBeGreaterThan(100);
      expect(slots).toEqual(referenceSlots(input));
      // March 2026 spans the spring change: 09:00 is 08:00 UTC before it and 07:00 UTC after.
      const nine = slots.filter((s) => s.time === '09:00');
      expect(nine.some((s) => s.day < '2026-03-29') && nine.some((s) => s.day > '2026-03-29')).toBe(true);
      for (const s of nine) expect(s.start.slice(11, 16)).toBe(s.day < '2026-03-29' ? '08:00' : '07:00');
    });
  });

  describe('presentation', () => {
    it("groups slots by the therapist's day for the month calendar", () => {
      const days = freeDaysOf(freeSlots(week({ overrides: [{ day: '2026-03-04', allDay: true }] })));
      expect(days.map((d) => d.day)).toEqual(['2026-03-02', '2026-03-03', '2026-03-05', '2026-03-06']);
      expect(days.every((d) => d.slots.length === 9)).toBe(true);
      expect(freeDaysOf([])).toEqual([]);
    });

    it("shows a slot in the visitor's zone beside the therapist's", () => {
      // 16 March 2026: Madrid is still UTC+1, New York already UTC−4 (since 8 March).
      const slot = freeSlots(week({ from: local('2026-03-16', '00:00'), to: local('2026-03-17', '00:00') }))[0]!;
      expect(presentSlot(slot, MAD, 'America/New_York')).toEqual({
        startsAt: '2026-03-16T08:00:00.000Z',
        endsAt: '2026-03-16T08:50:00.000Z',
        therapist: { day: '2026-03-16', from: '09:00', to: '09:50', offset: 'UTC+1' },
        visitor: { day: '2026-03-16', from: '04:00', to: '04:50', offset: 'UTC−4' },
        sameLocalTime: false,
      });
      const canary = presentSlot(slot, MAD, 'Atlantic/Canary');
      expect(canary.visitor).toEqual({ day: '2026-03-16', from: '08:00', to: '08:50', offset: 'UTC' });
      expect(presentSlot(slot, MAD, MAD).sameLocalTime).toBe(true);
      expect(utcOffsetLabel(at('2026-07-01T00:00:00Z'), 'Asia/Kolkata')).toBe('UTC+5:30');
      // A visitor far east sees the next day.
      expect(
        presentSlot({ ...slot, start: local('2026-03-16', '19:00'), end: local('2026-03-16', '19:50') }, MAD, 'Pacific/Auckland').visitor
          .day,
      ).toBe('2026-03-17');
    });
  });
});
