/**
 * The plain values of consents that the public signing page needs (who signs, the data asked, from
 * what age a patient signs): no Zod here, so that page loads them without the contracts and what
 * they import. The contracts re-export them.
 */
const labelled = <K extends string>(entries: Record<K, string>) => ({ values: Object.keys(entries) as K[], labels: entries });
export { labelled as labelledValues };

/** The data a signer may be asked for on the signing page (spec §3 "signed contract"). */
export const CONSENT_DATA_FIELDS = labelled({
  fullName: 'Nombre completo',
  email: 'Email',
  phone: 'Teléfono',
  address: 'Dirección',
  idNumber: 'DNI/NIE',
});
export type ConsentDataField = keyof typeof CONSENT_DATA_FIELDS.labels;

/** Who signs an envelope (the therapist's signature comes drawn with the template version). */
export const CONSENT_SIGNER_ROLES = ['patient', 'guardian', 'secondGuardian'] as const;
export type ConsentSignerRole = (typeof CONSENT_SIGNER_ROLES)[number];
export const CONSENT_SIGNER_ROLE_LABELS: Record<ConsentSignerRole, string> = {
  patient: 'Paciente',
  guardian: 'Tutor/a',
  secondGuardian: 'Segundo tutor/a',
};

/** From this age a patient signs their own consent (Ley 41/2002, art. 9.4). */
export const CONSENT_SELF_SIGNING_AGE = 16;
