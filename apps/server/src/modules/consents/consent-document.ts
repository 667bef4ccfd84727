import { createHash, createHmac } from 'node:crypto';
import { fillVariables, type ConsentVariable } from '@divan/core';
import type { ConsentTemplateVersionContent } from './consent-templates.tables';

/** The document a signer is shown: the frozen version filled with the values frozen at sending. */
export type ShownDocument = {
  documentTitle: string;
  sections: { index: number; title: string; body: string; checkbox: { label: string; required: boolean } | null }[];
  therapistSignature: { image: string } | null;
};

type Values = Record<ConsentVariable, string | null>;

/** With the signature of the therapist who sent it (the envelope's), when the template says the therapist signs. */
export function shownDocument(
  content: ConsentTemplateVersionContent,
  values: Values,
  therapistSignature: { image: string } | null,
): ShownDocument {
  return {
    documentTitle: fillVariables(content.documentTitle, values),
    sections: content.sections.map((s, index) => ({
      index,
      title: fillVariables(s.title, values),
      body: fillVariables(s.body, values, { html: true }),
      checkbox: s.checkbox ? { label: fillVariables(s.checkbox.label, values), required: s.checkbox.required } : null,
    })),
    therapistSignature: content.signatures.therapist && therapistSignature ? { image: therapistSignature.image } : null,
  };
}

/** JSON with every object's keys sorted: the same document always hashes the same. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );

/** SHA-256 (hex) of the document shown: what each event of the evidence trail records. */
export const documentSha256 = (doc: ShownDocument) => createHash('sha256').update(canonical(doc)).digest('hex');
export const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Signing links: a signer's token is an HMAC of its id under the installation's secret (256 bits, not
 * guessable; derivable again only by the server, to mail a reminder or the second guardian's link).
 * The database keeps only its SHA-256, so a read of the table opens nothing.
 */
export function signingTokens(appSecret: string) {
  const key = createHmac('sha256', appSecret).update('divan:consent-signing-link').digest();
  return {
    tokenFor: (signerId: string) => createHmac('sha256', key).update(signerId).digest('base64url'),
    hashOf: (token: string) => createHash('sha256').update(token).digest('base64url'),
  };
}
export type SigningTokens = ReturnType<typeof signingTokens>;
