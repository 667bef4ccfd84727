import { describe, expect, it } from 'vitest';
import { addMonthsUtc } from './add-months';

describe('addMonthsUtc', () => {
  it('keeps the day and time, clamped to the month’s last day', () => {
    const at = (iso: string, months: number) => addMonthsUtc(new Date(iso), months).toISOString();
    expect(at('2026-01-31T10:15:30.000Z', 1)).toBe('2026-02-28T10:15:30.000Z');
    expect(at('2028-01-31T10:15:30.000Z', 1)).toBe('2028-02-29T10:15:30.000Z');
    expect(at('2026-12-03T23:00:00.000Z', 3)).toBe('2027-03-03T23:00:00.000Z');
    expect(at('2028-02-29T00:00:00.000Z', 12)).toBe('2029-02-28T00:00:00.000Z');
  });
});
