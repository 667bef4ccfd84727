import { describe, expect, it } from 'vitest';
import {
  RECURRENCE_MAX_COUNT,
  buildRecurrence,
  buildRrule,
  occurrenceDays,
  occurrences,
  parseRecurrence,
  recurrenceSettings,
  type Recurrence,
} from './recurrence';
import { shiftDay, toInstant, toLocal, weekRange } from './zoned';
import { underEveryServerZone } from './testing/server-zones';

const MAD = 'Europe/Madrid';
const iso = (ds: Date[]) => ds.map((d) => d.toISOString());
const weekly = (startDay: string, startTime: string, count: number): Recurrence =>
  buildRecurrence({ frequency: 'weekly', startDay, startTime, tz: MAD, count });

underEveryServerZone(() => {
  describe('clock changes', () => {
    it.each([
      ['spring 2026', '2026-03-22', ['2026-03-22T17:00:00.000Z', '2026-03-29T16:00:00.000Z', '2026-04-05T16:00:00.000Z']],
      ['autumn 2026', '2026-10-18', ['2026-10-18T16:00:00.000Z', '2026-10-25T17:00:00.000Z', '2026-11-01T17:00:00.000Z']],
      ['spring 2027', '2027-03-21', ['2027-03-21T17:00:00.000Z', '2027-03-28T16:00:00.000Z', '2027-04-04T16:00:00.000Z']],
      ['autumn 2027', '2027-10-24', ['2027-10-24T16:00:00.000Z', '2027-10-31T17:00:00.000Z', '2027-11-07T17:00:00.000Z']],
    ])('keeps a weekly 18:00 session at 18:00 Madrid across the %s change (UTC moves an hour)', (_, startDay, utc) => {
      const rec = weekly(startDay, '18:00', 3);
      const got = occurrences(rec);
      expect(iso(got)).toEqual(utc);
      expect(got.map((d) => toLocal(d, MAD))).toEqual([0, 7, 14].map((n) => ({ day: shiftDay(startDay, n), time: '18:00' })));
      expect(occurrenceDays(rec)).toEqual([0, 7, 14].map((n) => shiftDay(startDay, n)));
    });

    it('keeps 18:00 local all through two years, at 16:00 UTC in summer and 17:00 UTC in winter', () => {
      const rec = buildRecurrence({ frequency: 'weekly', startDay: '2026-01-05', startTime: '18:00', tz: MAD, until: '2027-12-31' });
      const all = occurrences(rec);
      expect(all).toHaveLength(104);
      for (const d of all) {
        const { day, time } = toLocal(d, MAD);
        expect(time).toBe('18:00');
        const summer = (day > '2026-03-29' && day < '2026-10-25') || (day > '2027-03-28' && day < '2027-10-31');
        expect(d.getUTCHours(), day).toBe(summer ? 16 : 17);
      }
    });

    it('moves an occurrence in the spring gap forward by the gap, without losing it or its count', () => {
      const got = occurrences(weekly('2026-03-22', '02:30', 3));
      expect(got.map((d) => toLocal(d, MAD))).toEqual([
        { day: '2026-03-22', time: '02:30' },
        { day: '2026-03-29', time: '03:30' },
        { day: '2026-04-05', time: '02:30' },
      ]);
    });

    it('puts an occurrence at an ambiguous autumn time on its first (summer-time) pass', () => {
      const got = occurrences(weekly('2027-10-24', '02:30', 2));
      expect(iso(got)).toEqual(['2027-10-24T00:30:00.000Z', '2027-10-31T00:30:00.000Z']);
    });

    it('finds the occurrences inside the 167-hour week of a change', () => {
      const rec = buildRecurrence({ frequency: 'weekly', startDay: '2026-03-02', startTime: '18:00', tz: MAD, count: 10 });
      const { start, end } = weekRange('2026-03-25', MAD);
      expect(occurrenceDays(rec, { from: start, to: end })).toEqual(['2026-03-23']);
    });
  });

  describe('rule semantics', () => {
    it('writes weekly and biweekly rules, the latter every other week', () => {
      expect(buildRrule({ frequency: 'weekly', startDay: '2026-03-16', count: 4 })).toBe('FREQ=WEEKLY;INTERVAL=1;COUNT=4');
      const rec = buildRecurrence({ frequency: 'biweekly', startDay: '2026-03-16', startTime: '10:00', tz: MAD, count: 4 });
      expect(rec.rrule).toBe('FREQ=WEEKLY;INTERVAL=2;COUNT=4');
      expect(occurrenceDays(rec)).toEqual(['2026-03-16', '2026-03-30', '2026-04-13', '2026-04-27']);
    });

    it('repeats monthly on the same day of the month', () => {
      const rec = buildRecurrence({ frequency: 'monthly', startDay: '2026-01-15', startTime: '10:00', tz: MAD, count: 4 });
      expect(rec.rrule).toBe('FREQ=MONTHLY;INTERVAL=1;COUNT=4');
      expect(occurrenceDays(rec)).toEqual(['2026-01-15', '2026-02-15', '2026-03-15', '2026-04-15']);
      expect(occurrences(rec).map((d) => toLocal(d, MAD).time)).toEqual(['10:00', '10:00', '10:00', '10:00']);
    });

    it('puts a monthly 29th–31st on the last day of shorter months instead of skipping them', () => {
      const on31 = buildRecurrence({ frequency: 'monthly', startDay: '2026-01-31', startTime: '10:00', tz: MAD, count: 6 });
      expect(on31.rrule).toBe('FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=28,29,30,31;BYSETPOS=-1;COUNT=6');
      expect(occurrenceDays(on31)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30']);
      const on30 = buildRecurrence({ frequency: 'monthly', startDay: '2027-12-30', startTime: '10:00', tz: MAD, count: 4 });
      expect(occurrenceDays(on30)).toEqual(['2027-12-30', '2028-01-30', '2028-02-29', '2028-03-30']);
      const on29 = buildRecurrence({ frequency: 'monthly', startDay: '2027-01-29', startTime: '10:00', tz: MAD, count: 3 });
      expect(on29.rrule).toBe('FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=28,29;BYSETPOS=-1;COUNT=3');
      expect(occurrenceDays(on29)).toEqual(['2027-01-29', '2027-02-28', '2027-03-29']);
    });

    it('ends an until-series on that local day inclusive, written as UTC', () => {
      expect(buildRrule({ frequency: 'weekly', startDay: '2026-06-02', until: '2026-06-30' })).toBe(
        'FREQ=WEEKLY;INTERVAL=1;UNTIL=20260630T215959Z',
      );
      expect(buildRrule({ frequency: 'weekly', startDay: '2026-12-01', until: '2026-12-15' })).toBe(
        'FREQ=WEEKLY;INTERVAL=1;UNTIL=20261215T225959Z',
      );
      expect(buildRrule({ frequency: 'weekly', startDay: '2026-12-01', until: '2026-12-15', tz: 'America/New_York' })).toBe(
        'FREQ=WEEKLY;INTERVAL=1;UNTIL=20261216T045959Z',
      );
      const late = (until: string) => buildRecurrence({ frequency: 'weekly', startDay: '2026-12-01', startTime: '23:30', tz: MAD, until });
      expect(occurrenceDays(late('2026-12-15'))).toEqual(['2026-12-01', '2026-12-08', '2026-12-15']);
      expect(occurrenceDays(late('2026-12-14'))).toEqual(['2026-12-01', '2026-12-08']);
    });

    it('stops after COUNT occurrences', () => {
      expect(occurrenceDays(weekly('2026-05-05', '09:00', 1))).toEqual(['2026-05-05']);
      expect(occurrences(weekly('2026-05-05', '09:00', 12))).toHaveLength(12);
    });

    it('reads the form settings back from a stored series', () => {
      const cases = [
        { frequency: 'weekly', count: 10 },
        { frequency: 'biweekly', until: '2026-12-31' },
        { frequency: 'monthly', until: '2027-01-31' },
        { frequency: 'monthly', count: 5 },
      ] as const;
      for (const settings of cases) {
        const rec = buildRecurrence({ ...settings, startDay: '2026-01-31', startTime: '18:00', tz: MAD });
        expect(recurrenceSettings(rec)).toEqual(settings);
      }
    });
  });

  describe('windows and caps', () => {
    const rec = weekly('2026-01-05', '18:00', 20);

    it('keeps occurrences from `from` inclusive to `to` exclusive, at most `limit`', () => {
      const from = toInstant('2026-01-12', '18:00', MAD);
      const to = toInstant('2026-02-02', '18:00', MAD);
      expect(occurrenceDays(rec, { from, to })).toEqual(['2026-01-12', '2026-01-19', '2026-01-26']);
      expect(occurrenceDays(rec, { from, limit: 2 })).toEqual(['2026-01-12', '2026-01-19']);
      expect(occurrences(rec, { to: new Date('2026-01-05T17:00:00Z') })).toEqual([]);
    });

    it('never expands more than the cap, even for the longest series allowed', () => {
      const longest = buildRecurrence({ frequency: 'weekly', startDay: '2026-01-05', startTime: '18:00', tz: MAD, until: '2029-01-05' });
      const all = occurrences(longest);
      expect(all.length).toBe(157);
      expect(all.length).toBeLessThanOrEqual(RECURRENCE_MAX_COUNT);
      expect(occurrences(longest, { limit: 3 })).toHaveLength(3);
      for (const limit of [0, RECURRENCE_MAX_COUNT + 1, 1.5]) expect(() => occurrences(rec, { limit })).toThrow(RangeError);
      expect(() => occurrences(rec, { from: new Date(NaN) })).toThrow(RangeError);
    });
  });

  describe('validation of stored series', () => {
    const base = { startDay: '2026-03-02', startTime: '18:00', tz: MAD };

    it('accepts what buildRrule writes, with or without the RRULE: prefix, and returns it canonical', () => {
      expect(parseRecurrence({ ...base, rrule: 'FREQ=WEEKLY;INTERVAL=1;COUNT=3' })).toEqual({
        ...base,
        rrule: 'FREQ=WEEKLY;INTERVAL=1;COUNT=3',
      });
      expect(parseRecurrence({ ...base, rrule: 'RRULE:COUNT=3;FREQ=WEEKLY' }).rrule).toBe('FREQ=WEEKLY;INTERVAL=1;COUNT=3');
      expect(parseRecurrence({ ...base, rrule: 'FREQ=MONTHLY;UNTIL=20260702T215959Z' }).rrule).toBe(
        'FREQ=MONTHLY;INTERVAL=1;UNTIL=20260702T215959Z',
      );
    });

    it.each([
      ['another frequency', 'FREQ=DAILY;COUNT=3'],
      ['another interval', 'FREQ=WEEKLY;INTERVAL=3;COUNT=3'],
      ['a biweekly month', 'FREQ=MONTHLY;INTERVAL=2;COUNT=3'],
      ['an unsupported part', 'FREQ=WEEKLY;BYDAY=MO;COUNT=3'],
      ['a duplicated part', 'FREQ=WEEKLY;FREQ=WEEKLY;COUNT=3'],
      ['lower case', 'freq=weekly;count=3'],
      ['garbage', 'hello'],
      ['no end', 'FREQ=WEEKLY'],
      ['both ends', 'FREQ=WEEKLY;COUNT=3;UNTIL=20260630T215959Z'],
      ['COUNT=0', 'FREQ=WEEKLY;COUNT=0'],
      ['COUNT above the cap', 'FREQ=WEEKLY;COUNT=201'],
      ['a floating UNTIL', 'FREQ=WEEKLY;UNTIL=20260630T235959'],
      ['a date-only UNTIL', 'FREQ=WEEKLY;UNTIL=20260630'],
      ['an impossible UNTIL', 'FREQ=WEEKLY;UNTIL=20260230T215959Z'],
      ['an UNTIL before the start', 'FREQ=WEEKLY;UNTIL=20260301T215959Z'],
      ['a series over three years', 'FREQ=WEEKLY;UNTIL=20290303T225959Z'],
      ['a count over three years', 'FREQ=WEEKLY;INTERVAL=2;COUNT=200'],
      ['a clamp on a weekly rule', 'FREQ=WEEKLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1;COUNT=3'],
      ['a clamp the start day does not need', 'FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1;COUNT=3'],
    ])('refuses %s', (_, rrule) => {
      expect(() => parseRecurrence({ ...base, rrule })).toThrow(RangeError);
    });

    it('refuses a monthly 31st without the month-end clamp, or with the wrong one', () => {
      const on31 = { ...base, startDay: '2026-01-31' };
      expect(() => parseRecurrence({ ...on31, rrule: 'FREQ=MONTHLY;COUNT=3' })).toThrow(RangeError);
      expect(() => parseRecurrence({ ...on31, rrule: 'FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1;COUNT=3' })).toThrow(RangeError);
      expect(() => parseRecurrence({ ...on31, rrule: 'FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=1;COUNT=3' })).toThrow(RangeError);
    });

    it('refuses a bad start, zone or shape', () => {
      const rrule = 'FREQ=WEEKLY;COUNT=3';
      expect(() => parseRecurrence({ ...base, rrule, startDay: '2026-02-30' })).toThrow(RangeError);
      expect(() => parseRecurrence({ ...base, rrule, startTime: '24:00' })).toThrow(RangeError);
      expect(() => parseRecurrence({ ...base, rrule, tz: 'Mars/Olympus' })).toThrow(RangeError);
      expect(() => parseRecurrence({ ...base, rrule: 'FREQ=WEEKLY;'.repeat(40) })).toThrow(RangeError);
      expect(() => parseRecurrence(null)).toThrow(RangeError);
      expect(() => parseRecurrence('FREQ=WEEKLY;COUNT=3')).toThrow(RangeError);
    });

    it('builds only bounded series with exactly one end', () => {
      const s = { frequency: 'weekly', startDay: '2026-03-02' } as const;
      expect(() => buildRrule({ ...s })).toThrow(RangeError);
      expect(() => buildRrule({ ...s, count: 3, until: '2026-04-01' })).toThrow(RangeError);
      expect(() => buildRrule({ ...s, count: 0 })).toThrow(RangeError);
      expect(() => buildRrule({ ...s, count: RECURRENCE_MAX_COUNT + 1 })).toThrow(RangeError);
      expect(() => buildRrule({ ...s, count: 2.5 })).toThrow(RangeError);
      expect(() => buildRrule({ ...s, until: '2026-03-01' })).toThrow(RangeError);
      expect(() => buildRrule({ ...s, until: '2026-02-30' })).toThrow(RangeError);
      expect(() => buildRrule({ ...s, until: '2029-03-03' })).toThrow(RangeError);
      expect(buildRrule({ ...s, until: '2029-03-02' })).toBe('FREQ=WEEKLY;INTERVAL=1;UNTIL=20290302T225959Z');
      expect(() => buildRrule({ ...s, frequency: 'daily' as 'weekly', count: 3 })).toThrow(RangeError);
    });
  });
});
