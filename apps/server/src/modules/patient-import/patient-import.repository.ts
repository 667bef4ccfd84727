import { and, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import { IMPORT_TTL_MS, type ImportProgress } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { patientImports, type PatientImportRow } from './patient-import.tables';

/** Uploads waiting for their mapping, and imports with their progress (`patient_imports`). */
export function patientImportRepository(db: DbOrTx) {
  return {
    /** The upload waiting for its mapping of this workspace and user (one at a time: a new upload replaces it). */
    async deleteWaiting(workspaceId: string, userId: string): Promise<void> {
      await db
        .delete(patientImports)
        .where(and(eq(patientImports.workspaceId, workspaceId), eq(patientImports.userId, userId), isNull(patientImports.progress)));
    },

    /** Expired uploads and imports, unless an import is still running (it has rows and a recent progress). */
    async deleteExpired(): Promise<void> {
      await db
        .delete(patientImports)
        .where(
          and(
            lt(patientImports.expiresAt, new Date()),
            or(
              isNull(patientImports.progress),
              isNull(patientImports.rowsEnc),
              lt(patientImports.updatedAt, new Date(Date.now() - IMPORT_TTL_MS)),
            ),
          ),
        );
    },

    async insert(values: typeof patientImports.$inferInsert): Promise<{ id: string } | undefined> {
      const [row] = await db.insert(patientImports).values(values).returning({ id: patientImports.id });
      return row;
    },

    /** Claimed in one statement: two commits of the same upload (two tabs, two processes) start one import. */
    async claim(id: string, progress: ImportProgress, mapping: PatientImportRow['mapping']): Promise<boolean> {
      const claimed = await db
        .update(patientImports)
        .set({ progress, mapping, updatedAt: new Date() })
        .where(and(eq(patientImports.id, id), isNull(patientImports.progress)))
        .returning({ id: patientImports.id });
      return claimed.length > 0;
    },

    async byId(id: string): Promise<PatientImportRow | undefined> {
      const [row] = await db.select().from(patientImports).where(eq(patientImports.id, id));
      return row;
    },

    /** The import of this workspace and user; another's does not exist for them. */
    async find(workspaceId: string, userId: string, id: string): Promise<PatientImportRow | undefined> {
      const [row] = await db
        .select()
        .from(patientImports)
        .where(and(eq(patientImports.id, id), eq(patientImports.workspaceId, workspaceId), eq(patientImports.userId, userId)));
      return row;
    },

    /** The outcome: the rows are done with, the outcome stays readable for a while. */
    async saveOutcome(id: string, progress: ImportProgress): Promise<void> {
      await db
        .update(patientImports)
        .set({ progress, rowsEnc: null, updatedAt: new Date(), expiresAt: new Date(Date.now() + IMPORT_TTL_MS) })
        .where(eq(patientImports.id, id));
    },

    async saveProgress(id: string, progress: ImportProgress): Promise<void> {
      await db.update(patientImports).set({ progress, updatedAt: new Date() }).where(eq(patientImports.id, id));
    },

    /** Uploads nobody imported, and finished imports, past their time: a batch of 500 at most; how many went. */
    async deletePastTime(): Promise<number> {
      const batch = db
        .select({ id: patientImports.id })
        .from(patientImports)
        .where(and(lt(patientImports.expiresAt, new Date()), or(isNull(patientImports.progress), isNull(patientImports.rowsEnc))))
        .limit(500);
      return (await db.delete(patientImports).where(inArray(patientImports.id, batch)).returning({ id: patientImports.id })).length;
    },
  };
}
