import { describe, expect, it } from 'vitest';
import { addDays, addMonths, daysInMonth, keyTarget, monthGrid, weekdayOf } from './month-grid';

describe('month grid', () => {
  it('starts weeks on Monday and pads with null', () => {
    // 1 December 2026 is a Tuesday.
    const weeks = monthGrid('2026-12');
    expect(weeks[0]).toEqual([null, '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06']);
    expect(weeks.at(-1)).toEqual(['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', null, null, null]);
    expect(weeks.flat().filter(Boolean)).toHaveLength(31);
  });

  it('knows leap years and month lengths', () => {
    expect(daysInMonth('2028-02')).toBe(29);
    expect(daysInMonth('2026-02')).toBe(28);
    expect(daysInMonth('2026-04')).toBe(30);
    // February 2027 starts on a Monday: four full weeks, no padding.
    expect(monthGrid('2027-02')).toHaveLength(4);
  });

  it('adds months across years and days across months', () => {
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-05', -17)).toBe('2024-12');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(weekdayOf('2026-11-30')).toBe(0);
    expect(weekdayOf('2026-11-29')).toBe(6);
  });

  it('moves the focused day like a grid', () => {
    expect(keyTarget('2026-12-03', 'ArrowRight')).toBe('2026-12-04');
    expect(keyTarget('2026-12-01', 'ArrowLeft')).toBe('2026-11-30');
    expect(keyTarget('2026-12-03', 'ArrowDown')).toBe('2026-12-10');
    expect(keyTarget('2026-12-03', 'ArrowUp')).toBe('2026-11-26');
    expect(keyTarget('2026-12-03', 'Home')).toBe('2026-11-30');
    expect(keyTarget('2026-12-03', 'End')).toBe('2026-12-06');
    expect(keyTarget('2027-01-31', 'PageDown')).toBe('2027-02-28');
    expect(keyTarget('2026-12-15', 'PageUp', true)).toBe('2025-12-15');
    expect(keyTarget('2026-12-15', 'Enter')).toBeNull();
  });
});
