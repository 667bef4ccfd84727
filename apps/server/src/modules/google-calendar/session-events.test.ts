import { describe, expect, it } from 'vitest';
import { busyBlockOf } from './busy-sync.service';
import { eventIdOf, initialsOf, titleOf } from './session-events';

const ana = { firstName: 'Ana', fullName: 'Ana García Pérez' };

describe('what a session looks like in Google', () => {
  it('titles it by the therapist’s choice, initials by default, never more', () => {
    expect(titleOf('initials', ana)).toBe('Sesión · A. G.');
    expect(titleOf('first_name', ana)).toBe('Sesión · Ana');
    expect(titleOf('full_name', ana)).toBe('Sesión · Ana García Pérez');
    expect(titleOf('generic', ana)).toBe('Sesión');
    expect(titleOf('initials', null)).toBe('Sesión');
    expect(initialsOf('  álvaro   ñúñez ')).toBe('Á. Ñ.');
  });

  it('gives its event a Google id (base32hex) derived from the session', () => {
    const id = eventIdOf('0f8e7d6c-5b4a-4321-9abc-def012345678');
    expect(id).toMatch(/^[0-9a-v]{5,1024}$/);
    expect(id).toBe(eventIdOf('0f8e7d6c-5b4a-4321-9abc-def012345678'));
  });
});

describe('busy or not', () => {
  const e = (x: object) => ({
    id: 'e1',
    status: 'confirmed' as const,
    start: { dateTime: '2027-01-04T09:00:00Z' },
    end: { dateTime: '2027-01-04T10:00:00Z' },
    ...x,
  });
  it('an opaque event is busy; a free, cancelled or timeless one is not', () => {
    expect(busyBlockOf(e({}), 'Europe/Madrid')).toEqual({
      eventId: 'e1',
      start: new Date('2027-01-04T09:00:00Z'),
      end: new Date('2027-01-04T10:00:00Z'),
    });
    expect(busyBlockOf(e({ transparency: 'transparent' }), 'Europe/Madrid')).toBeNull();
    expect(busyBlockOf(e({ status: 'cancelled' }), 'Europe/Madrid')).toBeNull();
    expect(busyBlockOf(e({ start: undefined }), 'Europe/Madrid')).toBeNull();
    expect(busyBlockOf(e({ end: { dateTime: '2027-01-04T08:00:00Z' } }), 'Europe/Madrid')).toBeNull();
  });
  it('an all-day event takes the whole day in the zone', () => {
    expect(busyBlockOf(e({ start: { date: '2027-01-04' }, end: { date: '2027-01-05' } }), 'Europe/Madrid')).toEqual({
      eventId: 'e1',
      start: new Date('2027-01-03T23:00:00Z'),
      end: new Date('2027-01-04T23:00:00Z'),
    });
  });
});
