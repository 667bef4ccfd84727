import { z } from 'zod';
import { msg } from '../messages';
import { birthdateField, optionalDayField, optionalPersonName, optionalText as opt, personNameField, textField } from '../fields';
import {
  PATIENT_PAGE_SIZE_MAX,
  ENDING_REASON,
  GENDER,
  INSURANCE_COMPANY,
  MODALITY,
  REFERRAL_SOURCE,
  SESSION_TYPE,
  TREATMENT_MOTIVE,
  TREATMENT_STATUS,
} from './patient.constants';
import { isValidSpanishTaxId, normalizeTaxId } from './tax-id';
import { phoneField } from '../phone/phone.contracts';
import { EMAIL_MAX, isEmailAddress } from '../email';

const enumOf = <K extends string>(v: { values: K[] }) => z.enum(v.values as [K, ...K[]], { error: msg.invalidEnum() });

export const patientBillingInfo = z.object({
  // A person or a company («Psicología 360 S.L.P.»): not the letters-only rule of persons' names.
  fullName: opt('Nombre o razón social', 150),
  taxId: textField('DNI/NIE')
    .trim()
    .refine((v) => v === '' || isValidSpanishTaxId(v), { error: msg.invalid('DNI/NIE') })
    .transform((v) => (v === '' ? null : normalizeTaxId(v)))
    .nullable()
    .optional(),
  line1: opt('Dirección', 150),
  line2: opt('Dirección (línea 2)', 150),
  city: opt('Ciudad', 80),
  zipCode: textField('Código postal')
    .trim()
    .regex(/^$|^[0-9A-Za-z -]{3,10}$/, { error: msg.invalid('Código postal') })
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v)),
  country: opt('País', 60),
});

const personal = {
  firstName: personNameField('nombre', 100),
  lastName: optionalPersonName('Apellidos', 150),
  email: textField('Email')
    .trim()
    .toLowerCase()
    .max(EMAIL_MAX)
    .refine((v) => v === '' || isEmailAddress(v), { error: msg.invalidEmail() })
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v)),
  phone: phoneField(),
  birthdate: birthdateField(),
  gender: enumOf(GENDER).nullable().optional(),
};

export const treatmentFields = z.object({
  status: enumOf(TREATMENT_STATUS).optional(),
  startDate: optionalDayField(),
  endDate: optionalDayField(),
  endingReason: enumOf(ENDING_REASON).nullable().optional(),
  motive: enumOf(TREATMENT_MOTIVE).nullable().optional(),
  sessionType: enumOf(SESSION_TYPE).nullable().optional(),
  medication: opt('Medicación', 500),
  referralSource: enumOf(REFERRAL_SOURCE).nullable().optional(),
  insuranceCompany: enumOf(INSURANCE_COMPANY).nullable().optional(),
  insurancePolicy: opt('Póliza', 60),
  /** Standard session price in cents. */
  sessionPrice: z
    .number()
    .int({ error: msg.invalid('Precio') })
    .min(0, { error: msg.invalid('Precio') })
    .max(1_000_000, { error: msg.max('10.000 €') })
    .nullable()
    .optional(),
  sessionModality: enumOf(MODALITY).nullable().optional(),
});

export const createPatientBody = z.object({
  ...personal,
  billingInfo: patientBillingInfo.optional(),
  treatment: treatmentFields.omit({ status: true, endDate: true, endingReason: true }).optional(),
  assignedTherapistId: z.uuid().nullable().optional(),
});
export type CreatePatientBody = z.input<typeof createPatientBody>;

export const updatePatientBody = z.object({ ...personal, billingInfo: patientBillingInfo.optional() }).partial();
export const updateTreatmentBody = treatmentFields;
export type UpdateTreatmentBody = z.input<typeof updateTreatmentBody>;
export const assignPatientBody = z.object({ therapistId: z.uuid().nullable() });

export const patientIdParams = z.object({ workspaceId: z.uuid(), patientId: z.uuid() });

const therapistRef = z.object({ id: z.uuid(), name: z.string() }).nullable();

/**
 * Fields guarded by a permission other than the patient file's (PATIENT_FIELDS in patient-fields.ts)
 * are optional: absent, not null, when the member may not read them.
 */
export const patientSummary = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** Billing (patient_billing). */
  taxId: z.string().nullable().optional(),
  /** Treatment (patient_treatment): status, motive, session type and start date. */
  status: enumOf(TREATMENT_STATUS).optional(),
  motive: z.string().nullable().optional(),
  sessionType: z.string().nullable().optional(),
  assignedTherapist: therapistRef,
  treatmentStartDate: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type PatientSummary = z.infer<typeof patientSummary>;

export const patientResponse = patientSummary.extend({
  birthdate: z.string().nullable(),
  gender: z.string().nullable(),
  /** Absent when the member may not read patient billing info. */
  billingInfo: z
    .object({
      fullName: z.string().nullable(),
      taxId: z.string().nullable(),
      line1: z.string().nullable(),
      line2: z.string().nullable(),
      city: z.string().nullable(),
      zipCode: z.string().nullable(),
      country: z.string().nullable(),
    })
    .optional(),
  /** Absent when the member may not read treatment info. */
  treatment: z
    .object({
      status: enumOf(TREATMENT_STATUS),
      startDate: z.string().nullable(),
      endDate: z.string().nullable(),
      endingReason: z.string().nullable(),
      motive: z.string().nullable(),
      sessionType: z.string().nullable(),
      medication: z.string().nullable(),
      referralSource: z.string().nullable(),
      insuranceCompany: z.string().nullable(),
      insurancePolicy: z.string().nullable(),
      sessionPrice: z.number().int().nullable(),
      sessionModality: z.string().nullable(),
    })
    .optional(),
  /** Each count only with the permission to read what it counts. */
  counts: z.object({ historyEntries: z.number().int().optional(), documents: z.number().int().optional() }),
  lastActivityAt: z.string(),
  blockedAt: z.string().nullable(),
});
export type Patient = z.infer<typeof patientResponse>;

export const PATIENT_SORTS = ['lastName', 'firstName', 'createdAt', 'treatmentStartDate'] as const;

export const patientListQuery = z.object({
  q: textField('Búsqueda')
    .trim()
    .max(100, { error: msg.maxLength(100) })
    .optional(),
  status: enumOf(TREATMENT_STATUS).optional(),
  therapistId: z.union([z.uuid(), z.literal('unassigned')]).optional(),
  sessionType: enumOf(SESSION_TYPE).optional(),
  motive: enumOf(TREATMENT_MOTIVE).optional(),
  sort: z.enum(PATIENT_SORTS).default('lastName'),
  dir: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(PATIENT_PAGE_SIZE_MAX).default(50),
});
export type PatientListQuery = z.input<typeof patientListQuery>;

export const patientListResponse = z.object({
  items: z.array(patientSummary),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Per treatment status: absent when the member may not read the status of every listed patient. */
  counts: z.object({ active: z.number().int(), paused: z.number().int(), inactive: z.number().int() }).optional(),
});

export const deletePatientResponse = z.object({
  result: z.enum(['deleted', 'blocked']),
  /** When blocked: the day the record may be erased. */
  retainedUntil: z.string().nullable(),
  message: z.string(),
});
