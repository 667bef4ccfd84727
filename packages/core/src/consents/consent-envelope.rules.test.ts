import { describe, expect, it } from 'vitest';
import { ageOn, dataAskedOf, signerRolesFor, signingProblems } from './consent-envelope.rules';

const signatures = { patient: false, guardian: true, secondGuardian: true, therapist: false };

describe('who signs a consent', () => {
  it('counts whole years', () => {
    expect(ageOn('2010-11-27', '2026-11-26')).toBe(15);
    expect(ageOn('2010-11-26', '2026-11-26')).toBe(16);
  });

  it('under 16: both guardians, or the first alone with the art. 156 exception; from 16, the patient', () => {
    expect(signerRolesFor({ age: 14, signatures, exception: false })).toEqual({ roles: ['guardian', 'secondGuardian'], minor: true });
    expect(signerRolesFor({ age: 14, signatures, exception: true }).roles).toEqual(['guardian']);
    expect(signerRolesFor({ age: 16, signatures, exception: false })).toEqual({ roles: ['patient'], minor: true });
    expect(signerRolesFor({ age: 40, signatures, exception: false })).toEqual({ roles: ['patient'], minor: false });
    // Without a birthdate the template decides.
    expect(signerRolesFor({ age: null, signatures, exception: false }).roles).toEqual(['guardian', 'secondGuardian']);
    expect(
      signerRolesFor({ age: null, signatures: { ...signatures, guardian: false, secondGuardian: false, patient: true }, exception: false })
        .roles,
    ).toEqual(['patient']);
  });

  it('asks a guardian at least their full name', () => {
    expect(dataAskedOf('guardian', { patient: [], guardian: ['idNumber'], secondGuardian: [] })).toEqual(['fullName', 'idNumber']);
    expect(dataAskedOf('patient', { patient: [], guardian: [], secondGuardian: [] })).toEqual([]);
  });
});

describe('a signing', () => {
  const doc = { sections: [{ checkbox: null }, { checkbox: { label: 'Acepto', required: true } }] };
  const ok = { data: { fullName: 'Ana' }, checkboxes: [1], sectionCount: 2, signature: { kind: 'typed' as const, name: 'Ana Sanz' } };
  const codes = (over: Partial<typeof ok> | Record<string, unknown>) =>
    signingProblems(doc, 'patient', ['fullName'], { ...ok, ...over } as typeof ok).map((p) => p.code);

  it('passes when complete, and names each problem with its §8 code', () => {
    expect(codes({})).toEqual([]);
    expect(codes({ sectionCount: 3 })).toEqual(['consent_invalid_sections']);
    expect(codes({ checkboxes: [1, 5] })).toEqual(['consent_invalid_checkbox_section']);
    expect(codes({ checkboxes: [0, 1] })).toEqual(['consent_checked_section_without_consent_box']);
    expect(codes({ checkboxes: [] })).toEqual(['consent_required_checkbox_unchecked']);
    expect(codes({ data: {} })).toEqual(['consent_patient_data_required']);
    expect(codes({ signature: { kind: 'drawn', png: 'data:image/png;base64,xx' } })).toEqual(['consent_invalid_signature']);
  });
});
