import { describe, expect, it } from 'vitest';
import { createBookingHoldBody, createPatientBody, sendConsentBody, signUpBody, updatePatientBody, updateProfileBody } from './index';
import { isPersonName } from './person-name';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? undefined : r.error!.issues[0]!.message;

describe("a person's name: letters only (spec §5)", () => {
  it('takes letters of any alphabet with their accents, spaces, apostrophes, hyphens and the l·l', () => {
    for (const name of [
      'Ana',
      'María José',
      'Íñigo',
      'Núria',
      "O'Connor",
      'D’Angelo',
      'Ana-María',
      'Gal·la',
      'Müller',
      'Łukasz',
      'Ηλίας',
      'Mª Luisa',
    ])
      expect(isPersonName(name), name).toBe(true);
  });

  it('refuses markup, digits, symbols and a name without a letter', () => {
    for (const name of [
      '<img src=x onerror=alert(1)>',
      '<b>Ana</b>',
      'Ana2',
      'R2-D2',
      'Ana_Ruiz',
      'ana@correo.es',
      'Ana; DROP',
      'Ana\nRuiz',
      "'",
      '-',
      '   ',
      '😀',
    ])
      expect(isPersonName(name), name).toBe(false);
  });

  it('is the rule of every person’s name a person types, with the spec message', () => {
    const markup = '<img src=x onerror=alert(1)>';
    expect(firstMessage(createPatientBody.safeParse({ firstName: markup }))).toBe('Solo se permiten letras');
    expect(firstMessage(createPatientBody.safeParse({ firstName: 'Ana', lastName: 'Ruiz 2' }))).toBe('Solo se permiten letras');
    expect(firstMessage(updatePatientBody.safeParse({ lastName: markup }))).toBe('Solo se permiten letras');
    expect(firstMessage(updateProfileBody.safeParse({ firstName: markup }))).toBe('Solo se permiten letras');
    expect(firstMessage(signUpBody.safeParse({ firstName: markup, email: 'a@b.es', password: 'Secreta123' }))).toBe(
      'Solo se permiten letras',
    );
    const hold = { startsAt: '2026-12-02T10:00:00Z', email: 'a@b.es', phone: '612345678', privacyAccepted: true };
    expect(firstMessage(createBookingHoldBody.safeParse({ ...hold, firstName: markup }))).toBe('Solo se permiten letras');
    expect(createBookingHoldBody.safeParse({ ...hold, firstName: 'Lola', lastName: "O'Connor-Gal·la" }).success).toBe(true);
    const send = { patientId: crypto.randomUUID(), templateId: crypto.randomUUID() };
    expect(firstMessage(sendConsentBody.safeParse({ ...send, signers: { guardian: { name: markup, email: 'a@b.es' } } }))).toBe(
      'Solo se permiten letras',
    );
  });

  it('empty is only «obligatorio»; an optional one still clears', () => {
    expect(createPatientBody.safeParse({ firstName: ' ' }).error!.issues.map((i) => i.message)).toEqual(['El campo nombre es obligatorio']);
    expect(createPatientBody.parse({ firstName: 'Ana', lastName: '' }).lastName).toBeNull();
  });

  it("a company's billing name is not a person's: digits and dots stay allowed", () => {
    expect(createPatientBody.safeParse({ firstName: 'Ana', billingInfo: { fullName: 'Psicología 360 S.L.P.' } }).success).toBe(true);
  });
});
