import { describe, expect, it } from 'vitest';
import { normalizeHHmm } from './time-text';

describe('normalizeHHmm', () => {
  it('tidies what people type into HH:mm on the 24-hour clock', () => {
    expect(normalizeHHmm('9')).toBe('09:00');
    expect(normalizeHHmm('930')).toBe('09:30');
    expect(normalizeHHmm('9.30')).toBe('09:30');
    expect(normalizeHHmm('16h15')).toBe('16:15');
    expect(normalizeHHmm(' 20:00 ')).toBe('20:00');
  });
  it('refuses what is not a time of the day', () => {
    for (const t of ['24:00', '9:60', 'nueve', '', '12:3']) expect(normalizeHHmm(t)).toBeNull();
  });
});
