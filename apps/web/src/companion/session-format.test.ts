import { describe, expect, it } from 'vitest';
import { appendPage, changeableLabel, formatSize, placeOf, sessionWhen } from './session-format';

describe('a session as the patient reads it', () => {
  it('gives the day, the hours and the length in the session’s zone, whatever the browser’s', () => {
    // 08:00Z is 09:00 in Madrid in winter; 23:30Z is already the next day there.
    expect(sessionWhen({ startsAt: '2026-11-30T08:00:00.000Z', endsAt: '2026-11-30T08:50:00.000Z', timeZone: 'Europe/Madrid' })).toEqual({
      day: '2026-11-30',
      dayLabel: 'lunes 30/11/2026',
      from: '09:00',
      to: '09:50',
      duration: '50 min',
    });
    expect(
      sessionWhen({ startsAt: '2026-07-01T23:30:00.000Z', endsAt: '2026-07-02T01:00:00.000Z', timeZone: 'Europe/Madrid' }),
    ).toMatchObject({ day: '2026-07-02', from: '01:30', to: '03:00', duration: '1 h 30 min' });
  });

  it('says where: online, or the place with its address', () => {
    expect(placeOf({ modality: 'online', location: null })).toBe('Online (videollamada)');
    expect(placeOf({ modality: 'presential', location: { name: 'Consulta Centro', address: 'Calle Mayor 1, Madrid' } })).toBe(
      'Presencial · Consulta Centro, Calle Mayor 1, Madrid',
    );
    expect(placeOf({ modality: 'presential', location: { name: 'Consulta Centro', address: null } })).toBe('Presencial · Consulta Centro');
    expect(placeOf({ modality: 'presential', location: null })).toBe('Presencial');
  });

  it('says until when it can be changed, only when it can', () => {
    const base = { changeableUntil: '2026-11-29T09:00:00.000Z', timeZone: 'Europe/Madrid' };
    expect(changeableLabel({ ...base, canCancel: true, canMove: true })).toBe(
      'Puedes cancelarla o cambiarla desde aquí hasta el 29/11/2026 a las 10:00.',
    );
    expect(changeableLabel({ ...base, canCancel: true, canMove: false })).toBe(
      'Puedes cancelarla desde aquí hasta el 29/11/2026 a las 10:00.',
    );
    expect(changeableLabel({ ...base, canCancel: false, canMove: false })).toBeNull();
    expect(changeableLabel({ changeableUntil: null, timeZone: 'Europe/Madrid', canCancel: false, canMove: false })).toBeNull();
  });
});

describe('pages and sizes', () => {
  it('appends a page without repeating what a change moved into it', () => {
    expect(appendPage([{ id: 'a' }, { id: 'b' }], [{ id: 'b' }, { id: 'c' }]).map((x) => x.id)).toEqual(['a', 'b', 'c']);
  });

  it('writes sizes the Spanish way', () => {
    expect(formatSize(850)).toBe('850 B');
    expect(formatSize(12 * 1024 + 100)).toBe('12 KB');
    expect(formatSize(1.4 * 1024 * 1024)).toBe('1,4 MB');
  });
});
