import type { PublicConsent, SignConsentBody } from '@divan/core';
// Not the barrel: through it the page would load the consents' Zod contracts too.
import { signingProblems, type ConsentDataField, type ConsentSignerRole } from '@divan/core/consent-signing';
import type { SignatureValue } from '../components/signature-input';

/**
 * The signing form, pure: what the signer has filled, the body it sends, and its problems at their
 * fields (`data.idNumber`, `checkboxes.2`, `signature`), found by core's rules before sending and taken
 * from the server's refusal after. Paths are the API's, so both land in the same place.
 */
export type SignFormValues = {
  data: Partial<Record<ConsentDataField, string>>;
  /** Indexes of the sections whose box is ticked. */
  checked: number[];
  signature: SignatureValue | null;
};

export type Problem = { path: string; message: string };
/** A refusal that belongs to no field: its message, and whether loading the document again helps. */
export type GeneralProblem = { message: string; action: 'reload' | null };

export const NO_SIGNATURE = 'Dibuja tu firma en el recuadro o, si lo prefieres, escríbela con el teclado.';

/**
 * The fields start with what the file or the sending already holds (the name and email the therapist
 * wrote, the patient's phone, ID number and address): a start the signer can correct.
 */
export function initialValues(consent: PublicConsent): SignFormValues {
  const data: SignFormValues['data'] = {};
  for (const field of consent.signer.data) data[field] = consent.signer.prefill[field] ?? (field === 'fullName' ? consent.signer.name : '');
  return { data, checked: [], signature: null };
}

export function bodyOf(consent: PublicConsent, values: SignFormValues): SignConsentBody {
  const data: SignConsentBody['data'] = {};
  for (const field of consent.signer.data) data[field] = (values.data[field] ?? '').trim();
  const sig = values.signature;
  return {
    data,
    checkboxes: [...new Set(values.checked)].sort((a, b) => a - b),
    sectionCount: consent.sections.length,
    signature: sig?.kind === 'typed' ? { kind: 'typed', name: sig.name.trim() } : { kind: 'drawn', png: sig?.png ?? '' },
  };
}

/** Core's signing rules on what the page holds, in the page's order; no signature at all is said plainly. */
export function problemsOf(consent: PublicConsent, values: SignFormValues): Problem[] {
  const body = bodyOf(consent, values);
  const found = signingProblems(consent, consent.signer.role, consent.signer.data, {
    ...body,
    data: body.data ?? {},
    checkboxes: body.checkboxes ?? [],
  });
  return found.map(({ path, message }) => ({ path, message: path === 'signature' && !values.signature ? NO_SIGNATURE : message }));
}

/** Where a path of the API shows on the page ('body.data.email' and 'data.email' alike). */
export function fieldPath(path: string): string | null {
  const p = path.replace(/^body\./, '');
  if (/^data\.[a-zA-Z]+$/.test(p) || /^checkboxes\.\d+$/.test(p)) return p;
  if (p === 'signature' || p.startsWith('signature.')) return 'signature';
  return null;
}

// Not their turn yet: loading again shows the page waiting for the first signer, or the form once they have signed.
const RELOAD_CODES = new Set(['consent_invalid_sections', 'consent_already_signed', 'consent_not_your_turn']);

/** The server's refusal, at the fields it names; what names no field goes above «Firmar». */
export function refusalOf(error: { code: string; message: string; fields: { path: string; message: string }[] }): {
  problems: Problem[];
  general: GeneralProblem | null;
} {
  const problems: Problem[] = [];
  for (const f of error.fields) {
    const path = fieldPath(f.path);
    if (path && !problems.some((p) => p.path === path)) problems.push({ path, message: f.message });
  }
  if (RELOAD_CODES.has(error.code)) return { problems: [], general: { message: error.message, action: 'reload' } };
  return { problems, general: problems.length ? null : { message: error.message, action: null } };
}

export const ROLE_YOU: Record<ConsentSignerRole, string> = {
  patient: 'como paciente',
  guardian: 'como tutor/a',
  secondGuardian: 'como segundo tutor/a',
};
