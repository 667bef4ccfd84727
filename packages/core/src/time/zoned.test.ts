import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TIME_ZONE,
  addLocalDays,
  addLocalMonths,
  addMinutes,
  dayRange,
  daysBetween,
  displayDayEs,
  formatDayEs,
  formatLocal,
  isHHmm,
  isIsoDay,
  isValidTimeZone,
  isoWeekday,
  localClock,
  monthRange,
  shiftDay,
  startOfLocalDay,
  toInstant,
  toLocal,
  todayIn,
  weekRange,
} from './zoned';
import { hhmmSchema, isoDaySchema } from './time.contracts';
import { underEveryServerZone } from './testing/server-zones';
import { propertyRuns } from '../testing/deep';

const MAD = DEFAULT_TIME_ZONE;
const at = (iso: string) => new Date(iso);
const hours = (r: { start: Date; end: Date }) => (r.end.getTime() - r.start.getTime()) / 3_600_000;

/** The clock changes in Madrid: spring (02:00 → 03:00, 01:00 UTC) and autumn (03:00 → 02:00, 01:00 UTC). */
const SPRING = ['2026-03-29', '2027-03-28'] as const;
const AUTUMN = ['2026-10-25', '2027-10-31'] as const;

underEveryServerZone(() => {
  describe('validation', () => {
    it('accepts only real calendar days as YYYY-MM-DD', () => {
      for (const ok of ['2026-01-01', '2026-02-28', '2028-02-29', '2000-02-29', '2026-12-31', '2026-04-30'])
        expect(isIsoDay(ok), ok).toBe(true);
      for (const bad of [
        '2026-02-30',
        '2027-02-29',
        '1900-02-29',
        '2026-04-31',
        '2026-13-01',
        '2026-00-10',
        '2026-01-00',
        '2026-1-01',
        '26-01-01',
        '2026-01-01T00:00',
        ' 2026-01-01',
        '',
        null,
        20260101,
      ]) {
        expect(isIsoDay(bad), String(bad)).toBe(false);
      }
    });

    it('accepts only HH:mm from 00:00 to 23:59', () => {
      for (const ok of ['00:00', '09:05', '18:00', '23:59']) expect(isHHmm(ok)).toBe(true);
      for (const bad of ['24:00', '9:00', '12:60', '12:00:00', '1200', '', undefined]) expect(isHHmm(bad)).toBe(false);
    });

    it('knows IANA zones and refuses offsets, typos and lookalikes', () => {
      for (const ok of ['Europe/Madrid', 'Atlantic/Canary', 'UTC', 'America/New_York']) expect(isValidTimeZone(ok)).toBe(true);
      for (const bad of ['Mars/Olympus', '+01:00', 'Foo+05', 'Europe/Madrid ', '', 'Europe/../etc', 42])
        expect(isValidTimeZone(bad)).toBe(false);
    });

    it('offers the same checks as Zod schemas with Spanish messages', () => {
      expect(isoDaySchema.safeParse('2026-02-28').success).toBe(true);
      const r = isoDaySchema.safeParse('2026-02-30');
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toBe('Fecha inválida');
      expect(hhmmSchema.safeParse('24:00').error?.issues[0]?.message).toBe('Hora inválida');
    });
  });

  describe('toInstant and toLocal', () => {
    it('turns Madrid wall time into the right UTC instant in winter and in summer', () => {
      expect(toInstant('2026-01-15', '10:00', MAD)).toEqual(at('2026-01-15T09:00:00Z'));
      expect(toInstant('2026-07-15', '10:00', MAD)).toEqual(at('2026-07-15T08:00:00Z'));
      expect(toInstant('2026-07-15', '10:00', 'Atlantic/Canary')).toEqual(at('2026-07-15T09:00:00Z'));
      expect(toInstant('2026-07-15', '10:00', 'America/New_York')).toEqual(at('2026-07-15T14:00:00Z'));
    });

    it.each(SPRING)('moves a time in the spring-forward gap of %s forward by the gap', (day) => {
      expect(toInstant(day, '01:59', MAD)).toEqual(at(`${day}T00:59:00Z`));
      expect(toInstant(day, '02:00', MAD)).toEqual(at(`${day}T01:00:00Z`));
      expect(toInstant(day, '02:30', MAD)).toEqual(at(`${day}T01:30:00Z`));
      expect(toLocal(toInstant(day, '02:30', MAD), MAD)).toEqual({ day, time: '03:30' });
      expect(toInstant(day, '03:00', MAD)).toEqual(at(`${day}T01:00:00Z`));
      expect(toInstant(day, '03:30', MAD)).toEqual(at(`${day}T01:30:00Z`));
    });

    it.each(AUTUMN)('takes the first (summer-time) occurrence of an ambiguous time on %s', (day) => {
      const prev = shiftDay(day, -1);
      expect(toInstant(day, '01:59', MAD)).toEqual(at(`${prev}T23:59:00Z`));
      expect(toInstant(day, '02:00', MAD)).toEqual(at(`${day}T00:00:00Z`));
      expect(toInstant(day, '02:30', MAD)).toEqual(at(`${day}T00:30:00Z`));
      expect(toInstant(day, '02:59', MAD)).toEqual(at(`${day}T00:59:00Z`));
      expect(toInstant(day, '03:00', MAD)).toEqual(at(`${day}T02:00:00Z`));
      // Both real instants read back as 02:30; the way back gives the first.
      expect(toLocal(at(`${day}T00:30:00Z`), MAD)).toEqual({ day, time: '02:30' });
      expect(toLocal(at(`${day}T01:30:00Z`), MAD)).toEqual({ day, time: '02:30' });
    });

    it.each([...SPRING, ...AUTUMN])(
      'round-trips every quarter hour of %s (except the repeated hour, which maps to its first pass)',
      (day) => {
        const start = at(`${shiftDay(day, -1)}T22:00:00Z`).getTime();
        for (let t = start; t < start + 26 * 3_600_000; t += 15 * 60_000) {
          const local = toLocal(new Date(t), MAD);
          const back = toInstant(local.day, local.time, MAD).getTime();
          const repeated =
            AUTUMN.includes(day as (typeof AUTUMN)[number]) &&
            t >= at(`${day}T01:00:00Z`).getTime() &&
            t < at(`${day}T02:00:00Z`).getTime();
          expect(back, new Date(t).toISOString()).toBe(repeated ? t - 3_600_000 : t);
        }
      },
    );

    it('refuses malformed days, times and zones with a RangeError', () => {
      expect(() => toInstant('2026-02-30', '10:00', MAD)).toThrow(RangeError);
      expect(() => toInstant('2026-2-3', '10:00', MAD)).toThrow(RangeError);
      expect(() => toInstant('2026-02-03', '25:00', MAD)).toThrow(RangeError);
      expect(() => toInstant('2026-02-03', '2:30', MAD)).toThrow(RangeError);
      expect(() => toInstant('2026-02-03', '10:00', 'Mars/Olympus')).toThrow(RangeError);
      expect(() => toLocal(new Date(NaN), MAD)).toThrow(RangeError);
    });

    it('drops seconds when reading an instant', () => {
      expect(toLocal(at('2026-01-01T10:00:59.999Z'), MAD)).toEqual({ day: '2026-01-01', time: '11:00' });
    });
  });

  describe('todayIn', () => {
    it('gives the local day around midnight UTC and midnight Madrid', () => {
      expect(todayIn(MAD, at('2026-01-15T22:59:59Z'))).toBe('2026-01-15');
      expect(todayIn(MAD, at('2026-01-15T23:00:00Z'))).toBe('2026-01-16');
      expect(todayIn('UTC', at('2026-01-15T23:00:00Z'))).toBe('2026-01-15');
      expect(todayIn('America/New_York', at('2026-01-16T03:00:00Z'))).toBe('2026-01-15');
      expect(todayIn(MAD, at('2026-07-15T21:59:59Z'))).toBe('2026-07-15');
      expect(todayIn(MAD, at('2026-07-15T22:00:00Z'))).toBe('2026-07-16');
      expect(todayIn(MAD, at('2026-12-31T23:00:00Z'))).toBe('2027-01-01');
      expect(todayIn(MAD, at('2026-03-28T23:00:00Z'))).toBe('2026-03-29');
    });

    it('defaults to now', () => {
      const before = todayIn(MAD, new Date());
      expect([before, todayIn(MAD, new Date())]).toContain(todayIn(MAD));
    });
  });

  describe('calendar days', () => {
    it('shifts days across months, years and leap days', () => {
      expect(shiftDay('2026-01-31', 1)).toBe('2026-02-01');
      expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01');
      expect(shiftDay('2028-02-28', 1)).toBe('2028-02-29');
      expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
      expect(shiftDay('2026-03-28', 2)).toBe('2026-03-30');
      expect(() => shiftDay('2026-03-28', 1.5)).toThrow(RangeError);
    });

    it('counts calendar days, not 24-hour blocks, across a clock change', () => {
      expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
      expect(daysBetween('2026-10-26', '2026-10-24')).toBe(-2);
      expect(daysBetween('2026-01-01', '2027-01-01')).toBe(365);
    });

    it('numbers weekdays Monday = 1 to Sunday = 7', () => {
      expect(isoWeekday('2026-03-23')).toBe(1);
      expect(isoWeekday('2026-03-29')).toBe(7);
    });

    it('formats days and instants the Spanish way', () => {
      expect(formatDayEs('2026-03-09')).toBe('09/03/2026');
      expect(formatLocal(at('2026-03-29T16:00:00Z'), MAD)).toBe('29/03/2026 18:00');
      expect(formatLocal(at('2026-12-31T23:30:00Z'), MAD)).toBe('01/01/2027 00:30');
      expect(() => formatDayEs('2026-02-30')).toThrow(RangeError);
    });

    it('shows the day at the start of a text, and text with no day as it is', () => {
      expect(displayDayEs('2026-11-03')).toBe('03/11/2026');
      expect(displayDayEs('2026-11-03T10:00:00Z')).toBe('03/11/2026');
      expect(displayDayEs('2026-02-30')).toBe('2026-02-30');
      expect(displayDayEs('mañana')).toBe('mañana');
      expect(displayDayEs('')).toBe('');
    });
  });

  describe('days, weeks and months as instants', () => {
    it('starts a Madrid day at local midnight', () => {
      expect(startOfLocalDay('2026-01-15', MAD)).toEqual(at('2026-01-14T23:00:00Z'));
      expect(startOfLocalDay('2026-07-15', MAD)).toEqual(at('2026-07-14T22:00:00Z'));
    });

    it.each([...SPRING.map((d) => [d, 23] as const), ...AUTUMN.map((d) => [d, 25] as const), ['2026-06-01', 24] as const])(
      'makes %s %i hours long',
      (day, h) => {
        expect(hours(dayRange(day, MAD))).toBe(h);
      },
    );

    it('runs weeks Monday to Monday, with Sunday closing the week', () => {
      const week = weekRange('2026-06-10', MAD);
      expect(week).toEqual({ start: at('2026-06-07T22:00:00Z'), end: at('2026-06-14T22:00:00Z') });
      expect(weekRange('2026-06-08', MAD)).toEqual(week);
      expect(weekRange('2026-06-14', MAD)).toEqual(week);
      expect(hours(week)).toBe(168);
    });

    it.each(SPRING)('makes the week of the spring change (%s) 167 hours', (day) => {
      const week = weekRange(day, MAD);
      expect(toLocal(week.start, MAD)).toEqual({ day: shiftDay(day, -6), time: '00:00' });
      expect(toLocal(week.end, MAD)).toEqual({ day: shiftDay(day, 1), time: '00:00' });
      expect(hours(week)).toBe(167);
      expect(weekRange(shiftDay(day, -3), MAD)).toEqual(week);
    });

    it.each(AUTUMN)('makes the week of the autumn change (%s) 169 hours', (day) => {
      const week = weekRange(day, MAD);
      expect(toLocal(week.start, MAD)).toEqual({ day: shiftDay(day, -6), time: '00:00' });
      expect(hours(week)).toBe(169);
    });

    it('gives months their real length in hours, changes included', () => {
      expect(hours(monthRange('2026-03-15', MAD))).toBe(31 * 24 - 1);
      expect(hours(monthRange('2027-03-01', MAD))).toBe(31 * 24 - 1);
      expect(hours(monthRange('2026-10-31', MAD))).toBe(31 * 24 + 1);
      expect(hours(monthRange('2027-10-15', MAD))).toBe(31 * 24 + 1);
      expect(hours(monthRange('2026-02-10', MAD))).toBe(28 * 24);
      expect(hours(monthRange('2028-02-10', MAD))).toBe(29 * 24);
      expect(monthRange('2026-12-31', MAD)).toEqual({ start: at('2026-11-30T23:00:00Z'), end: at('2026-12-31T23:00:00Z') });
    });
  });

  describe('arithmetic', () => {
    it.each([
      ['2026-03-22', '2026-03-22T17:00:00Z', '2026-03-29T16:00:00Z'],
      ['2026-10-18', '2026-10-18T16:00:00Z', '2026-10-25T17:00:00Z'],
      ['2027-03-21', '2027-03-21T17:00:00Z', '2027-03-28T16:00:00Z'],
      ['2027-10-24', '2027-10-24T16:00:00Z', '2027-10-31T17:00:00Z'],
    ])('keeps 18:00 at 18:00 a week after %s (the UTC instant moves an hour)', (day, before, after) => {
      const start = toInstant(day, '18:00', MAD);
      expect(start).toEqual(at(before));
      const next = addLocalDays(start, 7, MAD);
      expect(next).toEqual(at(after));
      expect(toLocal(next, MAD)).toEqual({ day: shiftDay(day, 7), time: '18:00' });
      expect(addLocalDays(next, -7, MAD)).toEqual(start);
    });

    it('lands a shifted time that falls in the gap an hour later, as toInstant does', () => {
      expect(toLocal(addLocalDays(toInstant('2026-03-22', '02:30', MAD), 7, MAD), MAD)).toEqual({ day: '2026-03-29', time: '03:30' });
    });

    it('adds months keeping the wall time and clamping to the month end', () => {
      const local = (d: Date) => toLocal(d, MAD);
      expect(local(addLocalMonths(toInstant('2026-03-15', '18:00', MAD), 1, MAD))).toEqual({ day: '2026-04-15', time: '18:00' });
      expect(local(addLocalMonths(toInstant('2026-10-15', '18:00', MAD), 1, MAD))).toEqual({ day: '2026-11-15', time: '18:00' });
      expect(local(addLocalMonths(toInstant('2026-01-31', '09:00', MAD), 1, MAD))).toEqual({ day: '2026-02-28', time: '09:00' });
      expect(local(addLocalMonths(toInstant('2026-03-31', '09:00', MAD), -1, MAD))).toEqual({ day: '2026-02-28', time: '09:00' });
      expect(local(addLocalMonths(toInstant('2028-02-29', '09:00', MAD), 12, MAD))).toEqual({ day: '2029-02-28', time: '09:00' });
      expect(local(addLocalMonths(toInstant('2026-11-30', '09:00', MAD), 3, MAD))).toEqual({ day: '2027-02-28', time: '09:00' });
      expect(() => addLocalMonths(new Date(), 0.5, MAD)).toThrow(RangeError);
    });

    it('adds real minutes for durations, across the changes too', () => {
      const spring = toInstant('2026-03-29', '01:30', MAD);
      expect(toLocal(addMinutes(spring, 50), MAD).time).toBe('03:20');
      const autumn = toInstant('2026-10-25', '02:30', MAD);
      expect(addMinutes(autumn, 60)).toEqual(at('2026-10-25T01:30:00Z'));
      expect(toLocal(addMinutes(autumn, 60), MAD).time).toBe('02:30');
      expect(() => addMinutes(new Date(NaN), 5)).toThrow(RangeError);
    });
  });
  describe('localClock', () => {
    /** Zones with a clock change near these days, a half-hour one (Lord Howe), a 45-minute offset and none. */
    const ZONES = ['Europe/Madrid', 'America/Santiago', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];
    const ANCHORS = ['2026-03-29', '2026-10-25', '2026-04-05', '2026-09-06', '2026-03-08', '2026-11-01', '2026-06-10'].map((d) =>
      Date.parse(`${d}T00:00:00Z`),
    );
    const DAY_MS = 86_400_000;

    it('reads every instant of a range up to 8 days as toLocal does, across clock changes', () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...ZONES),
          fc.constantFrom(...ANCHORS),
          fc.integer({ min: -4 * DAY_MS, max: 0 }),
          fc.integer({ min: 0, max: 8 * DAY_MS }),
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 40 }),
          (zone, anchor, shift, span, picks) => {
            const first = anchor + shift;
            const clock = localClock(zone, new Date(first), new Date(first + span));
            for (const p of picks) {
              const at = new Date(first + Math.round(p * span));
              expect(clock(at)).toEqual(toLocal(at, zone));
            }
          },
        ),
        { numRuns: propertyRuns(400) },
      );
    });

    it('finds the change to the millisecond, and reads outside its range or past 8 days as toLocal', () => {
      // Madrid, 29/03/2026: 01:00 UTC is 03:00 local; a millisecond before is 01:59 local.
      const clock = localClock(MAD, at('2026-03-27T00:00:00Z'), at('2026-04-02T00:00:00Z'));
      expect(clock(at('2026-03-29T00:59:59.999Z'))).toEqual({ day: '2026-03-29', time: '01:59' });
      expect(clock(at('2026-03-29T01:00:00Z'))).toEqual({ day: '2026-03-29', time: '03:00' });
      expect(clock(at('2026-05-01T10:00:00Z'))).toEqual(toLocal(at('2026-05-01T10:00:00Z'), MAD));
      const wide = localClock(MAD, at('2026-03-01T00:00:00Z'), at('2026-11-30T00:00:00Z'));
      for (const iso of ['2026-03-02T10:00:00Z', '2026-07-01T10:00:00Z', '2026-11-29T10:00:00Z'])
        expect(wide(at(iso))).toEqual(toLocal(at(iso), MAD));
      expect(() => localClock('Nada/Ninguna', at('2026-01-01T00:00:00Z'), at('2026-01-02T00:00:00Z'))).toThrow(RangeError);
    });
  });
});
