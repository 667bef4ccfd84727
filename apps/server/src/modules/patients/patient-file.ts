import type { Patient } from '@divan/core';
import type { Cipher } from '../../platform/crypto/cipher';
import type { DbOrTx } from '../../platform/db/database';
import type { UsersService } from '../users/users.service';
import type { Caller } from '../../platform/auth/caller';
import { patientsRepository } from './patients.repository';
import type { PatientRow } from './patients.tables';
import { openMedication } from './patient-medication';
import { fullName, presentPatient, wants } from './patient-presenter';

/** The full names of the therapists among `ids` (a file shows its assigned therapist by name). */
export async function therapistNamesOf(users: UsersService, ids: (string | null)[]): Promise<Map<string, string>> {
  const found = await users.findManyByIds(ids.filter((x): x is string => !!x));
  return new Map(found.map((u) => [u.id, fullName(u)]));
}

/** The patient's name and the assigned therapist's, as the patient's own account shows a connected file. */
export async function connectCardOf(db: DbOrTx, users: UsersService, workspaceId: string, patientId: string) {
  const p = await patientsRepository(db).find(workspaceId, patientId, { kind: 'all' });
  if (!p) return null;
  const names = await therapistNamesOf(users, [p.assignedTherapistId]);
  return { firstName: p.firstName, patientName: fullName(p), therapistNames: [...names.values()] };
}

/** The file as the caller reads it: the medication decrypted and each count made only for those who read it. */
export async function presentFile(
  d: { db: DbOrTx; cipher: Cipher; users: UsersService; documentCount: (patientId: string) => Promise<number> },
  c: Caller,
  p: PatientRow,
): Promise<Patient> {
  const want = wants(c.member.ability, p);
  const [names, historyEntries, documents, medication] = await Promise.all([
    therapistNamesOf(d.users, [p.assignedTherapistId]),
    want.histories ? patientsRepository(d.db).historyCount(p.id, c.userId) : undefined,
    want.documents ? d.documentCount(p.id) : undefined,
    want.treatment ? openMedication(d.cipher, p.workspaceId, p.id, p.treatmentMedicationEnc) : null,
  ]);
  return presentPatient(c.member.ability, p, names, { counts: { historyEntries, documents }, medication });
}
