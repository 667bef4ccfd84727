import { describe, expect, it } from 'vitest';
import { underEveryServerZone } from '../time/testing/server-zones';
import { addTimespan, formatTimespan, nominalMinutes } from './timespan';

const MAD = 'Europe/Madrid';
const at = (iso: string) => new Date(iso);

underEveryServerZone(() => {
  describe('booking timespans (spec §9)', () => {
    it('months and days are calendar units in the zone, hours and minutes real time', () => {
      // Saturday 28 March 2026 18:00 (UTC+1); the clocks go forward that night.
      const now = at('2026-03-28T17:00:00Z');
      expect(addTimespan(now, { amount: 1, unit: 'days' }, MAD).toISOString()).toBe('2026-03-29T16:00:00.000Z'); // 18:00 local, UTC+2
      expect(addTimespan(now, { amount: 24, unit: 'hours' }, MAD).toISOString()).toBe('2026-03-29T17:00:00.000Z'); // 19:00 local
      expect(addTimespan(now, { amount: 90, unit: 'minutes' }, MAD).toISOString()).toBe('2026-03-28T18:30:00.000Z');
      expect(addTimespan(at('2026-01-31T09:00:00Z'), { amount: 1, unit: 'months' }, MAD).toISOString()).toBe('2026-02-28T09:00:00.000Z');
      expect(addTimespan(now, { amount: 0, unit: 'months' }, MAD).toISOString()).toBe(now.toISOString());
    });

    it('compares at nominal length and reads in Spanish', () => {
      expect(nominalMinutes({ amount: 2, unit: 'months' })).toBe(2 * 30 * 1440);
      expect(nominalMinutes({ amount: 3, unit: 'hours' })).toBe(180);
      expect(formatTimespan({ amount: 1, unit: 'days' })).toBe('1 día');
      expect(formatTimespan({ amount: 2, unit: 'months' })).toBe('2 meses');
      expect(formatTimespan({ amount: 1, unit: 'months' })).toBe('1 mes');
      expect(formatTimespan({ amount: 90, unit: 'minutes' })).toBe('90 minutos');
    });
  });
});
