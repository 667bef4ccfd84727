import { describe, expect, it } from 'vitest';
import { timeZoneOptions, zoneLabel, zoneName } from './zone-label';

const winter = new Date('2026-01-15T12:00:00Z');
const summer = new Date('2026-07-15T12:00:00Z');

describe('time zones for people', () => {
  it('names a zone in Spanish with its offset, never as its IANA id', () => {
    expect(zoneLabel('America/Mexico_City', winter)).toBe('Ciudad de México (UTC−6)');
    expect(zoneLabel('Europe/Madrid', winter)).toBe('Madrid (UTC+1)');
    expect(zoneLabel('Europe/Madrid', summer)).toBe('Madrid (UTC+2)');
    expect(zoneLabel('Atlantic/Canary', winter)).toBe('Canarias (UTC)');
    expect(zoneLabel('America/Argentina/Buenos_Aires', winter)).toBe('Buenos Aires (UTC−3)');
    expect(zoneLabel('Asia/Kolkata', winter)).toBe('India (UTC+5:30)');
  });

  it('takes the city Intl names for zones of its own, else the id without underscores', () => {
    expect(zoneName('America/Sao_Paulo')).toBe('São Paulo');
    expect(zoneName('Etc/Not_A_Zone')).toBe('Not A Zone');
    expect(zoneLabel('Etc/Not_A_Zone', winter)).toBe('Not A Zone');
  });

  it('offers the common zones, keeping another current one first', () => {
    expect(timeZoneOptions('Europe/Madrid', winter)[0]).toEqual({ value: 'Europe/Madrid', label: 'Madrid (UTC+1)' });
    expect(
      timeZoneOptions('America/Sao_Paulo', winter)
        .slice(0, 2)
        .map((o) => o.label),
    ).toEqual(['São Paulo (UTC−3)', 'Madrid (UTC+1)']);
    expect(timeZoneOptions('Europe/Madrid', winter).map((o) => o.label)).not.toContain('America/Mexico City');
  });
});
