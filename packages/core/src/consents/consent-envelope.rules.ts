import type { ErrorCode } from '../errors';
import type { ConsentSection, ConsentSignatures } from './consent-template.contracts';
import type { SignConsentInput } from './consent-envelope.contracts';
// The plain values, not the contracts: the signing page runs these rules without loading Zod's schemas.
import { CONSENT_SELF_SIGNING_AGE, type ConsentDataField, type ConsentSignerRole } from './consent-constants';
import { isValidSignatureImage } from './signature-image';
import { isPersonName, personNameMessage } from '../person-name';

/** A problem of a signing or a sending: its §8 code, the field and a Spanish message. */
export type ConsentProblem = { code: ErrorCode; path: string; message: string };

/** Whole years between a birthdate and a day, both 'YYYY-MM-DD'. */
export function ageOn(birthdate: string, day: string): number {
  const [by, bm, bd] = birthdate.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/**
 * Who signs, in order, under Spanish law: an adult, or a minor of 16 or more, signs themselves; a
 * younger minor's two guardians sign (art. 156 CC), or only the first with a recorded exception. A
 * patient without birthdate: the template says who signs.
 */
export function signerRolesFor(input: { age: number | null; signatures: ConsentSignatures; exception: boolean }): {
  roles: ConsentSignerRole[];
  minor: boolean;
} {
  const { age, signatures } = input;
  const minor = age !== null ? age < 18 : signatures.guardian;
  const guardiansSign = age !== null ? age < CONSENT_SELF_SIGNING_AGE : signatures.guardian && !signatures.patient;
  if (!guardiansSign) return { roles: ['patient'], minor };
  return { roles: input.exception || (age === null && !signatures.secondGuardian) ? ['guardian'] : ['guardian', 'secondGuardian'], minor };
}

/** The data asked of a signer: the template's, and at least the full name of a guardian (not in the file). */
export function dataAskedOf(role: ConsentSignerRole, data: Record<ConsentSignerRole, ConsentDataField[]>): ConsentDataField[] {
  const asked = data[role];
  return role !== 'patient' && !asked.includes('fullName') ? ['fullName', ...asked] : asked;
}

const DATA_CODES: Record<ConsentSignerRole, ErrorCode> = {
  patient: 'consent_patient_data_required',
  guardian: 'consent_guardian_data_required',
  secondGuardian: 'consent_second_guardian_data_required',
};
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ID_NUMBER = /^[0-9XYZ][0-9]{7}[A-Z]$/i;

/**
 * A signer's submission against the document (spec §8 envelope codes), in the order the page shows
 * them: the sections, the checkboxes, the data, the signature. Pure: the server refuses the first.
 */
export function signingProblems(
  doc: { sections: Pick<ConsentSection, 'checkbox'>[] },
  role: ConsentSignerRole,
  asked: ConsentDataField[],
  body: SignConsentInput,
): ConsentProblem[] {
  const problems: ConsentProblem[] = [];
  const add = (code: ErrorCode, path: string, message: string) => problems.push({ code, path, message });
  if (body.sectionCount !== doc.sections.length)
    add(
      'consent_invalid_sections',
      'sectionCount',
      'El documento ha cambiado desde que abriste la página. Recárgala y vuelve a intentarlo.',
    );
  const ticked = new Set(body.checkboxes);
  for (const i of ticked) {
    const section = doc.sections[i];
    if (!section) add('consent_invalid_checkbox_section', `checkboxes`, `La sección ${i + 1} no existe en el documento.`);
    else if (!section.checkbox)
      add('consent_checked_section_without_consent_box', `checkboxes`, `La sección ${i + 1} no tiene casilla que marcar.`);
  }
  doc.sections.forEach((s, i) => {
    if (s.checkbox?.required && !ticked.has(i))
      add('consent_required_checkbox_unchecked', `checkboxes.${i}`, `Marca «${s.checkbox.label}» para poder firmar.`);
  });
  for (const field of asked) {
    const value = body.data[field]?.trim() ?? '';
    if (!value) add(DATA_CODES[role], `data.${field}`, 'Este dato es obligatorio.');
    else if (field === 'fullName' && !isPersonName(value)) add(DATA_CODES[role], `data.${field}`, personNameMessage());
    else if (field === 'email' && !EMAIL.test(value)) add(DATA_CODES[role], `data.${field}`, 'El email no es válido.');
    else if (field === 'idNumber' && !ID_NUMBER.test(value.replace(/[\s-]/g, '')))
      add(DATA_CODES[role], `data.${field}`, 'El DNI/NIE no es válido.');
  }
  const sig = body.signature;
  if (sig.kind === 'drawn' ? !isValidSignatureImage(sig.png) : sig.name.trim().length < 2)
    add(
      'consent_invalid_signature',
      'signature',
      sig.kind === 'drawn' ? 'La firma no es una imagen válida. Vuelve a dibujarla.' : 'Escribe tu nombre completo para firmar.',
    );
  // A typed signature is the signer's name: the same letters-only rule.
  else if (sig.kind === 'typed' && !isPersonName(sig.name.trim())) add('consent_invalid_signature', 'signature', personNameMessage());
  return problems;
}
