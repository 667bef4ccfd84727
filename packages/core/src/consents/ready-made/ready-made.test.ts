import { describe, expect, it } from 'vitest';
import { consentTemplateContentBody } from '../consent-template.contracts';
import { consentTemplateProblems } from '../consent-template.rules';
import { CONSENT_VARIABLE_NAMES, variablesIn } from '../consent-variables';
import { READY_MADE_CONSENT_KEYS, READY_MADE_CONSENT_TEMPLATES, readyMadeConsentTemplate } from './index';

const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const textOf = (key: string) => {
  const t = readyMadeConsentTemplate(key)!.content;
  return [t.documentTitle, ...t.sections.flatMap((s) => [s.title, s.body, s.checkbox?.label ?? ''])].join('\n').replace(/<[^>]+>/g, '');
};

describe('ready-made consent templates', () => {
  it('are the five of issue 13, each with its own key', () => {
    expect(READY_MADE_CONSENT_KEYS).toEqual([
      'tratamiento-psicologico',
      'proteccion-datos',
      'sesiones-online',
      'menor-dos-tutores',
      'grabacion-sesiones',
    ]);
    expect(readyMadeConsentTemplate('no-existe')).toBeUndefined();
  });

  for (const t of READY_MADE_CONSENT_TEMPLATES) {
    it(`«${t.content.name}» is a valid template as it is (with the therapist's signature when the therapist signs)`, () => {
      expect(consentTemplateContentBody.parse(t.content)).toEqual(t.content);
      expect(consentTemplateProblems({ ...t.content, therapistSignature: t.content.signatures.therapist ? SIGNATURE : null })).toEqual([]);
      expect(t.description.length).toBeGreaterThan(40);
    });

    it(`«${t.content.name}» uses only known variables, the patient's name and the date among them, and plain editor HTML`, () => {
      const all = [t.content.documentTitle, ...t.content.sections.flatMap((s) => [s.title, s.body, s.checkbox?.label ?? ''])].join('\n');
      const used = variablesIn(all);
      expect(used.every((v) => (CONSENT_VARIABLE_NAMES as string[]).includes(v))).toBe(true);
      expect(used).toEqual(expect.arrayContaining(['fecha', 'terapeuta.nombre', 'espacio.nombre']));
      const tags = new Set([...all.matchAll(/<\/?([a-z0-9]+)/g)].map((m) => m[1]));
      expect([...tags].every((tag) => ['p', 'ul', 'li', 'strong', 'a'].includes(tag!))).toBe(true);
      // Checkboxes where consent is granular; a required one is what signing means.
      expect(t.content.sections.some((s) => s.checkbox?.required)).toBe(true);
    });
  }

  it('treatment: signed by the patient and the therapist, with confidentiality, the clinical record and revocation', () => {
    const t = readyMadeConsentTemplate('tratamiento-psicologico')!.content;
    expect(t.signatures).toEqual({ patient: true, guardian: false, secondGuardian: false, therapist: true });
    const text = textOf('tratamiento-psicologico');
    for (const s of [
      'secreto profesional',
      'Ley 41/2002',
      'cinco años desde el alta',
      'Revocar este consentimiento',
      '{{terapeuta.colegiado}}',
      '{{paciente.nombre}}',
    ])
      expect(text).toContain(s);
    expect(t.sections.filter((s) => s.checkbox && !s.checkbox.required).length).toBeGreaterThanOrEqual(2);
  });

  it('data protection: RGPD and LOPDGDD, health data as a special category, legal basis, retention, rights and the AEPD', () => {
    const text = textOf('proteccion-datos');
    for (const s of [
      'Ley Orgánica 3/2018',
      'categoría especial de datos',
      'art. 9.2.h',
      'art. 6.1.b',
      'cinco años desde el alta',
      'art. 17 de la Ley 41/2002',
      'portabilidad',
      'retirar tu consentimiento',
      'Agencia Española de Protección de Datos',
      'un mes',
    ])
      expect(text).toContain(s);
  });

  it('online sessions: video, privacy of the place, no recording without consent, a failing connection, emergencies', () => {
    const text = textOf('sesiones-online');
    for (const s of [
      'videollamada',
      'espacio privado',
      'prohibido grabar',
      'consentimiento previo y por escrito',
      'Si falla la conexión',
      '112',
      '024',
    ])
      expect(text).toContain(s);
  });

  it('minor: both guardians and the therapist sign; art. 156 CC with its exception and the other guardian informed; 16 or more consents themselves', () => {
    const t = readyMadeConsentTemplate('menor-dos-tutores')!.content;
    expect(t.signatures).toEqual({ patient: false, guardian: true, secondGuardian: true, therapist: true });
    expect(t.data.guardian).toContain('fullName');
    expect(t.data.secondGuardian).toContain('fullName');
    const text = textOf('menor-dos-tutores');
    for (const s of [
      'art. 156 del Código Civil',
      'Ley Orgánica 8/2021',
      'procedimiento penal',
      'servicio especializado de violencia de género',
      'será informado previamente',
      '16 años o más',
      'art. 9.4 de la Ley 41/2002',
      '12 años',
    ])
      expect(text).toContain(s);
  });

  it('recording: purpose, storage, deletion, revocable; video and supervision are separate boxes', () => {
    const t = readyMadeConsentTemplate('grabacion-sesiones')!.content;
    const text = textOf('grabacion-sesiones');
    for (const s of ['Para qué se graban', 'cifradas', 'se borra', 'revocar', 'voluntario']) expect(text).toContain(s);
    expect(t.sections.filter((s) => s.checkbox).map((s) => s.checkbox!.required)).toEqual([true, false, false]);
  });
});
