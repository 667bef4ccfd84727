import { canOn, taxIdKind, type Action, type Subject } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Caller } from '../../platform/auth/caller';
import { patientsRepository } from './patients.repository';
import { fullName } from './patient-presenter';
import type { PatientRow } from './patients.tables';

/**
 * What the patients service answers other modules about patients they already know by id: a row judged
 * for the caller, names, profiles, a contact. The service keeps the methods; the rules are here.
 */

export type PatientProfile = { name: string; birthdate: string | null; status: PatientRow['treatmentStatus']; therapistId: string | null };

/** A patient read in the member's scope (or not found there), judged for `action` on `subject`. */
export const judged = (c: Caller, p: PatientRow | undefined, action: Exclude<Action, 'manage'>, subject: Subject): PatientRow | AppError =>
  !p
    ? new AppError('patient_not_found')
    : canOn(c.member.ability, action, subject, { ownerId: p.assignedTherapistId })
      ? p
      : new AppError('access_denied');

/** Full names of the workspace's patients among `ids` (what other records show them by, e.g. sessions). */
export async function namesOf(db: DbOrTx, workspaceId: string, ids: string[]): Promise<Map<string, string>> {
  const rows = await patientsRepository(db).namesIn(workspaceId, [...new Set(ids)]);
  return new Map(rows.map((p) => [p.id, fullName(p)]));
}

/** Name and birthdate of the workspace's patients among `ids` (a consent decides who signs by age). */
export async function profilesOf(db: DbOrTx, workspaceId: string, ids: string[]): Promise<Map<string, PatientProfile>> {
  const rows = await patientsRepository(db).namesIn(workspaceId, [...new Set(ids)]);
  return new Map(rows.map((p) => [p.id, { name: fullName(p), birthdate: p.birthdate, status: p.status, therapistId: p.therapistId }]));
}

/**
 * What the patient's own signing page starts its fields with (consents): phone, ID number (a DNI or
 * NIE of the billing data, not a company's CIF) and postal address as the file holds them; null once erased.
 */
export async function signingDataOf(
  db: DbOrTx,
  workspaceId: string,
  patientId: string,
): Promise<{ phone: string | null; idNumber: string | null; address: string | null } | null> {
  const p = await patientsRepository(db).find(workspaceId, patientId, { kind: 'all' });
  if (!p) return null;
  const id = p.billingTaxId && taxIdKind(p.billingTaxId) !== 'cif' ? p.billingTaxId : null;
  const place = [p.billingZipCode, p.billingCity].filter(Boolean).join(' ');
  const address = [p.billingLine1, p.billingLine2, place].filter(Boolean).join(', ');
  return { phone: p.phone, idNumber: id, address: address || null };
}

/** How a job writes to a patient (a session's reminder): first name and email; null once blocked or erased. */
export async function contactOf(
  db: DbOrTx,
  workspaceId: string,
  patientId: string,
): Promise<{ firstName: string; email: string | null } | null> {
  const p = await patientsRepository(db).find(workspaceId, patientId, { kind: 'all' });
  return p ? { firstName: p.firstName, email: p.email } : null;
}
