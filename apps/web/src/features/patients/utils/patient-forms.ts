import { z } from 'zod';
import { createPatientBody, formatPhone, msg, updatePatientBody, updateTreatmentBody, type Patient } from '@divan/core';
import { emptyParty, partyValues } from '../../../lib/address-form'; // relative: the unit tests run without the @ alias
import { isoDateToDmy } from '../../../lib/format';
import { centsToEuros } from '@divan/core';
import { cents, orNull, orUndefined, todayDmy, toIsoDay, viaContract, type Flag } from './form-schema';

const text = z.string();

const personalShape = { firstName: text, lastName: text, email: text, phone: text, birthdate: text, gender: text };
const billingShape = z.object({ fullName: text, taxId: text, line1: text, line2: text, city: text, zipCode: text, country: text });
const treatmentShape = {
  startDate: text,
  motive: text,
  sessionType: text,
  medication: text,
  referralSource: text,
  insuranceCompany: text,
  insurancePolicy: text,
  sessionPrice: text,
  sessionModality: text,
};
const treatmentForm = z.object({ status: text, endDate: text, endingReason: text, ...treatmentShape });

type PersonalValues = { [K in keyof typeof personalShape]: string };
export type BillingValues = z.output<typeof billingShape>;
export type TreatmentValues = z.output<typeof treatmentForm>;

const personalBody = (v: PersonalValues) => ({
  firstName: v.firstName,
  lastName: v.lastName,
  email: v.email,
  phone: v.phone,
  birthdate: toIsoDay(v.birthdate),
  gender: orNull(v.gender),
});

function treatmentBody(v: Omit<TreatmentValues, 'status' | 'endDate' | 'endingReason'>, flag: Flag, prefix: PropertyKey[]) {
  return {
    startDate: toIsoDay(v.startDate),
    motive: orNull(v.motive),
    sessionType: orNull(v.sessionType),
    medication: v.medication,
    referralSource: orNull(v.referralSource),
    insuranceCompany: orNull(v.insuranceCompany),
    insurancePolicy: v.insurancePolicy,
    sessionPrice: cents(v.sessionPrice, flag, [...prefix, 'sessionPrice']),
    sessionModality: orNull(v.sessionModality),
  };
}

// ---- create ----------------------------------------------------------------------------------

const createForm = z.object({
  ...personalShape,
  billingInfo: billingShape,
  treatment: z.object(treatmentShape),
  assignedTherapistId: text,
});
export type CreateValues = z.input<typeof createForm>;

export const createPatientForm = viaContract(
  createForm,
  (v, flag) => ({
    ...personalBody(v),
    billingInfo: v.billingInfo,
    treatment: treatmentBody(v.treatment, flag, ['treatment']),
    assignedTherapistId: orUndefined(v.assignedTherapistId),
  }),
  createPatientBody,
);

export const emptyCreateValues = (assignedTherapistId = ''): CreateValues => ({
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  birthdate: '',
  gender: '',
  billingInfo: { ...emptyParty(), country: 'España' },
  treatment: {
    startDate: todayDmy(),
    motive: '',
    sessionType: '',
    medication: '',
    referralSource: '',
    insuranceCompany: '',
    insurancePolicy: '',
    sessionPrice: '',
    sessionModality: '',
  },
  assignedTherapistId,
});

// ---- personal and billing info (PATCH) -------------------------------------------------------

const infoForm = z.object({ ...personalShape, billingInfo: billingShape.nullable() });
export type InfoValues = z.input<typeof infoForm>;

/** Billing info is sent only when the member may see it (it is null otherwise). */
export const patientInfoForm = viaContract(
  infoForm,
  (v) => ({ ...personalBody(v), ...(v.billingInfo ? { billingInfo: v.billingInfo } : {}) }),
  updatePatientBody,
);

export const infoValuesOf = (p: Patient): InfoValues => ({
  firstName: p.firstName,
  lastName: p.lastName ?? '',
  email: p.email ?? '',
  phone: formatPhone(p.phone),
  birthdate: isoDateToDmy(p.birthdate),
  gender: p.gender ?? '',
  billingInfo: p.billingInfo ? partyValues(p.billingInfo) : null,
});

// ---- treatment (PUT) -------------------------------------------------------------------------

/** Ending a treatment (inactive) needs its end date and reason: said here, before the server says it. */
export const treatmentFormSchema = viaContract(
  treatmentForm,
  (v, flag) => {
    const ending = v.status === 'inactive';
    if (ending && !v.endDate.trim()) flag(['endDate'], msg.required('fecha de fin'));
    if (ending && !v.endingReason) flag(['endingReason'], msg.required('motivo de finalización'));
    return {
      status: v.status,
      ...treatmentBody(v, flag, []),
      endDate: ending ? toIsoDay(v.endDate) : null,
      endingReason: ending ? orNull(v.endingReason) : null,
    };
  },
  updateTreatmentBody,
);

export function treatmentValuesOf(t: NonNullable<Patient['treatment']>): TreatmentValues {
  return {
    status: t.status,
    startDate: isoDateToDmy(t.startDate),
    endDate: isoDateToDmy(t.endDate),
    endingReason: t.endingReason ?? '',
    motive: t.motive ?? '',
    sessionType: t.sessionType ?? '',
    medication: t.medication ?? '',
    referralSource: t.referralSource ?? '',
    insuranceCompany: t.insuranceCompany ?? '',
    insurancePolicy: t.insurancePolicy ?? '',
    sessionPrice: centsToEuros(t.sessionPrice),
    sessionModality: t.sessionModality ?? '',
  };
}
