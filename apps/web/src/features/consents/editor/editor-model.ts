import {
  consentTemplateProblems,
  createConsentTemplateBody,
  type ConsentDataField,
  type ConsentParty,
  type ConsentSignatures,
  type ConsentTemplate,
  type CreateConsentTemplateBody,
} from '@divan/core';

/** A section as the editor holds it: a stable key for React and the checkbox's text kept while it is off. */
export type SectionModel = { key: string; title: string; body: string; hasCheckbox: boolean; checkboxLabel: string; required: boolean };

export type EditorModel = {
  name: string;
  documentTitle: string;
  data: Record<ConsentParty, ConsentDataField[]>;
  sections: SectionModel[];
  signatures: ConsentSignatures;
  /** The therapist's signature image (a PNG data URL); null: none. */
  therapistSignature: string | null;
};

let seq = 0;
const newKey = () => `s${++seq}`;

export const emptySection = (): SectionModel => ({
  key: newKey(),
  title: '',
  body: '',
  hasCheckbox: false,
  checkboxLabel: '',
  required: false,
});

export function emptyModel(): EditorModel {
  return {
    name: '',
    documentTitle: '',
    data: { patient: ['fullName'], guardian: [], secondGuardian: [] },
    sections: [emptySection()],
    signatures: { patient: true, guardian: false, secondGuardian: false, therapist: false },
    therapistSignature: null,
  };
}

export function modelOf(
  t: Pick<ConsentTemplate, 'name' | 'documentTitle' | 'data' | 'sections' | 'signatures' | 'therapistSignature'>,
): EditorModel {
  return {
    name: t.name,
    documentTitle: t.documentTitle,
    data: { patient: [...t.data.patient], guardian: [...t.data.guardian], secondGuardian: [...t.data.secondGuardian] },
    sections: t.sections.map((s) => ({
      key: newKey(),
      title: s.title,
      body: s.body,
      hasCheckbox: !!s.checkbox,
      checkboxLabel: s.checkbox?.label ?? '',
      required: s.checkbox?.required ?? false,
    })),
    signatures: { ...t.signatures },
    therapistSignature: t.therapistSignature?.image ?? null,
  };
}

/** What is sent: the checkbox only when it is on; the therapist's signature only when the therapist signs. */
export function bodyOf(m: EditorModel): CreateConsentTemplateBody {
  return {
    name: m.name,
    documentTitle: m.documentTitle,
    data: m.data,
    sections: m.sections.map((s) => ({
      title: s.title,
      body: s.body,
      checkbox: s.hasCheckbox ? { label: s.checkboxLabel, required: s.required } : null,
    })),
    signatures: m.signatures,
    therapistSignature: m.signatures.therapist ? m.therapistSignature : null,
  };
}

/** The model without its React keys: what «unsaved changes» compares. */
export const fingerprint = (m: EditorModel) => JSON.stringify(bodyOf(m));

/** Problems by field path (`name`, `data`, `sections.0.title`, `therapistSignature`…): the first message of each. */
export type Problems = Record<string, string>;

/**
 * Every problem of the template, in Spanish, before saving: the contract's (required name, lengths)
 * and core's rules (spec §5 and the consents codes of §8), each on its field.
 */
export function problemsOf(m: EditorModel): Problems {
  const out: Problems = {};
  const add = (path: string, message: string) => {
    if (!(path in out)) out[path] = message;
  };
  const body = bodyOf(m);
  const parsed = createConsentTemplateBody.safeParse(body);
  if (!parsed.success) for (const issue of parsed.error.issues) add(issue.path.join('.'), issue.message);
  const content = parsed.success ? parsed.data : null;
  for (const p of consentTemplateProblems({
    documentTitle: content?.documentTitle ?? m.documentTitle,
    data: content?.data ?? m.data,
    sections:
      content?.sections ??
      body.sections.map((s) => ({
        title: s.title ?? '',
        body: s.body ?? '',
        checkbox: s.checkbox ? { label: s.checkbox.label, required: s.checkbox.required ?? false } : null,
      })),
    signatures: m.signatures,
    therapistSignature: m.signatures.therapist ? m.therapistSignature : null,
  }))
    add(p.path, p.message);
  return out;
}

/** The message of a field and of anything under it (`sections.2` holds `sections.2.title`…): the first one. */
export const problemAt = (problems: Problems, path: string): string | undefined => problems[path];

export function problemsUnder(problems: Problems, prefix: string): string[] {
  return Object.entries(problems)
    .filter(([p]) => p === prefix || p.startsWith(`${prefix}.`))
    .map(([, m]) => m);
}

/** Moves the item at `from` one place up (-1) or down (+1); the same list when it cannot move. */
export function move<T>(list: T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return list;
  const next = [...list];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}
