import type { Cipher } from '../../platform/crypto/cipher';
import type { Db } from '../../platform/db/database';
import {
  clearColumnExists,
  clearMedication,
  dropClearColumn,
  lockPatientsTable,
  writeSealedMedication,
} from './patient-medication.queries';

/**
 * The treatment's free-text clinical field (medication) is kept encrypted with the workspace's key,
 * like the history, in `patients.treatment_medication_enc`. The other treatment fields are closed
 * vocabularies (motive, status, session type, referral source…) that stay filterable behind the
 * Tratamiento permission (PATIENT_FIELDS).
 *
 * Encrypt before opening a transaction: a workspace's first key is created on the pool.
 */
/** Associated data: the value belongs to this patient's medication and nowhere else. */
export const medicationAad = (patientId: string) => `patient:${patientId}:medication`;

export async function sealMedication(
  cipher: Cipher,
  workspaceId: string,
  patientId: string,
  text: string | null | undefined,
): Promise<string | null | undefined> {
  if (text === undefined || text === null) return text;
  return cipher.encryptText(workspaceId, text, medicationAad(patientId));
}

export async function openMedication(
  cipher: Cipher,
  workspaceId: string,
  patientId: string,
  stored: string | null,
): Promise<string | null> {
  return stored === null ? null : cipher.decryptText(workspaceId, stored, medicationAad(patientId));
}

/**
 * Start-up, once per database: medication written in clear by earlier versions is encrypted into
 * `treatment_medication_enc` and the clear column is dropped, in one transaction under a table lock
 * (SQL cannot encrypt with the application's keys, so this is not a migration). A database where the
 * column is gone has nothing to do. Values are encrypted before the transaction (keys may be created
 * on the pool) and checked again under the lock; a change in between makes it start over.
 * Returns how many values were encrypted.
 */
export async function encryptClearMedication(db: Db, cipher: Cipher): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (!(await clearColumnExists(db))) return 0;
    const clear = await clearMedication(db);
    const sealed = new Map<string, { text: string; enc: string }>();
    for (const r of clear)
      sealed.set(r.id, {
        text: r.treatment_medication,
        enc: (await sealMedication(cipher, r.workspace_id, r.id, r.treatment_medication))!,
      });
    const done = await db.transaction(async (tx) => {
      await lockPatientsTable(tx);
      // Another process may have finished while this one waited for the lock.
      if (!(await clearColumnExists(tx))) return 0;
      const now = await clearMedication(tx);
      if (now.length !== sealed.size || now.some((r) => sealed.get(r.id)?.text !== r.treatment_medication)) return undefined;
      await writeSealedMedication(
        tx,
        [...sealed].map(([id, v]) => [id, v.enc]),
      );
      await dropClearColumn(tx);
      return sealed.size;
    });
    if (done !== undefined) return done;
  }
  throw new Error('Could not encrypt the stored medication: patients kept changing during start-up');
}
