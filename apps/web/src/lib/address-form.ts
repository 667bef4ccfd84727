/**
 * A billing party — the therapist, the workspace, a patient's billing data, an invoice's buyer — as a form
 * holds it: a name, a tax id and an address, each a text, '' where nothing is saved.
 */
export const ADDRESS_FIELDS = ['line1', 'line2', 'city', 'zipCode', 'country'] as const;
export type AddressField = (typeof ADDRESS_FIELDS)[number];

export const PARTY_FIELDS = ['fullName', 'taxId', ...ADDRESS_FIELDS] as const;
export type PartyField = (typeof PARTY_FIELDS)[number];
export type PartyValues = Record<PartyField, string>;

export const emptyParty = (): PartyValues => ({ fullName: '', taxId: '', line1: '', line2: '', city: '', zipCode: '', country: '' });

/** Saved billing data (null or missing where empty) as the form's texts. */
export function partyValues(saved: Partial<Record<PartyField, string | null>>): PartyValues {
  return Object.fromEntries(PARTY_FIELDS.map((f) => [f, saved[f] ?? ''])) as PartyValues;
}
