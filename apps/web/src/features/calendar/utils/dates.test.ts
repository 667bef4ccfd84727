import { describe, expect, it } from 'vitest';
import { addToTime, apiRange, dayOf, gridDate, minutesBetween, timeOf } from './dates';

describe('calendar dates', () => {
  it('a grid date keeps the wall clock', () => {
    const d = gridDate('2026-03-30', '18:00');
    expect(dayOf(d)).toBe('2026-03-30');
    expect(timeOf(d)).toBe('18:00');
  });
  it('times add within the day', () => {
    expect(addToTime('10:00', 50)).toBe('10:50');
    expect(addToTime('23:30', 60)).toBe('23:59');
    expect(minutesBetween('10:00', '10:50')).toBe(50);
  });
  it('asks the API for the visible days at Madrid midnight, never more than 42 days', () => {
    expect(apiRange('2026-11-23', '2026-11-30')).toEqual({ from: '2026-11-22T23:00:00.000Z', to: '2026-11-29T23:00:00.000Z' });
    // A six-week month view across the October change: 42 days and an hour, clamped to 42 days.
    const r = apiRange('2026-09-28', '2026-11-09');
    expect(r.from).toBe('2026-09-27T22:00:00.000Z');
    expect(new Date(r.to).getTime() - new Date(r.from).getTime()).toBe(42 * 86_400_000);
  });
});

describe('times typed on the 24-hour clock', () => {
  it('reads the usual ways of writing them', async () => {
    const { normalizeTime } = await import('./dates');
    expect(['9', '09', '930', '0930', '9:30', '9.30', '9h30', '21:05', '2359'].map(normalizeTime)).toEqual([
      '09:00',
      '09:00',
      '09:30',
      '09:30',
      '09:30',
      '09:30',
      '09:30',
      '21:05',
      '23:59',
    ]);
    expect(['24:00', '9:60', 'abc', '', '12:3'].map(normalizeTime)).toEqual([null, null, null, null, null]);
  });
});
