import { describe, expect, it } from 'vitest';
import { formatDate, formatWhen } from './format';

describe('companion dates', () => {
  it('writes DD/MM/YYYY and HH:mm, naming yesterday', () => {
    const now = new Date(2026, 10, 28, 18, 0);
    expect(formatDate(new Date(2026, 2, 4, 9, 5).toISOString())).toBe('04/03/2026');
    expect(formatWhen(new Date(2026, 10, 28, 9, 5).toISOString(), now)).toBe('09:05');
    expect(formatWhen(new Date(2026, 10, 27, 21, 30).toISOString(), now)).toBe('Ayer 21:30');
    expect(formatWhen(new Date(2026, 9, 2, 7, 0).toISOString(), now)).toBe('02/10/2026 07:00');
  });
});
