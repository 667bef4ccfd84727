import { describe, expect, it } from 'vitest';
import { toInstant, toLocal } from '../time/zoned';
import {
  SeriesError,
  expandSeries,
  planSeriesCancel,
  planSeriesEdit,
  resolveOccurrence,
  type SeriesDefinition,
  type SeriesEditPlan,
  type StoredOccurrence,
} from './recurrence-edits';
import { propertyRuns } from '../testing/deep';
import { prng, randomStart, underServerZones } from './recurrence.testing';

const MAD = 'Europe/Madrid';
type F = { room: string; fee: number; cancelReason?: string };
/** Weekly on Thursdays at 18:00, 1 Oct – 19 Nov 2026: across the 25 Oct change. */
const series: SeriesDefinition<F> = {
  frequency: 'weekly',
  startDay: '2026-10-01',
  startTime: '18:00',
  durationMinutes: 50,
  end: { count: 8 },
  fields: { room: 'A', fee: 60 },
};
/** Every occurrence stored; #2 moved to 19:00, #3 canceled, #4 moved to Friday, #5 in room B. */
const existing: StoredOccurrence<F>[] = expandSeries(series).map((o) => ({ index: o.index, originalDay: o.day }));
existing[2]!.override = { time: '19:00' };
existing[3]!.override = { canceled: true };
existing[4]!.override = { day: '2026-10-30' };
existing[5]!.override = { fields: { room: 'B' } };

const local = (o: { start: Date }) => {
  const l = toLocal(o.start, MAD);
  return `${l.day} ${l.time}`;
};
const summary = (plan: SeriesEditPlan<F>) => ({
  create: plan.create.map((o) => `${o.series}#${o.index} ${local(o)}`),
  update: plan.update.map((o) => `#${o.fromIndex}→${o.series}#${o.index} ${local(o)}${o.canceled ? ' canceled' : ''} ${o.fields.room}`),
  remove: plan.remove.map((o) => o.index),
});

underServerZones(() => {
  describe('only this one', () => {
    it('moves one occurrence across the clock change; it keeps its series, index and original day', () => {
      const plan = planSeriesEdit({ scope: 'this', series, existing, index: 6, change: { startDay: '2026-11-13', startTime: '17:00' } });
      expect(plan.series).toBe(series);
      expect(plan.create).toEqual([]);
      expect(plan.remove).toEqual([]);
      expect(plan.update).toHaveLength(1);
      const [o] = plan.update;
      expect(o).toMatchObject({ series: 'current', fromIndex: 6, index: 6, originalDay: '2026-11-12', day: '2026-11-13', time: '17:00' });
      expect(o!.override).toEqual({ day: '2026-11-13', time: '17:00' });
      expect(o!.start.toISOString()).toBe('2026-11-13T16:00:00.000Z');
      expect(o!.end.toISOString()).toBe('2026-11-13T16:50:00.000Z');
    });

    it('moving it back to the series slot leaves it plain (no override); an edit that changes nothing plans nothing', () => {
      const back = planSeriesEdit({ scope: 'this', series, existing, index: 2, change: { startTime: '18:00' } });
      expect(back.update).toHaveLength(1);
      expect(back.update[0]!.override).toBeUndefined();
      expect(local(back.update[0]!)).toBe('2026-10-15 18:00');
      expect(planSeriesEdit({ scope: 'this', series, existing, index: 5, change: { fields: { room: 'B' } } }).update).toEqual([]);
    });

    it('refuses a frequency or end for one session, and an occurrence outside the series, in Spanish', () => {
      expect(() => planSeriesEdit({ scope: 'this', series, existing, index: 1, change: { frequency: 'monthly' } })).toThrow(
        'Para cambiar la frecuencia, el final o la zona horaria, elige «Esta y las siguientes» o «Todas».',
      );
      expect(() => planSeriesEdit({ scope: 'all', series, existing, index: 99, change: {} })).toThrow(SeriesError);
      expect(() => planSeriesEdit({ scope: 'this', series, existing, index: 1, change: { durationMinutes: 1000 } })).toThrow(
        'La duración debe ser de 5 a 720 minutos.',
      );
    });
  });

  describe('all', () => {
    it('a new time moves the plain occurrences only; moved ones keep their slot, canceled stay canceled, hand-set fields stay', () => {
      const plan = planSeriesEdit({ scope: 'all', series, existing, index: 0, change: { startTime: '19:00', fields: { room: 'C' } } });
      expect(plan.series).toEqual({ ...series, startTime: '19:00', fields: { room: 'C', fee: 60 } });
      expect(summary(plan)).toEqual({
        create: [],
        update: [
          '#0→current#0 2026-10-01 19:00 C',
          '#1→current#1 2026-10-08 19:00 C',
          '#2→current#2 2026-10-15 19:00 C', // moved to 19:00 by hand: now plain
          '#3→current#3 2026-10-22 19:00 canceled C',
          '#4→current#4 2026-10-30 18:00 C', // moved to Friday 18:00: stays there
          '#5→current#5 2026-11-05 19:00 B',
          '#6→current#6 2026-11-12 19:00 C',
          '#7→current#7 2026-11-19 19:00 C',
        ],
        remove: [],
      });
      expect(plan.update[2]!.override).toBeUndefined();
      expect(plan.update[4]!.override).toEqual({ day: '2026-10-30', time: '18:00' });
      // 19:00 Madrid is 17:00 UTC before 25 Oct and 18:00 UTC after it.
      expect(plan.update[1]!.start.toISOString()).toBe('2026-10-08T17:00:00.000Z');
      expect(plan.update[6]!.start.toISOString()).toBe('2026-11-12T18:00:00.000Z');
    });

    it('a longer series creates the missing occurrences, a shorter one removes the extra ones', () => {
      expect(summary(planSeriesEdit({ scope: 'all', series, existing, index: 3, change: { end: { count: 10 } } }))).toEqual({
        create: ['current#8 2026-11-26 18:00', 'current#9 2026-12-03 18:00'],
        update: [],
        remove: [],
      });
      expect(summary(planSeriesEdit({ scope: 'all', series, existing, index: 3, change: { end: { until: '2026-11-01' } } }))).toEqual({
        create: [],
        update: [],
        remove: [5, 6, 7],
      });
    });
  });

  describe('this and following', () => {
    it('splits the series: the old one ends before the chosen occurrence, a new one continues from it', () => {
      const plan = planSeriesEdit({ scope: 'following', series, existing, index: 4, change: { startTime: '17:00', fields: { fee: 70 } } });
      expect(plan.series).toEqual({ ...series, end: { count: 4 } });
      expect(plan.newSeries).toEqual({
        ...series,
        startDay: '2026-10-29',
        startTime: '17:00',
        end: { count: 4 },
        fields: { room: 'A', fee: 70 },
      });
      expect(summary(plan)).toEqual({
        create: [],
        update: [
          '#4→new#0 2026-10-30 17:00 A', // the chosen one: still on Friday, at the edited time
          '#5→new#1 2026-11-05 17:00 B',
          '#6→new#2 2026-11-12 17:00 A',
          '#7→new#3 2026-11-19 17:00 A',
        ],
        remove: [],
      });
      expect(plan.update.every((o) => o.fields.fee === 70)).toBe(true);
      expect(expandSeries(plan.series).map((o) => o.day)).toEqual(['2026-10-01', '2026-10-08', '2026-10-15', '2026-10-22']);
    });

    it('with an until end, the old series ends the day before and the new one keeps the until day', () => {
      const byDate = { ...series, end: { until: '2026-11-19' } };
      const plan = planSeriesEdit({ scope: 'following', series: byDate, existing, index: 6, change: { durationMinutes: 60 } });
      expect(plan.series.end).toEqual({ until: '2026-11-11' });
      expect(plan.newSeries).toMatchObject({ startDay: '2026-11-12', durationMinutes: 60, end: { until: '2026-11-19' } });
      expect(plan.update.map((o) => [o.fromIndex, o.index, o.end.getTime() - o.start.getTime()])).toEqual([
        [6, 0, 3_600_000],
        [7, 1, 3_600_000],
      ]);
    });

    it('a new weekday: the chosen row becomes the first of the new series, rows off the pattern are removed and recreated', () => {
      const plan = planSeriesEdit({ scope: 'following', series, existing, index: 4, change: { startDay: '2026-10-28' } });
      expect(summary(plan)).toEqual({
        create: ['new#1 2026-11-04 18:00', 'new#2 2026-11-11 18:00', 'new#3 2026-11-18 18:00'],
        update: ['#4→new#0 2026-10-28 18:00 A'],
        remove: [5, 6, 7],
      });
      expect(plan.update[0]!.override).toBeUndefined();
      expect(() => planSeriesEdit({ scope: 'following', series, existing, index: 4, change: { startDay: '2026-10-21' } })).toThrow(
        'La nueva serie no puede empezar antes de la sesión anterior de la serie.',
      );
    });

    it('a monthly "last Friday" split at a 4th Friday stays "the last Friday"', () => {
      const monthly: SeriesDefinition<F> = { ...series, frequency: 'monthly', startDay: '2026-10-30', end: { count: 6 } };
      const rows = expandSeries(monthly).map((o) => ({ index: o.index, originalDay: o.day }));
      expect(rows[2]!.originalDay).toBe('2026-12-25'); // the 4th and last Friday of December
      const plan = planSeriesEdit({ scope: 'following', series: monthly, existing: rows, index: 2, change: { startTime: '17:00' } });
      expect(plan.newSeries).toMatchObject({ startDay: '2026-12-25', monthlyWeek: -1 });
      expect(expandSeries(plan.newSeries!).map((o) => o.day)).toEqual(['2026-12-25', '2027-01-29', '2027-02-26', '2027-03-26']);
      expect(plan.create).toEqual([]);
      expect(plan.remove).toEqual([]);
    });

    it('from the first occurrence it is the same as "all"', () => {
      const change = { startTime: '20:00' };
      const following = planSeriesEdit({ scope: 'following', series, existing, index: 0, change });
      expect(following.newSeries).toBeUndefined();
      expect(summary(following)).toEqual(summary(planSeriesEdit({ scope: 'all', series, existing, index: 0, change })));
    });
  });

  describe('cancel', () => {
    it('cancels one, it and the following, or all, with a reason; already canceled ones are left alone', () => {
      const reason = { cancelReason: 'patient' };
      expect(summary(planSeriesCancel({ scope: 'this', series, existing, index: 1, fields: reason })).update).toEqual([
        '#1→current#1 2026-10-08 18:00 canceled A',
      ]);
      const following = planSeriesCancel({ scope: 'following', series, existing, index: 5, fields: reason });
      expect(following.update.map((o) => [o.index, o.canceled, o.fields.cancelReason, o.fields.room])).toEqual([
        [5, true, 'patient', 'B'],
        [6, true, 'patient', 'A'],
        [7, true, 'patient', 'A'],
      ]);
      expect(planSeriesCancel({ scope: 'all', series, existing, index: 0 }).update.map((o) => o.index)).toEqual([0, 1, 2, 4, 5, 6, 7]);
    });
  });

  describe('properties over generated series', () => {
    it('"all" with a new time moves exactly the plain rows; "following" splits into the same days', () => {
      const r = prng(20270328);
      for (let i = 0; i < propertyRuns(60); i++) {
        const { startDay, startTime } = randomStart(r);
        const frequency = r.pick(['weekly', 'biweekly', 'monthly'] as const);
        const def: SeriesDefinition<F> = { ...series, frequency, startDay, startTime, end: { count: r.int(2, 20) } };
        const days = expandSeries(def).map((o) => o.day);
        const rows: StoredOccurrence<F>[] = days.map((day, index) => {
          const kind = r.int(0, 5);
          const override =
            kind === 0 ? { time: '07:15' } : kind === 1 ? { canceled: true } : kind === 2 ? { fields: { room: 'Z' } } : undefined;
          return { index, originalDay: day, ...(override ? { override } : {}) };
        });
        const newTime = r.pick(['08:00', '02:30', '18:00', '21:45']);
        const all = planSeriesEdit({ scope: 'all', series: def, existing: rows, index: 0, change: { startTime: newTime } });
        expect(all.create).toEqual([]);
        expect(all.remove).toEqual([]);
        for (const row of rows) {
          const before = resolveOccurrence(def, row);
          const after = resolveOccurrence(all.series, all.update.find((u) => u.fromIndex === row.index) ?? row);
          expect(after.index).toBe(row.index);
          expect(after.canceled).toBe(before.canceled);
          if (row.override?.time) expect(after.start).toEqual(before.start);
          else expect(after.start).toEqual(toInstant(row.originalDay, newTime, MAD));
        }

        const k = r.int(1, days.length - 1);
        const split = planSeriesEdit({ scope: 'following', series: def, existing: rows, index: k, change: { startTime: newTime } });
        expect(expandSeries(split.series).map((o) => o.day)).toEqual(days.slice(0, k));
        expect(expandSeries(split.newSeries!).map((o) => o.day)).toEqual(days.slice(k));
        expect(split.update.map((o) => [o.fromIndex, o.index, o.series])).toEqual(rows.slice(k).map((row, j) => [row.index, j, 'new']));
        expect(split.create).toEqual([]);
        expect(split.remove).toEqual([]);
      }
    });
  });
});
