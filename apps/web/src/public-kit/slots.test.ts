import { describe, expect, it } from 'vitest';
import type { PublicSlots } from '@divan/core';
import { freeDaysIn, lastMonth, slotsByVisitorDay } from './slots';

const slot = (startsAt: string, day: string, visitorDay: string, from: string) => ({
  startsAt,
  endsAt: startsAt,
  therapist: { day, from, to: from, offset: 'UTC+1' },
  visitor: { day: visitorDay, from, to: from, offset: 'UTC+9' },
  sameLocalTime: false,
});
const month = (m: string, days: PublicSlots['days']): PublicSlots => ({ month: m, timeZone: 'Europe/Madrid', durationMinutes: 50, days });

describe('slots by the visitor day', () => {
  it('moves a late slot to the visitor next day and keeps order across months', () => {
    const nov = month('2026-11', [
      {
        day: '2026-11-30',
        slots: [
          slot('2026-11-30T09:00:00Z', '2026-11-30', '2026-11-30', '18:00'),
          slot('2026-11-30T17:00:00Z', '2026-11-30', '2026-12-01', '02:00'),
        ],
      },
    ]);
    const dec = month('2026-12', [{ day: '2026-12-01', slots: [slot('2026-12-01T08:00:00Z', '2026-12-01', '2026-12-01', '17:00')] }]);
    const byDay = slotsByVisitorDay([dec, nov]);
    expect(byDay.get('2026-12-01')!.map((s) => s.startsAt)).toEqual(['2026-11-30T17:00:00Z', '2026-12-01T08:00:00Z']);
    expect(freeDaysIn(byDay, '2026-12')).toEqual(['2026-12-01']);
    expect(freeDaysIn(byDay, '2026-11')).toEqual(['2026-11-30']);
    expect(slotsByVisitorDay([nov, nov]).get('2026-11-30')).toHaveLength(1);
  });

  it('ends the calendar at the maximum notice', () => {
    const now = new Date('2026-11-28T10:00:00Z');
    expect(lastMonth(now, 'Europe/Madrid', { amount: 3, unit: 'months' })).toBe('2027-02');
    expect(lastMonth(now, 'Europe/Madrid', { amount: 10, unit: 'days' })).toBe('2026-12');
    expect(lastMonth(now, 'Europe/Madrid', { amount: 2, unit: 'hours' })).toBe('2026-11');
    expect(lastMonth(now, 'Europe/Madrid', undefined)).toBe('2027-11');
  });
});
