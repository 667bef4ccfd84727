import { PATIENT_FIELDS, canOn, readableView, type AppAbility, type Patient, type PatientSummary } from '@divan/core';
import type { PatientSummaryRow } from './patient-search.queries';
import type { PatientRow } from './patients.tables';

const ownerOf = (p: Pick<PatientRow, 'assignedTherapistId'>) => ({ ownerId: p.assignedTherapistId });

/** «Nombre Apellidos», as a person or a patient is shown and logged. */
export const fullName = (p: { firstName: string; lastName: string | null }) => [p.firstName, p.lastName].filter(Boolean).join(' ');

function fullSummary(p: PatientSummaryRow, names: Map<string, string>): Required<PatientSummary> {
  return {
    id: p.id,
    firstName: p.firstName,
    lastName: p.lastName,
    email: p.email,
    phone: p.phone,
    taxId: p.billingTaxId,
    status: p.treatmentStatus,
    motive: p.treatmentMotive,
    sessionType: p.treatmentSessionType,
    assignedTherapist: p.assignedTherapistId ? { id: p.assignedTherapistId, name: names.get(p.assignedTherapistId) ?? '' } : null,
    treatmentStartDate: p.treatmentStartDate,
    createdAt: p.createdAt.toISOString(),
  };
}

/** A row of the list as `ability` may read it (PATIENT_FIELDS): no treatment field without Tratamiento, no tax id without facturación. */
export function summary(ability: AppAbility, p: PatientSummaryRow, names: Map<string, string>): PatientSummary {
  return readableView(ability, PATIENT_FIELDS, ownerOf(p), fullSummary(p, names));
}

/** What the file shows besides the row: counts and the decrypted medication, gathered by the service for what `ability` reads. */
export type FileExtras = { counts: { historyEntries?: number; documents?: number }; medication: string | null };

/** Whether the service should decrypt the medication and count entries and documents for this reader. */
export const wants = (ability: AppAbility, p: PatientRow) => ({
  treatment: canOn(ability, 'read', 'patient_treatment', ownerOf(p)),
  histories: canOn(ability, 'read', 'patient_histories', ownerOf(p)),
  documents: canOn(ability, 'read', 'patient_documents', ownerOf(p)),
});

/**
 * The patient's file as `ability` may read it (PATIENT_FIELDS): billing, treatment and each count only
 * with their own permissions, on this patient (members limited to their assigned patients).
 */
export function presentPatient(ability: AppAbility, p: PatientRow, names: Map<string, string>, extras: FileExtras): Patient {
  const full: Required<Patient> = {
    ...fullSummary(p, names),
    birthdate: p.birthdate,
    gender: p.gender,
    billingInfo: {
      fullName: p.billingFullName,
      taxId: p.billingTaxId,
      line1: p.billingLine1,
      line2: p.billingLine2,
      city: p.billingCity,
      zipCode: p.billingZipCode,
      country: p.billingCountry,
    },
    treatment: {
      status: p.treatmentStatus,
      startDate: p.treatmentStartDate,
      endDate: p.treatmentEndDate,
      endingReason: p.treatmentEndingReason,
      motive: p.treatmentMotive,
      sessionType: p.treatmentSessionType,
      medication: extras.medication,
      referralSource: p.treatmentReferralSource,
      insuranceCompany: p.insuranceCompany,
      insurancePolicy: p.insurancePolicy,
      sessionPrice: p.sessionPrice,
      sessionModality: p.sessionModality,
    },
    counts: extras.counts,
    lastActivityAt: p.lastActivityAt.toISOString(),
    blockedAt: p.blockedAt?.toISOString() ?? null,
  };
  return readableView(ability, PATIENT_FIELDS, ownerOf(p), full);
}

/** An entry of the clinical access log, with the reader's name (or that they are gone). */
export function presentAccess(
  r: { id: string; userId: string; patientId: string; patientName: string; action: string; createdAt: Date },
  names: Map<string, string>,
) {
  return {
    id: r.id,
    user: { id: r.userId, name: names.get(r.userId) ?? 'Usuario eliminado' },
    patient: { id: r.patientId, name: r.patientName },
    action: r.action,
    createdAt: r.createdAt.toISOString(),
  };
}
