import { describe, expect, it } from 'vitest';
import { easterSunday, holidaysBetween, holidaysOf, regionOfZip } from './holidays';

describe('Spanish holidays as blocked-day suggestions', () => {
  it('finds Easter Sunday by the Gregorian computus', () => {
    // Known dates (including the extremes 22 March and 25 April of the algorithm's range).
    expect(easterSunday(2024)).toBe('2024-03-31');
    expect(easterSunday(2025)).toBe('2025-04-20');
    expect(easterSunday(2026)).toBe('2026-04-05');
    expect(easterSunday(2027)).toBe('2027-03-28');
    expect(easterSunday(2038)).toBe('2038-04-25');
    expect(easterSunday(2285)).toBe('2285-03-22');
  });

  it('lists the national days and Good Friday without a region', () => {
    const days = holidaysOf(2026, null);
    expect(days.map((h) => h.day)).toEqual([
      '2026-01-01',
      '2026-01-06',
      '2026-04-03',
      '2026-05-01',
      '2026-08-15',
      '2026-10-12',
      '2026-11-01',
      '2026-12-06',
      '2026-12-08',
      '2026-12-25',
    ]);
    expect(days.every((h) => h.scope === 'national')).toBe(true);
    expect(days.find((h) => h.day === '2026-04-03')?.name).toBe('Viernes Santo');
  });

  it("adds a region's own days: Holy Thursday but not in Cataluña, Easter Monday there", () => {
    const madrid = holidaysOf(2026, 'MD');
    expect(madrid.find((h) => h.day === '2026-04-02')?.name).toBe('Jueves Santo');
    expect(madrid.find((h) => h.day === '2026-05-02')?.name).toBe('Fiesta de la Comunidad de Madrid');
    expect(madrid.some((h) => h.day === '2026-04-06')).toBe(false);
    const cataluna = holidaysOf(2026, 'CT');
    expect(cataluna.some((h) => h.day === '2026-04-02')).toBe(false);
    expect(cataluna.find((h) => h.day === '2026-04-06')?.name).toBe('Lunes de Pascua');
    expect(cataluna.filter((h) => h.scope === 'regional').map((h) => h.day)).toEqual([
      '2026-04-06',
      '2026-06-24',
      '2026-09-11',
      '2026-12-26',
    ]);
  });

  it('reads the community from the postal code of its province', () => {
    expect(regionOfZip('28013')).toBe('MD');
    expect(regionOfZip('08001')).toBe('CT');
    expect(regionOfZip('01001')).toBe('PV');
    expect(regionOfZip('35001')).toBe('CN');
    expect(regionOfZip('52001')).toBe('ML');
    expect(regionOfZip('53001')).toBe(null);
    expect(regionOfZip('2801')).toBe(null);
    expect(regionOfZip(null)).toBe(null);
  });

  it('spans years, both ends included', () => {
    expect(holidaysBetween('2026-12-08', '2027-01-06', null).map((h) => h.day)).toEqual([
      '2026-12-08',
      '2026-12-25',
      '2027-01-01',
      '2027-01-06',
    ]);
  });
});
