import { describe, expect, it } from 'vitest';
import { presetRange } from './date-presets';

// Wednesday 4 March 2026, in the browser's zone.
const now = new Date(2026, 2, 4, 9, 30);

describe('presetRange', () => {
  it('counts days back from today, today included', () => {
    expect(presetRange('today', now)).toEqual({ from: '2026-03-04', to: '2026-03-04' });
    expect(presetRange('yesterday', now)).toEqual({ from: '2026-03-03', to: '2026-03-03' });
    expect(presetRange('last7', now)).toEqual({ from: '2026-02-26', to: '2026-03-04' });
    expect(presetRange('last14', now)).toEqual({ from: '2026-02-19', to: '2026-03-04' });
    expect(presetRange('last30', now)).toEqual({ from: '2026-02-03', to: '2026-03-04' });
  });

  it('takes weeks from Monday to Sunday', () => {
    expect(presetRange('thisWeek', now)).toEqual({ from: '2026-03-02', to: '2026-03-08' });
    expect(presetRange('lastWeek', now)).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    // A Sunday belongs to the week that started six days before.
    expect(presetRange('thisWeek', new Date(2026, 2, 8, 23))).toEqual({ from: '2026-03-02', to: '2026-03-08' });
  });

  it('takes whole calendar months, across the year', () => {
    expect(presetRange('thisMonth', now)).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(presetRange('lastMonth', now)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(presetRange('lastMonth', new Date(2026, 0, 15))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });

  it('is not moved by the change to summer time', () => {
    // Spain moves to summer time on 29 March 2026.
    expect(presetRange('last7', new Date(2026, 2, 31, 0, 30))).toEqual({ from: '2026-03-25', to: '2026-03-31' });
  });
});
