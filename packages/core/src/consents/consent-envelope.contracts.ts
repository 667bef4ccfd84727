import { z } from 'zod';
import { emailField } from '../auth/auth.contracts';
import { linkToken, personNameField, textField } from '../fields';
import { msg } from '../messages';
import { workspaceIdParams } from '../workspaces/workspace.contracts';
import { CONSENT_SECTIONS_MAX } from './consent-template.contracts';
import {
  CONSENT_DATA_FIELDS,
  CONSENT_SELF_SIGNING_AGE,
  CONSENT_SIGNER_ROLES,
  CONSENT_SIGNER_ROLE_LABELS,
  type ConsentDataField,
  type ConsentSignerRole,
} from './consent-constants';
import { SIGNATURE_DATA_URL_MAX } from './signature-image';

/**
 * A sent consent (spec §3 "consent envelope"): a frozen template version sent to a patient, who signs
 * it (or, for a minor, the guardian and the second guardian), each by their own link.
 */
export const CONSENT_ENVELOPE_STATES = ['sent', 'opened', 'signed', 'revoked'] as const;
export type ConsentEnvelopeState = (typeof CONSENT_ENVELOPE_STATES)[number];
export const CONSENT_ENVELOPE_STATE_LABELS: Record<ConsentEnvelopeState, string> = {
  sent: 'Enviado',
  opened: 'Abierto',
  signed: 'Firmado',
  revoked: 'Anulado',
};

export { CONSENT_SIGNER_ROLES, CONSENT_SIGNER_ROLE_LABELS, CONSENT_SELF_SIGNING_AGE, type ConsentSignerRole };

/**
 * Art. 156 Código Civil: one guardian suffices when there is a criminal proceeding or a gender-violence
 * report against the other, who is informed (the therapist confirms so when sending).
 */
export const MINOR_EXCEPTION_REASONS = {
  criminal_proceeding: 'Procedimiento penal en curso',
  gender_violence_report: 'Denuncia por violencia de género',
} as const;
export type MinorExceptionReason = keyof typeof MINOR_EXCEPTION_REASONS;

export const CONSENT_LINK_DAYS = 30;
/** Unsigned signers are mailed again this many days after sending. */
export const CONSENT_REMINDER_DAYS = [3, 7] as const;
export const CONSENT_ENVELOPE_PAGE_SIZE_MAX = 100;
export const CONSENT_DATA_VALUE_MAX = 300;
export const CONSENT_TYPED_SIGNATURE_MAX = 120;

const signerContact = z.object({
  name: personNameField('nombre', 200),
  email: emailField,
});

export const sendConsentBody = z.object({
  patientId: z.uuid({ error: 'Paciente inválido' }),
  templateId: z.uuid({ error: 'Plantilla inválida' }),
  /** Who receives the links; the patient's email defaults to the file's. */
  signers: z
    .object({
      patient: z.object({ name: personNameField('nombre', 200).optional(), email: emailField.optional() }).optional(),
      guardian: signerContact.optional(),
      secondGuardian: signerContact.optional(),
    })
    .default({}),
  /**
   * The sending therapist's drawn signature (PNG data URL), when the template says the therapist signs
   * and the signature kept on the template is not theirs (consent_therapist_signature_required otherwise).
   */
  therapistSignature: textField('Firma del terapeuta')
    .max(SIGNATURE_DATA_URL_MAX, { error: 'La imagen de la firma es demasiado grande' })
    .nullable()
    .optional(),
  /** Art. 156 CC: only the first guardian signs; the reason is recorded and the other guardian has been informed. */
  minorException: z
    .object({
      reason: z.enum(Object.keys(MINOR_EXCEPTION_REASONS) as [MinorExceptionReason, ...MinorExceptionReason[]], {
        error: msg.invalidEnum(),
      }),
      otherGuardianInformed: z.literal(true, { error: 'Confirma que el otro progenitor ha sido informado.' }),
    })
    .nullable()
    .optional(),
  /**
   * The sender has seen which of the document's variables have no value (sendConsentCheck) and sends
   * it so; without it such a sending is refused with `consent_variables_missing`, listing them.
   */
  confirmMissing: z.boolean({ error: msg.invalid('Confirmación') }).optional(),
});
export type SendConsentBody = z.input<typeof sendConsentBody>;

/** `GET …/patients/:patientId/consents/check/:templateId`: what sending this template to this patient would leave blank, before sending. */
export const consentSendCheckParams = workspaceIdParams.extend({
  patientId: z.uuid({ error: 'Paciente inválido' }),
  templateId: z.uuid({ error: 'Plantilla inválida' }),
});
export const consentSendCheckResponse = z.object({
  /** The variables the document uses without a value, each with its Spanish message and where it is filled. */
  missing: z.array(z.object({ variable: z.string(), message: z.string(), source: z.enum(['profile', 'patient', 'workspace']).nullable() })),
});
export type ConsentSendCheck = z.infer<typeof consentSendCheckResponse>;

export const consentEnvelopeIdParams = workspaceIdParams.extend({ consentId: z.uuid({ error: 'Consentimiento inválido' }) });
export const consentTokenParams = z.object({ token: linkToken() });

export const consentEnvelopeListQuery = z.object({
  state: z.enum(CONSENT_ENVELOPE_STATES, { error: msg.invalidEnum() }).optional(),
  patientId: z.uuid({ error: 'Paciente inválido' }).optional(),
  templateId: z.uuid({ error: 'Plantilla inválida' }).optional(),
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
    .max(CONSENT_ENVELOPE_PAGE_SIZE_MAX)
    .default(50),
});
export type ConsentEnvelopeListQuery = z.output<typeof consentEnvelopeListQuery>;

const roleEnum = z.enum(CONSENT_SIGNER_ROLES);
const dataFieldEnum = z.enum(CONSENT_DATA_FIELDS.values as [ConsentDataField, ...ConsentDataField[]]);

export const consentSignerSummary = z.object({
  role: roleEnum,
  name: z.string(),
  email: z.string(),
  openedAt: z.string().nullable(),
  signedAt: z.string().nullable(),
  /** When the signing link was last mailed (null: not yet, e.g. the second guardian before the first signs). */
  mailedAt: z.string().nullable(),
  expiresAt: z.string(),
});

export const consentEnvelopeResponse = z.object({
  id: z.uuid(),
  state: z.enum(CONSENT_ENVELOPE_STATES),
  patient: z.object({ id: z.uuid(), name: z.string() }),
  template: z.object({ id: z.uuid(), version: z.number().int(), name: z.string() }),
  documentTitle: z.string(),
  therapist: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  signers: z.array(consentSignerSummary),
  minorException: z.object({ reason: z.string(), otherGuardianInformed: z.boolean() }).nullable(),
  /** The sealed PDF in the patient's documents, once every signature is in. */
  documentId: z.uuid().nullable(),
  sentAt: z.string(),
  completedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ConsentEnvelope = z.infer<typeof consentEnvelopeResponse>;

export const consentEnvelopeListResponse = z.object({
  items: z.array(consentEnvelopeResponse),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ConsentEnvelopeList = z.infer<typeof consentEnvelopeListResponse>;

export const sendConsentResponse = consentEnvelopeResponse.extend({
  /** The signing links, to copy and send by other means; each opens one signer's page. */
  links: z.array(z.object({ role: roleEnum, url: z.string(), mailed: z.boolean() })),
});
export type SentConsent = z.infer<typeof sendConsentResponse>;

/** The signing page's document: what the signer reads, what is asked of them, and who else signs. */
export const publicConsentResponse = z.object({
  documentTitle: z.string(),
  workspaceName: z.string(),
  sections: z.array(
    z.object({
      index: z.number().int(),
      title: z.string(),
      body: z.string(),
      checkbox: z.object({ label: z.string(), required: z.boolean() }).nullable(),
    }),
  ),
  signer: z.object({
    role: roleEnum,
    name: z.string(),
    data: z.array(dataFieldEnum),
    /** What the file (or the sending) already holds of the data asked, to start the fields with; the signer may change it. */
    prefill: z.partialRecord(dataFieldEnum, z.string()),
    signedAt: z.string().nullable(),
  }),
  /** Who signs before this signer and has not yet (a second guardian's link opened before the first signed): empty when it is their turn. */
  waitingFor: z.array(z.object({ role: roleEnum, name: z.string() })),
  /** A minor of 16 or more signs themselves: the page says so. */
  patientSignsAsMinor: z.boolean(),
  others: z.array(z.object({ role: roleEnum, name: z.string(), signed: z.boolean() })),
  therapistSignature: z.object({ image: z.string(), name: z.string() }).nullable(),
  state: z.enum(CONSENT_ENVELOPE_STATES),
  expiresAt: z.string(),
  /** SHA-256 of the document shown, recorded in the evidence trail. */
  documentSha256: z.string(),
});
export type PublicConsent = z.infer<typeof publicConsentResponse>;

const dataValue = textField('Dato')
  .trim()
  .max(CONSENT_DATA_VALUE_MAX, { error: msg.maxLength(CONSENT_DATA_VALUE_MAX) });

export const signConsentBody = z.object({
  /** The data asked of this signer, by field. */
  data: z.partialRecord(dataFieldEnum, dataValue).default({}),
  /** The indexes of the sections whose checkbox is ticked. */
  checkboxes: z
    .array(
      z
        .number({ error: msg.invalid('Casilla') })
        .int()
        .min(0)
        .max(10_000),
      { error: msg.invalid('Casillas') },
    )
    .max(CONSENT_SECTIONS_MAX * 2)
    .default([]),
  /** How many sections the page showed: a page built from another document is refused (consent_invalid_sections). */
  sectionCount: z
    .number({ error: msg.required('número de secciones') })
    .int()
    .min(0)
    .max(10_000),
  signature: z.discriminatedUnion(
    'kind',
    [
      z.object({
        kind: z.literal('drawn'),
        png: textField('Firma').max(SIGNATURE_DATA_URL_MAX, { error: 'La imagen de la firma es demasiado grande' }),
      }),
      z.object({
        kind: z.literal('typed'),
        name: textField('Firma')
          .trim()
          .max(CONSENT_TYPED_SIGNATURE_MAX, { error: msg.maxLength(CONSENT_TYPED_SIGNATURE_MAX) }),
      }),
    ],
    { error: 'Firma inválida' },
  ),
});
export type SignConsentBody = z.input<typeof signConsentBody>;
export type SignConsentInput = z.output<typeof signConsentBody>;

export const signConsentResponse = z.object({ state: z.enum(CONSENT_ENVELOPE_STATES), signedAt: z.string(), completed: z.boolean() });
