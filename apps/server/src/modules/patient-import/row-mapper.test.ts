import { describe, expect, it } from 'vitest';
import { day, mapRow, zipCode } from './row-mapper';

describe('spreadsheet cells to patient fields', () => {
  it('reads dates from date cells, serial numbers and Spanish text', () => {
    expect(day(new Date(Date.UTC(1990, 4, 4)))).toBe('1990-05-04');
    expect(day(32997)).toBe('1990-05-04');
    expect(day('4/5/1990')).toBe('1990-05-04');
    expect(day('04-05-1990')).toBe('1990-05-04');
    expect(day('1990-05-04')).toBe('1990-05-04');
    expect(day('31/02/1990')).toBe('31/02/1990');
    expect(day(null)).toBeUndefined();
  });

  it('gives postal codes back their leading zero', () => {
    expect(zipCode(8012)).toBe('08012');
    expect(zipCode('8012')).toBe('08012');
    expect(zipCode(28013)).toBe('28013');
    expect(zipCode(' ')).toBeUndefined();
  });

  it('turns numbers into text and labels into keys, and names the field of a generic error', () => {
    const ok = mapRow(['Ana', 612345678, 'Hombre', 'Trauma / TEPT', 'familiar'], {
      firstName: 0,
      phone: 1,
      gender: 2,
      motive: 3,
      sessionType: 4,
    });
    expect(ok).toEqual({
      ok: true,
      body: expect.objectContaining({
        firstName: 'Ana',
        phone: '+34612345678',
        gender: 'male',
        treatment: { motive: 'trauma', sessionType: 'family' },
      }),
    });
    expect(mapRow(['Ana', 'x'.repeat(151)], { firstName: 0, lastName: 1 })).toEqual({
      ok: false,
      reason: 'Apellidos: no puede tener más de 150 caracteres',
    });
    expect(mapRow(['Ana', 'Quizá'], { firstName: 0, gender: 1 })).toEqual({ ok: false, reason: 'Género desconocido: «Quizá»' });
  });

  it('a name with markup or digits is the row’s error, with the letters-only rule of spec §5', () => {
    expect(mapRow(['<img src=x onerror=alert(1)>'], { firstName: 0 })).toEqual({ ok: false, reason: 'Nombre: solo se permiten letras' });
    expect(mapRow(['Ana', 'Ruiz 2'], { firstName: 0, lastName: 1 })).toEqual({ ok: false, reason: 'Apellidos: solo se permiten letras' });
    expect(mapRow(['María-José', "O'Connor Gal·la"], { firstName: 0, lastName: 1 })).toMatchObject({ ok: true });
  });
});
