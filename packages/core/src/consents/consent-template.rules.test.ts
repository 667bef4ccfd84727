import { describe, expect, it } from 'vitest';
import { errorMessage } from '../errors';
import { consentTemplateContentBody, createConsentTemplateBody, type ConsentTemplateContentInput } from './consent-template.contracts';
import { consentTemplateProblems, type CheckedTemplate } from './consent-template.rules';

const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const base: ConsentTemplateContentInput = {
  name: 'Consentimiento',
  documentTitle: 'Consentimiento de {{paciente.nombre}}',
  data: { patient: ['fullName'] },
  sections: [{ title: 'Tratamiento', body: '<p>Texto</p>' }],
  signatures: { patient: true },
};
const template = (over: Partial<ConsentTemplateContentInput> = {}, therapistSignature: string | null = null): CheckedTemplate => ({
  ...consentTemplateContentBody.parse({ ...base, ...over }),
  therapistSignature,
});
const codes = (t: CheckedTemplate) => consentTemplateProblems(t).map((p) => p.code);

describe('consent template contract', () => {
  it('fills defaults and keeps each data set once, in a fixed order', () => {
    const t = consentTemplateContentBody.parse({ ...base, data: { patient: ['email', 'fullName', 'email'] } });
    expect(t.data).toEqual({ patient: ['fullName', 'email'], guardian: [], secondGuardian: [] });
    expect(t.signatures).toEqual({ patient: true, guardian: false, secondGuardian: false, therapist: false });
    expect(t.sections[0]).toEqual({ title: 'Tratamiento', body: '<p>Texto</p>', checkbox: null });
  });

  it('refuses an unknown data item, no sections and a NUL, in Spanish', () => {
    const bad = (v: unknown) => createConsentTemplateBody.safeParse(v).error?.issues[0]?.message;
    expect(bad({ ...base, data: { patient: ['birthdate'] } })).toBe('Opción inválida');
    expect(bad({ ...base, sections: [] })).toBe('La plantilla necesita al menos una sección');
    expect(bad({ ...base, name: 'Con\u0000NUL' })).toBe('Nombre contiene caracteres no permitidos');
    expect(bad({ ...base, sections: [{ body: 'x', checkbox: { label: ' ' } }] })).toBe('El campo texto de la casilla es obligatorio');
  });
});

describe('consent template rules (spec §5 and §8)', () => {
  it('a sound template has no problem', () => {
    expect(consentTemplateProblems(template())).toEqual([]);
  });

  it('asks at least one data item of the patient, guardian or second guardian (§5)', () => {
    const [problem] = consentTemplateProblems(template({ data: {} }));
    expect(problem).toEqual({
      code: 'consent_dataset_required',
      path: 'data',
      message: 'Debes pedir al menos un dato del paciente, tutor o segundo tutor',
    });
    expect(errorMessage('consent_dataset_required')).toBe('Debes pedir al menos un dato del paciente, tutor o segundo tutor');
  });

  it('has no second guardian without a first one, in the data asked or in who signs', () => {
    expect(codes(template({ data: { secondGuardian: ['fullName'] }, signatures: { patient: true } }))).toEqual([
      'consent_guardian_required_for_second_guardian',
    ]);
    const signs = template({ data: { guardian: ['fullName'], secondGuardian: ['fullName'] }, signatures: { secondGuardian: true } });
    expect(consentTemplateProblems(signs)[0]).toMatchObject({
      code: 'consent_guardian_required_for_second_guardian',
      path: 'signatures.guardian',
    });
  });

  it('asks the name of each guardian who signs', () => {
    const noName = template({ data: { guardian: ['email'] }, signatures: { guardian: true } });
    expect(consentTemplateProblems(noName)).toEqual([
      { code: 'consent_dataset_required', path: 'data.guardian', message: 'Si firma el tutor, debes pedirle al menos su nombre completo.' },
    ]);
    const second = template({
      data: { guardian: ['fullName'], secondGuardian: ['phone'] },
      signatures: { guardian: true, secondGuardian: true },
    });
    expect(consentTemplateProblems(second)[0]).toMatchObject({ code: 'consent_dataset_required', path: 'data.secondGuardian' });
    expect(
      codes(
        template({ data: { guardian: ['fullName'], secondGuardian: ['fullName'] }, signatures: { guardian: true, secondGuardian: true } }),
      ),
    ).toEqual([]);
  });

  it('needs someone on the patient’s side to sign', () => {
    expect(consentTemplateProblems(template({ signatures: { therapist: true } }, SIGNATURE))).toEqual([
      { code: 'invalid_argument', path: 'signatures', message: 'Indica quién firma el documento: el paciente, el tutor o ambos tutores.' },
    ]);
  });

  it('needs the therapist’s signature when the therapist signs, and a valid one', () => {
    expect(codes(template({ signatures: { patient: true, therapist: true } }))).toEqual(['consent_therapist_signature_required']);
    expect(codes(template({ signatures: { patient: true, therapist: true } }, SIGNATURE))).toEqual([]);
    expect(codes(template({ signatures: { patient: true, therapist: true } }, 'data:image/png;base64,AAAA'))).toEqual([
      'consent_invalid_signature',
    ]);
  });

  it('refuses unknown variables wherever text is, naming the field', () => {
    const t = template({
      documentTitle: 'Consentimiento de {{paciente.apellidos}}',
      sections: [
        {
          title: '{{fecha}}',
          body: '<p>{{terapeuta.nombre}} y {{terapeuta.dni}}</p>',
          checkbox: { label: 'Acepto {{ cosa }}', required: true },
        },
      ],
    });
    expect(consentTemplateProblems(t).map((p) => [p.code, p.path, p.message.split('.')[0]])).toEqual([
      ['invalid_argument', 'documentTitle', 'Variable desconocida: {{paciente'],
      ['invalid_argument', 'sections.0.body', 'Variable desconocida: {{terapeuta'],
      ['invalid_argument', 'sections.0.checkbox.label', 'Variable desconocida: {{cosa}}'],
    ]);
  });

  it('refuses an empty section', () => {
    expect(consentTemplateProblems(template({ sections: [{ body: '<p> </p>' }] }))).toEqual([
      { code: 'invalid_argument', path: 'sections.0', message: 'La sección 1 está vacía: escribe su texto o quítala.' },
    ]);
    expect(codes(template({ sections: [{ body: '', checkbox: { label: 'Acepto', required: false } }] }))).toEqual([]);
  });

  it('lists every problem, the §5 one first', () => {
    expect(codes(template({ data: {}, signatures: { secondGuardian: true, therapist: true } }))).toEqual([
      'consent_dataset_required',
      'consent_guardian_required_for_second_guardian',
      'consent_dataset_required',
      'consent_therapist_signature_required',
    ]);
  });
});
