import { describe, expect, it } from 'vitest';
import { offeredMinutes } from './offered-time';

// Monday to Friday 09:00–14:00 (300 min) and Tuesday 16:00–20:00 (240 min) more.
const mornings = {
  1: [{ from: '09:00', to: '14:00' }],
  2: [
    { from: '09:00', to: '14:00' },
    { from: '16:00', to: '20:00' },
  ],
  3: [{ from: '09:00', to: '14:00' }],
  4: [{ from: '09:00', to: '14:00' }],
  5: [{ from: '09:00', to: '14:00' }],
};

describe('the minutes a booking schedule offers', () => {
  it('counts each day of the period by its weekday, both ends included', () => {
    // 07/12/2026 is a Monday: Mon–Sun is 5 × 300 + 240 = 1,740 minutes.
    expect(offeredMinutes({ schedules: [mornings], from: '2026-12-07', to: '2026-12-13' })).toBe(1740);
    // One day, a Tuesday: 300 + 240.
    expect(offeredMinutes({ schedules: [mornings], from: '2026-12-08', to: '2026-12-08' })).toBe(540);
    // A weekend offers nothing.
    expect(offeredMinutes({ schedules: [mornings], from: '2026-12-12', to: '2026-12-13' })).toBe(0);
    // December 2026: 23 weekdays (Tue 1 … Thu 31), 5 of them Tuesdays: 23 × 300 + 5 × 240.
    expect(offeredMinutes({ schedules: [mornings], from: '2026-12-01', to: '2026-12-31' })).toBe(8100);
  });

  it('counts the time two services share once', () => {
    // A second service on Monday 12:00–15:00 overlaps the first's 09:00–14:00: Monday offers 09:00–15:00.
    const second = { 1: [{ from: '12:00', to: '15:00' }] };
    expect(offeredMinutes({ schedules: [mornings, second], from: '2026-12-07', to: '2026-12-07' })).toBe(360);
    // Touching ranges (14:00–15:00 after 09:00–14:00) are simply added.
    const touching = { 1: [{ from: '14:00', to: '15:00' }] };
    expect(offeredMinutes({ schedules: [mornings, touching], from: '2026-12-07', to: '2026-12-07' })).toBe(360);
    // No service: nothing offered.
    expect(offeredMinutes({ schedules: [], from: '2026-12-01', to: '2026-12-31' })).toBe(0);
  });

  it('takes out the blocked dates: a whole day, or the part of its ranges a blocked range covers', () => {
    const week = { schedules: [mornings], from: '2026-12-07', to: '2026-12-13' };
    // Tuesday blocked all day: 1,740 − 540.
    expect(offeredMinutes({ ...week, blocked: [{ day: '2026-12-08', allDay: true }] })).toBe(1200);
    // Tuesday 13:00–17:00 blocked: 60 minutes of the morning and 60 of the afternoon go.
    expect(offeredMinutes({ ...week, blocked: [{ day: '2026-12-08', allDay: false, from: '13:00', to: '17:00' }] })).toBe(1620);
    // A block outside the schedule (Saturday, or Monday 20:00–21:00) changes nothing.
    expect(
      offeredMinutes({
        ...week,
        blocked: [
          { day: '2026-12-12', allDay: true },
          { day: '2026-12-07', allDay: false, from: '20:00', to: '21:00' },
        ],
      }),
    ).toBe(1740);
    // A block outside the period changes nothing either.
    expect(offeredMinutes({ ...week, blocked: [{ day: '2026-12-14', allDay: true }] })).toBe(1740);
  });

  it('refuses a period that is not made of days', () => {
    expect(() => offeredMinutes({ schedules: [mornings], from: '07/12/2026', to: '2026-12-13' })).toThrow(RangeError);
  });
});
