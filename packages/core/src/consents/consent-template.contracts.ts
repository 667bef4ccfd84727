import { z } from 'zod';
import { INT4_MAX, requiredText, textField } from '../fields';
import { msg } from '../messages';
import { workspaceIdParams } from '../workspaces/workspace.contracts';
import { SIGNATURE_DATA_URL_MAX } from './signature-image';
import { CONSENT_DATA_FIELDS, labelledValues, type ConsentDataField } from './consent-constants';

/**
 * Consent templates (spec §3 "contract template"): what a document asks of each signer, its sections
 * of rich text (each optionally with a checkbox), who signs it, and the therapist's signature when the
 * therapist signs. Templates are versioned: every saved change is a new version and the old ones stay
 * readable, so a sent consent keeps the text it was sent with.
 */
const labelled = labelledValues;

export { CONSENT_DATA_FIELDS, type ConsentDataField };
/** Who data is asked of. */
export const CONSENT_PARTIES = labelled({ patient: 'Paciente', guardian: 'Tutor/a', secondGuardian: 'Segundo tutor/a' });
export type ConsentParty = keyof typeof CONSENT_PARTIES.labels;
/** Who may sign. */
export const CONSENT_SIGNERS = labelled({
  patient: 'Paciente',
  guardian: 'Tutor/a',
  secondGuardian: 'Segundo tutor/a',
  therapist: 'Terapeuta',
});
export type ConsentSigner = keyof typeof CONSENT_SIGNERS.labels;

export const CONSENT_TEMPLATE_NAME_MAX = 120;
export const CONSENT_DOCUMENT_TITLE_MAX = 200;
export const CONSENT_SECTIONS_MAX = 60;
export const CONSENT_SECTION_TITLE_MAX = 200;
/** A section's HTML, before the server keeps only its allowed tags. */
export const CONSENT_SECTION_BODY_MAX = 50_000;
export const CONSENT_CHECKBOX_LABEL_MAX = 500;
export const CONSENT_TEMPLATE_PAGE_SIZE_MAX = 100;

const enumOf = <K extends string>(values: K[]) => z.enum(values as [K, ...K[]], { error: msg.invalidEnum() });

/** A set of data fields: repeated ones count once, kept in the order of CONSENT_DATA_FIELDS. */
const dataFieldSet = z
  .array(enumOf(CONSENT_DATA_FIELDS.values), { error: msg.invalid('Datos') })
  .max(20, { error: msg.arrayMax(20) })
  .default([])
  .transform((fields) => CONSENT_DATA_FIELDS.values.filter((f) => fields.includes(f)));

export const consentDataRequest = z.object({ patient: dataFieldSet, guardian: dataFieldSet, secondGuardian: dataFieldSet });
export type ConsentDataRequest = z.output<typeof consentDataRequest>;

export const consentSignatures = z.object({
  patient: z.boolean().default(false),
  guardian: z.boolean().default(false),
  secondGuardian: z.boolean().default(false),
  therapist: z.boolean().default(false),
});
export type ConsentSignatures = z.output<typeof consentSignatures>;

/** A checkbox the signer ticks (granular consent: recording, contact by email…); `required` ones must be ticked to sign. */
export const consentCheckbox = z.object({
  label: requiredText('texto de la casilla', CONSENT_CHECKBOX_LABEL_MAX),
  required: z.boolean().default(false),
});
export type ConsentCheckbox = z.output<typeof consentCheckbox>;

export const consentSection = z.object({
  title: textField('Título de la sección')
    .trim()
    .max(CONSENT_SECTION_TITLE_MAX, { error: msg.maxLength(CONSENT_SECTION_TITLE_MAX) })
    .default(''),
  /** Rich text as HTML; the server keeps only the allow-list the clinical history uses. */
  body: textField('Texto de la sección').max(CONSENT_SECTION_BODY_MAX, { error: 'El texto de la sección es demasiado largo' }).default(''),
  checkbox: consentCheckbox.nullable().default(null),
});
export type ConsentSection = z.output<typeof consentSection>;

/** What a template says, without the therapist's signature: the shape of the ready-made ones too. */
export const consentTemplateContentBody = z.object({
  name: requiredText('nombre', CONSENT_TEMPLATE_NAME_MAX),
  documentTitle: requiredText('título del documento', CONSENT_DOCUMENT_TITLE_MAX),
  data: consentDataRequest.default({ patient: [], guardian: [], secondGuardian: [] }),
  sections: z
    .array(consentSection, { error: msg.invalid('Secciones') })
    .min(1, { error: 'La plantilla necesita al menos una sección' })
    .max(CONSENT_SECTIONS_MAX, { error: msg.arrayMax(CONSENT_SECTIONS_MAX) }),
  signatures: consentSignatures.default({ patient: true, guardian: false, secondGuardian: false, therapist: false }),
});
export type ConsentTemplateContentInput = z.input<typeof consentTemplateContentBody>;
export type ConsentTemplateContent = z.output<typeof consentTemplateContentBody>;

/**
 * The therapist's drawn signature (a PNG data URL, checked by the rules: `consent_invalid_signature`).
 * Absent: keep the one the template has; null: remove it.
 */
const therapistSignatureInput = textField('Firma del terapeuta')
  .max(SIGNATURE_DATA_URL_MAX, { error: 'La imagen de la firma es demasiado grande' })
  .nullable()
  .optional();

export const createConsentTemplateBody = consentTemplateContentBody.extend({ therapistSignature: therapistSignatureInput });
export type CreateConsentTemplateBody = z.input<typeof createConsentTemplateBody>;

/** A new version: the whole template again, and the version it was edited from (another member may have saved since). */
export const updateConsentTemplateBody = createConsentTemplateBody.extend({
  baseVersion: z
    .number({ error: msg.required('versión') })
    .int({ error: msg.invalid('Versión') })
    .min(1, { error: msg.invalid('Versión') })
    .max(INT4_MAX, { error: msg.invalid('Versión') }),
});
export type UpdateConsentTemplateBody = z.input<typeof updateConsentTemplateBody>;

/** A copy of a ready-made template, optionally renamed, with the therapist's signature when it says the therapist signs. */
export const copyReadyMadeBody = z.preprocess(
  // No body at all (a plain «Copiar») is an empty one.
  (v) => v ?? {},
  z.object({
    name: requiredText('nombre', CONSENT_TEMPLATE_NAME_MAX).optional(),
    therapistSignature: therapistSignatureInput,
  }),
);
export type CopyReadyMadeBody = z.input<typeof copyReadyMadeBody>;

export const consentTemplateIdParams = workspaceIdParams.extend({ templateId: z.uuid({ error: 'Plantilla inválida' }) });

export const consentTemplateQuery = z.object({
  /** A version of the template (default: the latest). */
  version: z.coerce
    .number({ error: msg.invalid('Versión') })
    .int({ error: msg.invalid('Versión') })
    .min(1, { error: msg.invalid('Versión') })
    .max(INT4_MAX, { error: msg.invalid('Versión') })
    .optional(),
});

const flag = z.enum(['true', 'false'], { error: msg.invalidEnum() }).transform((v) => v === 'true');

export const consentTemplateListQuery = z.object({
  /** Name or document title, ignoring case and accents. */
  q: textField('Búsqueda')
    .trim()
    .max(100, { error: msg.maxLength(100) })
    .optional(),
  /** true: only archived (deleted) templates; default: only those in use. */
  archived: flag.default(false),
  sort: z.enum(['name', 'updatedAt'], { error: msg.invalidEnum() }).default('name'),
  page: z.coerce
    .number({ error: msg.invalid('Página') })
    .int()
    .min(1)
    .max(100_000)
    .default(1),
  pageSize: z.coerce
    .number({ error: msg.invalid('Tamaño de página') })
    .int()
    .min(1)
    .max(CONSENT_TEMPLATE_PAGE_SIZE_MAX)
    .default(50),
});
export type ConsentTemplateListQuery = z.output<typeof consentTemplateListQuery>;

const person = z.object({ id: z.uuid(), name: z.string() });

const dataResponse = z.object({
  patient: z.array(enumOf(CONSENT_DATA_FIELDS.values)),
  guardian: z.array(enumOf(CONSENT_DATA_FIELDS.values)),
  secondGuardian: z.array(enumOf(CONSENT_DATA_FIELDS.values)),
});
const signaturesResponse = z.object({ patient: z.boolean(), guardian: z.boolean(), secondGuardian: z.boolean(), therapist: z.boolean() });
const sectionResponse = z.object({
  title: z.string(),
  body: z.string(),
  checkbox: z.object({ label: z.string(), required: z.boolean() }).nullable(),
});

export const consentTemplateResponse = z.object({
  id: z.uuid(),
  /** The version shown (the latest unless another was asked for). */
  version: z.number().int(),
  latestVersion: z.number().int(),
  name: z.string(),
  documentTitle: z.string(),
  data: dataResponse,
  sections: z.array(sectionResponse),
  signatures: signaturesResponse,
  /** The therapist's signature this version carries, who drew it and when; null when the therapist does not sign. */
  therapistSignature: z.object({ image: z.string(), signedBy: person.nullable(), signedAt: z.string() }).nullable(),
  /** The ready-made template it was copied from, if any. */
  readyMadeKey: z.string().nullable(),
  archivedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When this version was saved and by whom. */
  versionCreatedAt: z.string(),
  versionCreatedBy: person.nullable(),
});
export type ConsentTemplate = z.infer<typeof consentTemplateResponse>;

export const consentTemplateSummary = z.object({
  id: z.uuid(),
  name: z.string(),
  documentTitle: z.string(),
  version: z.number().int(),
  signatures: signaturesResponse,
  readyMadeKey: z.string().nullable(),
  archivedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ConsentTemplateSummary = z.infer<typeof consentTemplateSummary>;

export const consentTemplateListResponse = z.object({
  items: z.array(consentTemplateSummary),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ConsentTemplateList = z.infer<typeof consentTemplateListResponse>;

export const consentTemplateVersionSummary = z.object({
  version: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  createdBy: person.nullable(),
});
export type ConsentTemplateVersionSummary = z.infer<typeof consentTemplateVersionSummary>;

export const readyMadeConsentTemplateResponse = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  content: z.object({
    name: z.string(),
    documentTitle: z.string(),
    data: dataResponse,
    sections: z.array(sectionResponse),
    signatures: signaturesResponse,
  }),
});
export type ReadyMadeConsentTemplateResponse = z.infer<typeof readyMadeConsentTemplateResponse>;
