import { describe, expect, it } from 'vitest';
import { formatPrice, sessionLabel } from './format';

describe('format', () => {
  it("writes a session's line with the weekday, DD/MM/YYYY and its hours in the zone", () => {
    expect(sessionLabel('2026-12-03T09:00:00Z', '2026-12-03T09:50:00Z', 'Europe/Madrid')).toBe('jueves 03/12/2026, de 10:00 a 10:50');
  });

  it('writes prices in euros', () => {
    expect(formatPrice(6000).replace(/\s/g, ' ')).toBe('60,00 €');
    expect(formatPrice(123456).replace(/\s/g, ' ')).toBe('1.234,56 €');
    expect(formatPrice(0)).toBe('Gratuita');
  });
});
