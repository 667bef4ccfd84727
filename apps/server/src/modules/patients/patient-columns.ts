import { patientErrorMessages } from '@divan/core';
import type { z } from 'zod';
import type { CreatePatientBody, createPatientBody, updatePatientBody, updateTreatmentBody } from '@divan/core';
import { AppError } from '../../platform/errors';
import type { NewPatient } from './patients.repository';
import type { PatientRow } from './patients.tables';

/** From request bodies to the patient's columns. */
export type Create = z.output<typeof createPatientBody>;
export type UpdateInfo = z.output<typeof updatePatientBody>;
export type UpdateTreatment = z.output<typeof updateTreatmentBody>;

export const duplicate = (email: string | null | undefined, taxId: string | null) =>
  new AppError('patient_already_exists', [
    ...(email ? [{ path: 'email', message: 'Ya hay un paciente con este email' }] : []),
    ...(taxId ? [{ path: 'billingInfo.taxId', message: 'Ya hay un paciente con este DNI/NIE' }] : []),
  ]);

/** Only the fields present in the body change; `null` clears one. */
function pick<T extends object, K extends keyof T>(body: T, key: K, current: unknown) {
  return body[key] !== undefined ? body[key] : current;
}

export function personalColumns(b: Partial<CreatePatientBody & UpdateInfo>, cur?: PatientRow) {
  return {
    firstName: (pick(b, 'firstName', cur?.firstName) as string) ?? '',
    lastName: pick(b, 'lastName', cur?.lastName ?? null) as string | null,
    email: pick(b, 'email', cur?.email ?? null) as string | null,
    phone: pick(b, 'phone', cur?.phone ?? null) as string | null,
    birthdate: pick(b, 'birthdate', cur?.birthdate ?? null) as string | null,
    gender: pick(b, 'gender', cur?.gender ?? null) as string | null,
  };
}

export function billingColumns(b: Create['billingInfo'] | undefined, cur?: PatientRow) {
  const v: Partial<NonNullable<Create['billingInfo']>> = b ?? {};
  return {
    billingFullName: pick(v, 'fullName', cur?.billingFullName ?? null) as string | null,
    billingTaxId: pick(v, 'taxId', cur?.billingTaxId ?? null) as string | null,
    billingLine1: pick(v, 'line1', cur?.billingLine1 ?? null) as string | null,
    billingLine2: pick(v, 'line2', cur?.billingLine2 ?? null) as string | null,
    billingCity: pick(v, 'city', cur?.billingCity ?? null) as string | null,
    billingZipCode: pick(v, 'zipCode', cur?.billingZipCode ?? null) as string | null,
    billingCountry: pick(v, 'country', cur?.billingCountry ?? null) as string | null,
  };
}

/** The treatment's columns but the medication, which the service encrypts (patient-medication.ts). */
export function treatmentColumns(t: Partial<UpdateTreatment>): Partial<NewPatient> {
  const out: Partial<NewPatient> = {};
  const map = {
    startDate: 'treatmentStartDate',
    motive: 'treatmentMotive',
    sessionType: 'treatmentSessionType',
    referralSource: 'treatmentReferralSource',
    insuranceCompany: 'insuranceCompany',
    insurancePolicy: 'insurancePolicy',
    sessionPrice: 'sessionPrice',
    sessionModality: 'sessionModality',
  } as const;
  for (const [k, col] of Object.entries(map)) {
    const v = (t as Record<string, unknown>)[k];
    if (v !== undefined) (out as Record<string, unknown>)[col] = v;
  }
  return out;
}

/**
 * A treatment update as columns, with its rules: ending it needs its end date and reason (after the
 * start); any other status clears them. The medication is the service's (encrypted).
 */
export function treatmentChanges(p: PatientRow, body: UpdateTreatment): Partial<NewPatient> {
  const status = body.status ?? p.treatmentStatus;
  const changes: Partial<NewPatient> = { ...treatmentColumns(body), treatmentStatus: status };
  if (status !== 'inactive') return { ...changes, treatmentEndDate: null, treatmentEndingReason: null };
  const endDate = body.endDate !== undefined ? body.endDate : p.treatmentEndDate;
  const endingReason = body.endingReason !== undefined ? body.endingReason : p.treatmentEndingReason;
  if (!endDate || !endingReason) {
    throw new AppError('treatment_end_required', [
      ...(!endDate ? [{ path: 'endDate', message: 'El campo fecha de fin es obligatorio' }] : []),
      ...(!endingReason ? [{ path: 'endingReason', message: 'El campo motivo de finalización es obligatorio' }] : []),
    ]);
  }
  const start = body.startDate !== undefined ? body.startDate : p.treatmentStartDate;
  if (start && endDate < start)
    throw new AppError(
      'invalid_argument',
      [{ path: 'endDate', message: patientErrorMessages.treatmentEndBeforeStart }],
      patientErrorMessages.treatmentEndBeforeStart,
    );
  return { ...changes, treatmentEndDate: endDate, treatmentEndingReason: endingReason };
}
