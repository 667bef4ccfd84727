import { describe, expect, it } from 'vitest';
import { underEveryServerZone } from '../time/testing/server-zones';
import { toInstant } from '../time/zoned';
import type { TimeRange } from './booking-service.contracts';
import { freeSlots, type FreeSlotsInput, type Slot } from './slots';
import { plain, referenceSlots } from './slots.testing';
import { presentSlot } from './slots-view';

/**
 * Slots across clock changes. Every change of 2026 and 2027 falls on a Sunday, so the schedules here are
 * Sunday ones; night ranges put the changed hour inside a range. 50-minute sessions, 10-minute gap.
 */
const sunday = (timeZone: string, day: string, ranges: TimeRange[]): FreeSlotsInput => ({
  schedule: { 7: ranges },
  timeZone,
  durationMinutes: 50,
  gapMinutes: 10,
  minNotice: { amount: 0, unit: 'minutes' },
  maxNotice: { amount: 12, unit: 'months' },
  from: toInstant(day, '00:00', timeZone),
  to: toInstant(day, '23:59', timeZone),
  now: new Date(toInstant(day, '00:00', timeZone).getTime() - 30 * 86_400_000),
});
const labels = (slots: Slot[]) => slots.map((s) => s.time);
const starts = (slots: Slot[]) => slots.map((s) => s.start.toISOString().slice(0, 16));
const hourly = (slots: Slot[]) => slots.every((s, i) => i === 0 || s.start.getTime() - slots[i - 1]!.start.getTime() === 3_600_000);
const NIGHT = [{ from: '00:00', to: '06:00' }];

underEveryServerZone(() => {
  describe('Europe/Madrid', () => {
    it.each([
      ['2026-03-29', '2026-03-28T23:00'],
      ['2027-03-28', '2027-03-27T23:00'],
    ])('spring forward on %s: the night range is an hour shorter and no slot is at 02:xx', (day, first) => {
      const slots = freeSlots(sunday('Europe/Madrid', day, NIGHT));
      expect(labels(slots)).toEqual(['00:00', '01:00', '03:00', '04:00', '05:00']);
      expect(starts(slots)[0]).toBe(first);
      expect(hourly(slots)).toBe(true);
    });

    it.each([
      ['2026-10-25', '2026-10-24T22:00'],
      ['2027-10-31', '2027-10-30T22:00'],
    ])('fall back on %s: the repeated hour gives two distinct 02:00 slots, none overlapping', (day, first) => {
      const slots = freeSlots(sunday('Europe/Madrid', day, NIGHT));
      expect(labels(slots)).toEqual(['00:00', '01:00', '02:00', '02:00', '03:00', '04:00', '05:00']);
      expect(starts(slots)[0]).toBe(first);
      expect(hourly(slots)).toBe(true);
      expect(new Set(starts(slots)).size).toBe(slots.length);
      const [summer, winter] = slots
        .filter((s) => s.time === '02:00')
        .map((s) => presentSlot(s, 'Europe/Madrid', 'Europe/Madrid').therapist.offset);
      expect([summer, winter]).toEqual(['UTC+2', 'UTC+1']);
    });

    it.each([
      ['2026-03-22', '2026-03-29', '08:00', '07:00'],
      ['2026-10-18', '2026-10-25', '07:00', '08:00'],
      ['2027-03-21', '2027-03-28', '08:00', '07:00'],
      ['2027-10-24', '2027-10-31', '07:00', '08:00'],
    ])('09:00 stays 09:00: the Sunday %s and the change day %s differ only in UTC', (before, change, utcBefore, utcAfter) => {
      const day = [{ from: '09:00', to: '14:00' }];
      for (const [d, utc] of [
        [before, utcBefore],
        [change, utcAfter],
      ] as const) {
        const slots = freeSlots(sunday('Europe/Madrid', d, day));
        expect(labels(slots)).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00']);
        expect(slots[0]!.start.toISOString().slice(11, 16)).toBe(utc);
      }
    });

    it('a range starting in the spring gap starts when it is moved forward to (02:30 → 03:30)', () => {
      const slots = freeSlots(sunday('Europe/Madrid', '2026-03-29', [{ from: '02:30', to: '05:00' }]));
      expect(labels(slots)).toEqual(['03:30']);
      expect(starts(slots)).toEqual(['2026-03-29T01:30']);
    });

    it('ranges that meet across the gap never give overlapping slots: 01:00–02:30 then 03:00–05:00', () => {
      // 02:30 does not exist: read as 03:30, after 03:00, where the second range starts. The second offers
      // slots from 03:30 on, on its own grid (03:00 + 1 h).
      const slots = freeSlots(
        sunday('Europe/Madrid', '2026-03-29', [
          { from: '01:00', to: '02:30' },
          { from: '03:00', to: '05:00' },
        ]),
      );
      expect(labels(slots)).toEqual(['01:00', '04:00']);
      expect(slots[1]!.start.getTime()).toBeGreaterThanOrEqual(slots[0]!.end.getTime());
    });

    it('a busy session in the repeated hour takes only the slots it meets', () => {
      const input = sunday('Europe/Madrid', '2026-10-25', NIGHT);
      // 02:10–02:40 in winter time (01:10–01:40 UTC), widened to 01:00–01:50 UTC: the second 02:00 only.
      const busy = [{ start: new Date('2026-10-25T01:10:00Z'), end: new Date('2026-10-25T01:40:00Z') }];
      const slots = freeSlots({ ...input, busy });
      expect(labels(slots)).toEqual(['00:00', '01:00', '02:00', '03:00', '04:00', '05:00']);
      expect(presentSlot(slots[2]!, 'Europe/Madrid', 'UTC').therapist.offset).toBe('UTC+2');
    });
  });

  describe('Atlantic/Canary (changes at 01:00 local, the same instant as Madrid)', () => {
    it.each([
      ['2026-03-29', ['00:00', '02:00', '03:00']],
      ['2027-03-28', ['00:00', '02:00', '03:00']],
      ['2026-10-25', ['00:00', '01:00', '01:00', '02:00', '03:00']],
      ['2027-10-31', ['00:00', '01:00', '01:00', '02:00', '03:00']],
    ])('%s: 00:00–04:00 gives %j', (day, expected) => {
      const slots = freeSlots(sunday('Atlantic/Canary', day, [{ from: '00:00', to: '04:00' }]));
      expect(labels(slots)).toEqual(expected);
      expect(hourly(slots)).toBe(true);
    });
  });

  describe('America/Mexico_City (no clock change since 2022)', () => {
    it.each(['2026-04-05', '2026-10-25', '2027-04-04', '2027-10-31'])('%s, a Sunday that used to change: six steady hours', (day) => {
      const slots = freeSlots(sunday('America/Mexico_City', day, NIGHT));
      expect(labels(slots)).toEqual(['00:00', '01:00', '02:00', '03:00', '04:00', '05:00']);
      expect(slots[0]!.start.toISOString()).toBe(`${day}T06:00:00.000Z`);
    });
  });

  describe('America/Havana (changes at midnight: the day itself starts late or twice)', () => {
    it('8 March 2026: 00:00 does not exist, the range starts at 01:00', () => {
      const slots = freeSlots(sunday('America/Havana', '2026-03-08', [{ from: '00:00', to: '03:00' }]));
      expect(labels(slots)).toEqual(['01:00', '02:00']);
      expect(starts(slots)).toEqual(['2026-03-08T05:00', '2026-03-08T06:00']);
    });
    it('1 November 2026: midnight happens twice, the range starts at the first', () => {
      const slots = freeSlots(sunday('America/Havana', '2026-11-01', [{ from: '00:00', to: '03:00' }]));
      expect(labels(slots)).toEqual(['00:00', '00:00', '01:00', '02:00']);
      expect(starts(slots)[0]).toBe('2026-11-01T04:00');
    });
  });

  describe('a year of Sundays and weekdays in several zones agrees with the slow reference', () => {
    it.each(['Europe/Madrid', 'Atlantic/Canary', 'America/Havana', 'Australia/Lord_Howe', 'America/Santiago'])(
      '%s, 2026–2027',
      (timeZone) => {
        const schedule = {
          1: [{ from: '09:00', to: '14:00' }],
          6: [{ from: '22:00', to: '23:59' }],
          7: [
            { from: '00:00', to: '04:30' },
            { from: '16:00', to: '20:00' },
          ],
        };
        const input: FreeSlotsInput = {
          ...sunday(timeZone, '2026-01-04', []),
          schedule,
          durationMinutes: 45,
          gapMinutes: 15,
          from: new Date('2026-01-01T00:00:00Z'),
          to: new Date('2028-01-01T00:00:00Z'),
          // Beyond the contract's year, to cover both years' changes in one window.
          maxNotice: { amount: 24, unit: 'months' },
          now: new Date('2025-12-31T10:00:00Z'),
        };
        const slots = freeSlots(input);
        expect(slots.length).toBeGreaterThan(1500);
        expect(plain(slots)).toEqual(referenceSlots(input));
      },
    );
  });
});
