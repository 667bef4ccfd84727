import { describe, expect, it } from 'vitest';
import { checkForm, cleanCode, emptyForm, holdBody } from './form-checks';

const good = {
  ...emptyForm,
  firstName: 'Lucía',
  lastName: 'Gómez Ruiz',
  email: 'lucia@example.com',
  phone: '+34 600 123 456',
  privacyAccepted: true,
};

describe('booking form checks', () => {
  it('accepts a complete form', () => {
    expect(checkForm(good)).toEqual({});
  });

  it('asks for every required field and the privacy box', () => {
    expect(Object.keys(checkForm(emptyForm)).sort()).toEqual(['email', 'firstName', 'lastName', 'phone', 'privacyAccepted']);
    expect(checkForm({ ...good, firstName: '   ' }).firstName).toBe('Escribe tu nombre');
  });

  it('takes names of letters only (spec §5), as the server does', () => {
    expect(checkForm({ ...good, firstName: '<img src=x onerror=alert(1)>' }).firstName).toBe('Solo se permiten letras');
    expect(checkForm({ ...good, lastName: 'Gómez 2' }).lastName).toBe('Solo se permiten letras');
    expect(checkForm({ ...good, firstName: 'María-José', lastName: "O'Connor Gal·la" })).toEqual({});
  });

  it('checks the email and the phone shapes', () => {
    expect(checkForm({ ...good, email: 'lucia@' }).email).toMatch(/email válido/);
    // The contract's e-mail rule (core's isEmailAddress), not a looser one of the page's own.
    expect(checkForm({ ...good, email: 'lu..cia@example.com' }).email).toMatch(/email válido/);
    expect(checkForm({ ...good, phone: '12' }).phone).toMatch(/teléfono válido/);
    expect(checkForm({ ...good, phone: 'llámame' }).phone).toMatch(/teléfono válido/);
    expect(checkForm({ ...good, phone: '(+34) 600-12-34-56' }).phone).toBeUndefined();
    expect(checkForm({ ...good, message: 'x'.repeat(1001) }).message).toMatch(/1000/);
  });

  it('sends trimmed values, the honeypot as typed, no empty message', () => {
    const body = holdBody({ ...good, firstName: ' Lucía ', website: '' }, '2026-12-03T09:00:00.000Z', 'Europe/Madrid');
    expect(body).toEqual({
      startsAt: '2026-12-03T09:00:00.000Z',
      firstName: 'Lucía',
      lastName: 'Gómez Ruiz',
      email: 'lucia@example.com',
      phone: '+34 600 123 456',
      privacyAccepted: true,
      timeZone: 'Europe/Madrid',
      website: '',
    });
    expect(holdBody({ ...good, message: ' Hola ' }, 'x', undefined)).toMatchObject({ message: 'Hola' });
  });

  it('keeps six digits of a typed or pasted code', () => {
    expect(cleanCode('123 456')).toBe('123456');
    expect(cleanCode('Código: 9876543')).toBe('987654');
  });
});
