/**
 * `@divan/core/consent-signing`: what the public signing page runs — the plain labels and the signing
 * rules — without the package's barrel, through which the bundler would also load the consents' Zod
 * contracts and all they import (~45 KB gzipped more on a patient's phone). Types still come from
 * `@divan/core`.
 */
export {
  CONSENT_DATA_FIELDS,
  CONSENT_SELF_SIGNING_AGE,
  CONSENT_SIGNER_ROLE_LABELS,
  type ConsentDataField,
  type ConsentSignerRole,
} from './consent-constants';
export { signingProblems, type ConsentProblem } from './consent-envelope.rules';
