import type { ErrorCode } from '../errors';
import type { ConsentParty, ConsentTemplateContent } from './consent-template.contracts';
import { isValidSignatureImage } from './signature-image';
import { unknownVariables, unknownVariablesMessage } from './consent-variables';

/**
 * The rules of a consent template beyond its shape (spec §5 and the consents codes of §8), in the
 * order the editor shows them. Pure: the server refuses a template with the first problem's code, the
 * editor marks every problem on its field. `path` is the field as the request body names it.
 */
export type ConsentTemplateProblem = { code: ErrorCode; path: string; message: string };

/** A template as the rules read it: its content and the therapist's signature image it will carry (null: none). */
export type CheckedTemplate = Pick<ConsentTemplateContent, 'documentTitle' | 'data' | 'sections' | 'signatures'> & {
  therapistSignature: string | null;
};

const partyName: Record<Exclude<ConsentParty, 'patient'>, string> = { guardian: 'el tutor', secondGuardian: 'el segundo tutor' };

/** True when an HTML body holds no text (tags and spaces only). */
const isBlankHtml = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;/g, ' ')
    .trim() === '';

export function consentTemplateProblems(t: CheckedTemplate): ConsentTemplateProblem[] {
  const problems: ConsentTemplateProblem[] = [];
  const add = (code: ErrorCode, path: string, message: string) => problems.push({ code, path, message });
  const { data, signatures } = t;

  // §5: a document nobody gives any data in cannot say who consented.
  if (!data.patient.length && !data.guardian.length && !data.secondGuardian.length)
    add('consent_dataset_required', 'data', 'Debes pedir al menos un dato del paciente, tutor o segundo tutor');

  // A second guardian is only ever the second of two.
  if (data.secondGuardian.length && !data.guardian.length)
    add(
      'consent_guardian_required_for_second_guardian',
      'data.guardian',
      'Para pedir datos del segundo tutor, pide también los del primer tutor.',
    );
  if (signatures.secondGuardian && !signatures.guardian)
    add(
      'consent_guardian_required_for_second_guardian',
      'signatures.guardian',
      'Si firma el segundo tutor, también debe firmar el primer tutor.',
    );

  // A guardian is not in the patient's file: who signs must say at least their name.
  for (const party of ['guardian', 'secondGuardian'] as const) {
    if (signatures[party] && !data[party].includes('fullName'))
      add('consent_dataset_required', `data.${party}`, `Si firma ${partyName[party]}, debes pedirle al menos su nombre completo.`);
  }

  if (!signatures.patient && !signatures.guardian && !signatures.secondGuardian)
    add('invalid_argument', 'signatures', 'Indica quién firma el documento: el paciente, el tutor o ambos tutores.');

  if (signatures.therapist && !t.therapistSignature)
    add(
      'consent_therapist_signature_required',
      'therapistSignature',
      'Esta plantilla la firma también el terapeuta: dibuja tu firma para guardarla.',
    );
  if (t.therapistSignature && !isValidSignatureImage(t.therapistSignature))
    add('consent_invalid_signature', 'therapistSignature', 'La firma no es una imagen PNG válida. Vuelve a dibujarla.');

  const texts: [string, string][] = [['documentTitle', t.documentTitle]];
  t.sections.forEach((s, i) => {
    texts.push([`sections.${i}.title`, s.title], [`sections.${i}.body`, s.body]);
    if (s.checkbox) texts.push([`sections.${i}.checkbox.label`, s.checkbox.label]);
    if (!s.title && isBlankHtml(s.body) && !s.checkbox)
      add('invalid_argument', `sections.${i}`, `La sección ${i + 1} está vacía: escribe su texto o quítala.`);
  });
  for (const [path, text] of texts) {
    const unknown = unknownVariables(text);
    if (unknown.length) add('invalid_argument', path, unknownVariablesMessage(unknown));
  }
  return problems;
}
