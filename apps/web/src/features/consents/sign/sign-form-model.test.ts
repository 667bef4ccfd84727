import { describe, expect, it } from 'vitest';
import type { PublicConsent } from '@divan/core';
import { NO_SIGNATURE, bodyOf, fieldPath, initialValues, problemsOf, refusalOf, type SignFormValues } from './sign-form-model';

// A real 1×1 PNG: core checks the header and the size.
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const consent: PublicConsent = {
  documentTitle: 'Consentimiento para el tratamiento de Pablo Gómez',
  workspaceName: 'Consulta Ruiz',
  sections: [
    { index: 0, title: 'Tratamiento', body: '<p>Atención psicológica.</p>', checkbox: null },
    { index: 1, title: 'Grabación', body: '<p>Solo con permiso.</p>', checkbox: { label: 'Acepto la grabación', required: false } },
    { index: 2, title: 'Declaración', body: '<p>Fecha.</p>', checkbox: { label: 'He leído y acepto', required: true } },
  ],
  signer: { role: 'guardian', name: 'Lucía Gómez', data: ['fullName', 'idNumber'], prefill: { fullName: 'Lucía Gómez' }, signedAt: null },
  waitingFor: [],
  patientSignsAsMinor: false,
  others: [{ role: 'secondGuardian', name: 'Jorge Gómez', signed: false }],
  therapistSignature: null,
  state: 'sent',
  expiresAt: '2026-12-26T10:00:00.000Z',
  documentSha256: 'a'.repeat(64),
};

const filled = (over: Partial<SignFormValues> = {}): SignFormValues => ({
  data: { fullName: ' Lucía Gómez Ruiz ', idNumber: '12345678Z' },
  checked: [2],
  signature: { kind: 'drawn', png: PNG },
  ...over,
});

describe('the signing form', () => {
  it('starts with the name the therapist wrote and every other field empty, nothing ticked', () => {
    expect(initialValues(consent)).toEqual({ data: { fullName: 'Lucía Gómez', idNumber: '' }, checked: [], signature: null });
  });

  it('starts with what the file holds of the data asked (email, ID number), still editable', () => {
    const patient: PublicConsent = {
      ...consent,
      signer: {
        role: 'patient',
        name: 'Ana Sanz',
        data: ['fullName', 'email', 'idNumber', 'phone'],
        prefill: { fullName: 'Ana Sanz', email: 'ana@paciente.test', idNumber: '12345678Z' },
        signedAt: null,
      },
    };
    expect(initialValues(patient).data).toEqual({ fullName: 'Ana Sanz', email: 'ana@paciente.test', idNumber: '12345678Z', phone: '' });
  });

  it('a full name or a typed signature with markup or digits is refused with the letters-only message', () => {
    expect(problemsOf(consent, filled({ data: { fullName: '<img src=x onerror=alert(1)>', idNumber: '12345678Z' } }))).toEqual([
      { path: 'data.fullName', message: 'Solo se permiten letras' },
    ]);
    expect(problemsOf(consent, filled({ signature: { kind: 'typed', name: 'Lucía 2', png: PNG } }))).toEqual([
      { path: 'signature', message: 'Solo se permiten letras' },
    ]);
    expect(problemsOf(consent, filled({ data: { fullName: "María-José O'Connor Gal·la", idNumber: '12345678Z' } }))).toEqual([]);
  });

  it('sends only the data asked, trimmed, the ticked boxes once and in order, the section count, and a typed signature as its name', () => {
    const body = bodyOf(
      consent,
      filled({
        data: { fullName: ' Lucía Gómez Ruiz ', idNumber: '12345678Z', email: 'no@pedido.test' },
        checked: [2, 1, 2],
        signature: { kind: 'typed', name: ' Lucía G ', png: PNG },
      }),
    );
    expect(body).toEqual({
      data: { fullName: 'Lucía Gómez Ruiz', idNumber: '12345678Z' },
      checkboxes: [1, 2],
      sectionCount: 3,
      signature: { kind: 'typed', name: 'Lucía G' },
    });
    expect(bodyOf(consent, filled()).signature).toEqual({ kind: 'drawn', png: PNG });
  });

  it('a complete form has no problems', () => {
    expect(problemsOf(consent, filled())).toEqual([]);
  });

  it("core's problems land at their fields, in the page's order; no signature at all is said plainly", () => {
    const problems = problemsOf(consent, { data: { fullName: '', idNumber: 'no-es-un-dni' }, checked: [1], signature: null });
    expect(problems).toEqual([
      { path: 'checkboxes.2', message: 'Marca «He leído y acepto» para poder firmar.' },
      { path: 'data.fullName', message: 'Este dato es obligatorio.' },
      { path: 'data.idNumber', message: 'El DNI/NIE no es válido.' },
      { path: 'signature', message: NO_SIGNATURE },
    ]);
    expect(problemsOf(consent, filled({ signature: { kind: 'typed', name: 'L', png: PNG } }))).toEqual([
      { path: 'signature', message: 'Escribe tu nombre completo para firmar.' },
    ]);
  });

  it("the server's refusals: at their fields, or above «Firmar» (reloading for an outdated page or a signature already given)", () => {
    expect(
      refusalOf({
        code: 'consent_guardian_data_required',
        message: 'Este dato es obligatorio.',
        fields: [{ path: 'data.idNumber', message: 'Este dato es obligatorio.' }],
      }),
    ).toEqual({
      problems: [{ path: 'data.idNumber', message: 'Este dato es obligatorio.' }],
      general: null,
    });
    expect(
      refusalOf({
        code: 'invalid_argument',
        message: 'Demasiado largo',
        fields: [{ path: 'body.signature.name', message: 'Demasiado largo' }],
      }).problems,
    ).toEqual([{ path: 'signature', message: 'Demasiado largo' }]);
    expect(refusalOf({ code: 'consent_already_signed', message: 'Ya está firmado.', fields: [] })).toEqual({
      problems: [],
      general: { message: 'Ya está firmado.', action: 'reload' },
    });
    expect(refusalOf({ code: 'consent_not_your_turn', message: 'Antes tiene que firmar Lucía.', fields: [] }).general).toEqual({
      message: 'Antes tiene que firmar Lucía.',
      action: 'reload',
    });
    expect(
      refusalOf({ code: 'consent_invalid_sections', message: 'Recarga.', fields: [{ path: 'sectionCount', message: 'Recarga.' }] }).general,
    ).toEqual({ message: 'Recarga.', action: 'reload' });
    expect(
      refusalOf({
        code: 'consent_checked_section_without_consent_box',
        message: 'Sin casilla.',
        fields: [{ path: 'checkboxes', message: 'Sin casilla.' }],
      }),
    ).toEqual({ problems: [], general: { message: 'Sin casilla.', action: null } });
    expect(refusalOf({ code: 'network_error', message: 'Error de red', fields: [] }).general).toEqual({
      message: 'Error de red',
      action: null,
    });
    expect(fieldPath('checkboxes.12')).toBe('checkboxes.12');
    expect(fieldPath('sectionCount')).toBeNull();
  });
});
