import { describe, expect, it } from 'vitest';
import { addMinutes, isoWeekday, shiftDay, toInstant, toLocal } from '../time/zoned';
import {
  RECURRENCE_MAX_COUNT,
  SeriesError,
  describeFrequency,
  expandSeries,
  monthlyPosition,
  seriesRrule,
  type SeriesDefinition,
  type SeriesFrequency,
} from './recurrence';
import { propertyRuns } from '../testing/deep';
import { prng, randomStart, underServerZones } from './recurrence.testing';

const MAD = 'Europe/Madrid';
const def = (over: Partial<SeriesDefinition>): SeriesDefinition => ({
  frequency: 'weekly',
  startDay: '2026-03-26',
  startTime: '18:00',
  durationMinutes: 50,
  end: { count: 3 },
  ...over,
});
const utc = (d: SeriesDefinition) => expandSeries(d).map((o) => o.start.toISOString());
const local = (d: SeriesDefinition) => expandSeries(d).map((o) => `${o.day} ${o.time}`);

const lastDayOfMonth = (day: string) => {
  let d = `${day.slice(0, 8)}28`;
  while (shiftDay(d, 1).slice(5, 7) === day.slice(5, 7)) d = shiftDay(d, 1);
  return d;
};
/** Oracle for the local days, by plain calendar arithmetic (no rrule). */
function oracleDays(d: SeriesDefinition, n: number): string[] {
  if (d.frequency !== 'monthly') return Array.from({ length: n }, (_, i) => shiftDay(d.startDay, i * (d.frequency === 'weekly' ? 7 : 14)));
  const { position, weekday } = monthlyPosition(d.startDay);
  const out: string[] = [];
  for (let m = 0; out.length < n; m++) {
    const [y, mo] = d.startDay.split('-').map(Number) as [number, number];
    const t = y * 12 + mo - 1 + m;
    const first = `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}-01`;
    const firstHit = shiftDay(first, (weekday - isoWeekday(first) + 7) % 7);
    if (position > 0) out.push(shiftDay(firstHit, (position - 1) * 7));
    else {
      const last = lastDayOfMonth(first);
      out.push(shiftDay(last, -((isoWeekday(last) - weekday + 7) % 7)));
    }
  }
  return out;
}

underServerZones(() => {
  describe('clock changes in Madrid (2026 and 2027)', () => {
    it.each([
      ['spring 2026 (29 Mar)', '2026-03-26', ['2026-03-26T17:00:00.000Z', '2026-04-02T16:00:00.000Z']],
      ['autumn 2026 (25 Oct)', '2026-10-22', ['2026-10-22T16:00:00.000Z', '2026-10-29T17:00:00.000Z']],
      ['spring 2027 (28 Mar)', '2027-03-25', ['2027-03-25T17:00:00.000Z', '2027-04-01T16:00:00.000Z']],
      ['autumn 2027 (31 Oct)', '2027-10-28', ['2027-10-28T16:00:00.000Z', '2027-11-04T17:00:00.000Z']],
    ])('a weekly 18:00 stays 18:00 local across the %s change; UTC moves an hour', (_, startDay, expected) => {
      const d = def({ startDay, end: { count: 2 } });
      expect(utc(d)).toEqual(expected);
      expect(local(d)).toEqual([`${startDay} 18:00`, `${shiftDay(startDay, 7)} 18:00`]);
      expect(expandSeries(d).map((o) => o.end.getTime() - o.start.getTime())).toEqual([50 * 60_000, 50 * 60_000]);
    });

    it('is not fooled by the weeks when New York has changed and Madrid has not yet (8–29 Mar 2026)', () => {
      expect(utc(def({ startDay: '2026-03-12', end: { until: '2026-04-02' } }))).toEqual([
        '2026-03-12T17:00:00.000Z',
        '2026-03-19T17:00:00.000Z',
        '2026-03-26T17:00:00.000Z',
        '2026-04-02T16:00:00.000Z',
      ]);
    });

    it('a monthly "last Sunday" at 02:30 meets both changes: the gap moves forward, the ambiguous hour is the first', () => {
      const d = def({ frequency: 'monthly', startDay: '2026-03-29', startTime: '02:30', end: { count: 13 } });
      expect(seriesRrule(d)).toBe('FREQ=MONTHLY;INTERVAL=1;BYDAY=-1SU;COUNT=13');
      const occ = expandSeries(d);
      expect(occ.map((o) => o.day)).toEqual([
        '2026-03-29',
        '2026-04-26',
        '2026-05-31',
        '2026-06-28',
        '2026-07-26',
        '2026-08-30',
        '2026-09-27',
        '2026-10-25',
        '2026-11-29',
        '2026-12-27',
        '2027-01-31',
        '2027-02-28',
        '2027-03-28',
      ]);
      const at = (day: string) => occ.find((o) => o.day === day)!;
      expect([at('2026-03-29').time, at('2026-03-29').start.toISOString()]).toEqual(['03:30', '2026-03-29T01:30:00.000Z']);
      expect([at('2026-04-26').time, at('2026-04-26').start.toISOString()]).toEqual(['02:30', '2026-04-26T00:30:00.000Z']);
      expect([at('2026-10-25').time, at('2026-10-25').start.toISOString()]).toEqual(['02:30', '2026-10-25T00:30:00.000Z']);
      expect([at('2026-11-29').time, at('2026-11-29').start.toISOString()]).toEqual(['02:30', '2026-11-29T01:30:00.000Z']);
      expect([at('2027-03-28').time, at('2027-03-28').start.toISOString()]).toEqual(['03:30', '2027-03-28T01:30:00.000Z']);
      // Durations are real minutes, also the night the clock goes back.
      expect(at('2026-10-25').end).toEqual(addMinutes(at('2026-10-25').start, 50));
    });

    it('every two weeks at 18:00 over the whole of 2026–2027 is 16:00 UTC in summer time and 17:00 in winter', () => {
      const occ = expandSeries(def({ frequency: 'biweekly', startDay: '2026-01-06', end: { until: '2027-12-31' } }));
      expect(occ).toHaveLength(52);
      for (const o of occ) {
        expect(o.time).toBe('18:00');
        const summer = (o.day >= '2026-03-29' && o.day < '2026-10-25') || (o.day >= '2027-03-28' && o.day < '2027-10-31');
        expect(o.start.getUTCHours()).toBe(summer ? 16 : 17);
      }
    });

    it('keeps the series zone, not Madrid, when it is given', () => {
      expect(utc(def({ startDay: '2026-10-29', tz: 'America/New_York', end: { count: 2 } }))).toEqual([
        '2026-10-29T22:00:00.000Z',
        '2026-11-05T23:00:00.000Z',
      ]);
    });
  });

  describe('monthly on the same weekday position', () => {
    it.each([
      [
        '2026-06-09',
        'FREQ=MONTHLY;INTERVAL=1;BYDAY=2TU;COUNT=4',
        ['2026-06-09', '2026-07-14', '2026-08-11', '2026-09-08'],
        'Cada mes, el segundo martes',
      ],
      [
        '2026-01-01',
        'FREQ=MONTHLY;INTERVAL=1;BYDAY=1TH;COUNT=4',
        ['2026-01-01', '2026-02-05', '2026-03-05', '2026-04-02'],
        'Cada mes, el primer jueves',
      ],
      [
        '2026-06-30',
        'FREQ=MONTHLY;INTERVAL=1;BYDAY=-1TU;COUNT=4',
        ['2026-06-30', '2026-07-28', '2026-08-25', '2026-09-29'],
        'Cada mes, el último martes',
      ],
      [
        '2026-02-26',
        'FREQ=MONTHLY;INTERVAL=1;BYDAY=4TH;COUNT=4',
        ['2026-02-26', '2026-03-26', '2026-04-23', '2026-05-28'],
        'Cada mes, el cuarto jueves',
      ],
    ])('%s → %s', (startDay, rrule, days, text) => {
      const d = def({ frequency: 'monthly', startDay, end: { count: 4 } });
      expect(seriesRrule(d)).toBe(rrule);
      expect(expandSeries(d).map((o) => o.day)).toEqual(days);
      expect(describeFrequency(d)).toBe(text);
    });

    it('a 4th weekday that is also the last stays "the 4th" unless monthlyWeek -1 says "the last"', () => {
      const fourth = def({ frequency: 'monthly', startDay: '2026-02-24', end: { count: 4 } });
      expect(local(fourth).map((x) => x.slice(0, 10))).toEqual(['2026-02-24', '2026-03-24', '2026-04-28', '2026-05-26']);
      const last = { ...fourth, monthlyWeek: -1 as const };
      expect(seriesRrule(last)).toBe('FREQ=MONTHLY;INTERVAL=1;BYDAY=-1TU;COUNT=4');
      expect(local(last).map((x) => x.slice(0, 10))).toEqual(['2026-02-24', '2026-03-31', '2026-04-28', '2026-05-26']);
      expect(describeFrequency(last)).toBe('Cada mes, el último martes');
      expect(() => expandSeries({ ...fourth, startDay: '2026-06-23', monthlyWeek: -1 })).toThrow(
        'La fecha de inicio no cae en la semana del mes elegida.',
      );
      expect(() => expandSeries({ ...fourth, monthlyWeek: 2 })).toThrow('La fecha de inicio no cae en la semana del mes elegida.');
      expect(() => expandSeries({ ...fourth, frequency: 'weekly', monthlyWeek: -1 })).toThrow(SeriesError);
    });

    it('describes weekly and every-two-weeks series in Spanish', () => {
      expect(describeFrequency(def({}))).toBe('Cada semana, los jueves');
      expect(describeFrequency(def({ frequency: 'biweekly', startDay: '2026-03-28' }))).toBe('Cada dos semanas, los sábados');
    });
  });

  describe('ends, windows and limits', () => {
    it('until is a local day, inclusive', () => {
      expect(local(def({ end: { until: '2026-04-09' } }))).toEqual(['2026-03-26 18:00', '2026-04-02 18:00', '2026-04-09 18:00']);
      expect(local(def({ end: { until: '2026-04-08' } }))).toHaveLength(2);
      expect(local(def({ end: { until: '2026-03-26' } }))).toEqual(['2026-03-26 18:00']);
    });

    it('a window keeps [from, to) and the indexes of the whole series', () => {
      const d = def({ end: { count: 10 } });
      const got = expandSeries(d, { from: toInstant('2026-04-02', '18:00', MAD), to: toInstant('2026-04-16', '18:00', MAD) });
      expect(got.map((o) => [o.index, o.day])).toEqual([
        [1, '2026-04-02'],
        [2, '2026-04-09'],
      ]);
    });

    it.each<[string, Partial<SeriesDefinition>, string]>([
      ['count over 200', { end: { count: 201 } }, 'El número de sesiones debe estar entre 1 y 200.'],
      ['count 0', { end: { count: 0 } }, 'El número de sesiones debe estar entre 1 y 200.'],
      ['until after 3 years', { end: { until: '2029-03-27' } }, 'Una serie puede durar como máximo 3 años (hasta el 26/03/2029).'],
      [
        '200 monthly sessions (16 years)',
        { frequency: 'monthly', end: { count: 200 } },
        'Una serie puede durar como máximo 3 años (hasta el 26/03/2029).',
      ],
      ['until before the start', { end: { until: '2026-03-25' } }, 'La fecha final no puede ser anterior al inicio de la serie.'],
      [
        'both ends',
        { end: { count: 2, until: '2026-05-01' } as never },
        'Indica hasta qué fecha se repite o cuántas sesiones tiene la serie.',
      ],
      ['no end', { end: {} as never }, 'Indica hasta qué fecha se repite o cuántas sesiones tiene la serie.'],
      ['a bad frequency', { frequency: 'daily' as SeriesFrequency }, 'Elige la frecuencia: semanal, cada dos semanas o mensual.'],
      ['a bad day', { startDay: '2026-02-30' }, 'La fecha de inicio de la serie no es válida.'],
      ['a bad time', { startTime: '24:00' }, 'La hora de la serie no es válida (HH:mm).'],
      ['a bad duration', { durationMinutes: 0 }, 'La duración debe ser de 5 a 720 minutos.'],
      ['a bad zone', { tz: 'Europe/Atlantis' }, 'La zona horaria de la serie no es válida.'],
    ])('refuses %s with a Spanish message', (_, over, message) => {
      const run = () => expandSeries(def(over));
      expect(run).toThrow(SeriesError);
      expect(run).toThrow(message);
    });

    it('accepts the limits themselves: 3 years to the day (157 weekly sessions), 200 sessions when they fit', () => {
      expect(expandSeries(def({ end: { count: 157 } })).at(-1)?.day).toBe('2029-03-22');
      expect(() => expandSeries(def({ end: { count: 158 } }))).toThrow('como máximo 3 años');
      expect(expandSeries(def({ end: { until: '2029-03-26' } })).at(-1)?.day).toBe('2029-03-22');
      expect(expandSeries(def({ durationMinutes: 30, frequency: 'weekly', end: { count: 157 } }))).toHaveLength(157);
      expect(RECURRENCE_MAX_COUNT).toBe(200);
    });
  });

  describe('properties over generated series', () => {
    it('days follow the calendar oracle, the local time is kept (or pushed past the gap), durations are real', () => {
      const r = prng(20261025);
      for (let i = 0; i < propertyRuns(100); i++) {
        const frequency = r.pick(['weekly', 'biweekly', 'monthly'] as const);
        const { startDay, startTime } = randomStart(r);
        const count = r.int(1, frequency === 'monthly' ? 30 : 60);
        const d = def({ frequency, startDay, startTime, durationMinutes: r.pick([30, 45, 50, 60, 90]), end: { count } });
        const occ = expandSeries(d);
        const days = oracleDays(d, count);
        expect(
          occ.map((o) => o.day),
          JSON.stringify(d),
        ).toEqual(days);
        occ.forEach((o, index) => {
          expect(o.index).toBe(index);
          expect(o.start).toEqual(toInstant(o.day, startTime, MAD));
          expect(toLocal(o.start, MAD)).toEqual({ day: o.day, time: o.time });
          // Only a time inside the spring-forward gap changes, by exactly one hour.
          if (o.time !== startTime) expect(Number(o.time.slice(0, 2)) - Number(startTime.slice(0, 2))).toBe(1);
          expect(o.end.getTime() - o.start.getTime()).toBe(d.durationMinutes * 60_000);
        });
        // The same series ended by its last day instead of a count gives the same sessions.
        expect(expandSeries({ ...d, end: { until: days.at(-1)! } }).map((o) => o.start.getTime())).toEqual(
          occ.map((o) => o.start.getTime()),
        );
      }
    });
  });
});
