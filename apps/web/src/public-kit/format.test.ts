import { describe, expect, it } from 'vitest';
import { dayInZone, dayLabel, formatDuration, monthLabel, timeInZone, zoneCity } from './format';

describe('format', () => {
  it('reads an instant in a zone, across a clock change', () => {
    // 29 March 2026, 01:30 UTC: 03:30 in Madrid (after the spring-forward), 22:30 the day before in Buenos Aires.
    expect(timeInZone('2026-03-29T01:30:00Z', 'Europe/Madrid')).toBe('03:30');
    expect(dayInZone('2026-03-29T01:30:00Z', 'America/Argentina/Buenos_Aires')).toBe('2026-03-28');
    expect(timeInZone('2026-12-03T23:00:00Z', 'Europe/Madrid')).toBe('00:00');
  });

  it('writes days as DD/MM/YYYY with the weekday', () => {
    expect(dayLabel('2026-12-03')).toBe('jueves 03/12/2026');
    expect(monthLabel('2026-12')).toBe('diciembre de 2026');
  });

  it('writes durations', () => {
    expect(formatDuration(50)).toBe('50 min');
    expect(formatDuration(60)).toBe('1 h');
    expect(formatDuration(90)).toBe('1 h 30 min');
  });

  it('names a zone by its city', () => {
    expect(zoneCity('Atlantic/Canary')).toBe('Canarias');
    expect(zoneCity('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
    expect(zoneCity('America/Mexico_City')).toBe('Ciudad de México');
  });
});
