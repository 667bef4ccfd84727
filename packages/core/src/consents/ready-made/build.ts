import type { ConsentSection, ConsentTemplateContent } from '../consent-template.contracts';

/** A ready-made template: what the list shows and the content a therapist copies and edits. */
export type ReadyMadeConsentTemplate = {
  /** Stable: a copy remembers it (`readyMadeKey`), and the API copies by it. */
  key: string;
  /** What it is for, in one sentence, for the list of ready-made templates. */
  description: string;
  content: ConsentTemplateContent;
};

/** A section: paragraphs and lists as the editor writes them, optionally with a checkbox. */
export const section = (title: string, body: string[], checkbox: ConsentSection['checkbox'] = null): ConsentSection => ({
  title,
  body: body.join(''),
  checkbox,
});

export const p = (text: string) => `<p>${text}</p>`;
export const ul = (...items: string[]) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;
export const required = (label: string) => ({ label, required: true });
export const optional = (label: string) => ({ label, required: false });
