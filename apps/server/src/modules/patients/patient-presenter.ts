import { canOn, type AppAbility, type Patient, type PatientSummary } from '@divan/core';
import type { PatientRow } from './patients.tables';

/** A row of the list: what every reader of patient files sees. */
export function summary(p: PatientRow, names: Map<string, string>): PatientSummary {
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

/**
 * The patient's file as `ability` may read it: billing, treatment and counts only with their own
 * permissions (on this patient, for members limited to their assigned patients).
 */
export function presentPatient(ability: AppAbility, p: PatientRow, names: Map<string, string>, counts: { historyEntries: number; documents: number }): Patient {
  const owner = { ownerId: p.assignedTherapistId };
  const { historyEntries, documents } = counts;
    return {
      ...summary(p, names),
      birthdate: p.birthdate,
      gender: p.gender,
      billingInfo: canOn(ability, 'read', 'patient_billing', owner)
        ? { fullName: p.billingFullName, taxId: p.billingTaxId, line1: p.billingLine1, line2: p.billingLine2, city: p.billingCity, zipCode: p.billingZipCode, country: p.billingCountry }
        : null,
      treatment: canOn(ability, 'read', 'patient_treatment', owner)
        ? {
            status: p.treatmentStatus,
            startDate: p.treatmentStartDate,
            endDate: p.treatmentEndDate,
            endingReason: p.treatmentEndingReason,
            motive: p.treatmentMotive,
            sessionType: p.treatmentSessionType,
            medication: p.treatmentMedication,
            referralSource: p.treatmentReferralSource,
            insuranceCompany: p.insuranceCompany,
            insurancePolicy: p.insurancePolicy,
            sessionPrice: p.sessionPrice,
            sessionModality: p.sessionModality,
          }
        : null,
      counts: { historyEntries: canOn(ability, 'read', 'patient_histories', owner) ? historyEntries : 0, documents: canOn(ability, 'read', 'patient_documents', owner) ? documents : 0 },
      lastActivityAt: p.lastActivityAt.toISOString(),
      blockedAt: p.blockedAt?.toISOString() ?? null,
    };
}
