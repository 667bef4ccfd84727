import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Every assertion runs with the process in each of these zones: the results must not change. */
const SERVER_ZONES = [
  { zone: 'UTC', jan1Offset: 0 },
  { zone: 'America/New_York', jan1Offset: 300 },
  { zone: 'Asia/Tokyo', jan1Offset: -540 },
  { zone: 'Europe/Madrid', jan1Offset: -60 },
];

export function underEveryServerZone(body: () => void): void {
  describe.each(SERVER_ZONES)('with the server in $zone', ({ zone, jan1Offset }) => {
    const saved = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = zone;
    });
    afterAll(() => {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    });
    it('really runs in that zone (Node re-read TZ)', () => {
      expect(new Date(2026, 0, 1).getTimezoneOffset()).toBe(jan1Offset);
    });
    body();
  });
}
