import { and, asc, count, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { idIn } from '../../platform/db/id-in';
import { historyDrafts, historyEntries, historyRevisions } from './patients.tables';

export type HistoryRow = typeof historyEntries.$inferSelect;
export type DraftRow = typeof historyDrafts.$inferSelect;

/** Entries not deleted: a tombstone is invisible to every list, count and read. */
const live = isNull(historyEntries.deletedAt);

export function historyRepository(db: DbOrTx) {
  return {
    async list(patientId: string): Promise<HistoryRow[]> {
      return db
        .select()
        .from(historyEntries)
        .where(and(eq(historyEntries.patientId, patientId), live))
        .orderBy(desc(historyEntries.entryDate), desc(historyEntries.createdAt));
    },
    async find(patientId: string, id: string): Promise<HistoryRow | undefined> {
      const [row] = await db
        .select()
        .from(historyEntries)
        .where(and(eq(historyEntries.patientId, patientId), eq(historyEntries.id, id), live));
      return row;
    },
    /** The live notes of these sessions. */
    async notesOf(sessionIds: string[]) {
      return db
        .select({
          id: historyEntries.id,
          sessionId: historyEntries.sessionId,
          workspaceId: historyEntries.workspaceId,
          authorId: historyEntries.authorId,
          private: historyEntries.private,
        })
        .from(historyEntries)
        .where(and(idIn(historyEntries.sessionId, sessionIds), live));
    },
    async insert(values: typeof historyEntries.$inferInsert): Promise<HistoryRow> {
      const [row] = await db.insert(historyEntries).values(values).returning();
      return row!;
    },
    /** Undefined when the entry was deleted meanwhile. */
    async update(id: string, values: Partial<typeof historyEntries.$inferInsert>): Promise<HistoryRow | undefined> {
      const [row] = await db
        .update(historyEntries)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(historyEntries.id, id), live))
        .returning();
      return row;
    },
    /** Tombstones the entry (its revisions stay); false when it was already deleted (a concurrent delete). */
    async markDeleted(id: string, by: string): Promise<boolean> {
      const rows = await db
        .update(historyEntries)
        .set({ deletedAt: new Date(), deletedBy: by })
        .where(and(eq(historyEntries.id, id), live))
        .returning({ id: historyEntries.id });
      return rows.length === 1;
    },
    async addRevision(values: typeof historyRevisions.$inferInsert) {
      await db.insert(historyRevisions).values(values);
    },
    async revisions(entryId: string) {
      return db.select().from(historyRevisions).where(eq(historyRevisions.entryId, entryId)).orderBy(asc(historyRevisions.createdAt));
    },
    async revisionCounts(entryIds: string[]): Promise<Map<string, number>> {
      if (!entryIds.length) return new Map();
      const rows = await db
        .select({ entryId: historyRevisions.entryId, n: count() })
        .from(historyRevisions)
        .where(inArray(historyRevisions.entryId, entryIds))
        .groupBy(historyRevisions.entryId);
      return new Map(rows.map((r) => [r.entryId, r.n]));
    },

    /** The author's drafts for a patient whose entry (if any) still exists. */
    async drafts(patientId: string, authorId: string): Promise<DraftRow[]> {
      const rows = await db
        .select({ draft: historyDrafts })
        .from(historyDrafts)
        .leftJoin(historyEntries, eq(historyEntries.id, historyDrafts.entryId))
        .where(
          and(
            eq(historyDrafts.patientId, patientId),
            eq(historyDrafts.authorId, authorId),
            sql`(${historyDrafts.entryId} is null or ${historyEntries.deletedAt} is null)`,
          ),
        )
        .orderBy(desc(historyDrafts.updatedAt));
      return rows.map((r) => r.draft);
    },
    /** One draft per author, patient and entry: the latest write wins. */
    async upsertDraft(values: {
      workspaceId: string;
      patientId: string;
      authorId: string;
      entryId: string | null;
      contentEnc: string;
    }): Promise<DraftRow> {
      const [row] = await db
        .insert(historyDrafts)
        .values({ ...values, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: [historyDrafts.workspaceId, historyDrafts.patientId, historyDrafts.authorId, historyDrafts.entryId],
          set: { contentEnc: values.contentEnc, updatedAt: new Date() },
        })
        .returning();
      return row!;
    },
    async deleteDraft(patientId: string, authorId: string, entryId: string | null): Promise<number> {
      const rows = await db
        .delete(historyDrafts)
        .where(
          and(
            eq(historyDrafts.patientId, patientId),
            eq(historyDrafts.authorId, authorId),
            entryId ? eq(historyDrafts.entryId, entryId) : isNull(historyDrafts.entryId),
          ),
        )
        .returning({ id: historyDrafts.id });
      return rows.length;
    },
    /** Everyone's drafts of an entry that was just deleted. */
    async deleteDraftsOf(entryId: string) {
      await db.delete(historyDrafts).where(eq(historyDrafts.entryId, entryId));
    },
    /** Drafts untouched since `before`, at most `limit` a call. */
    async deleteStaleDrafts(before: Date, limit: number): Promise<number> {
      const stale = db.select({ id: historyDrafts.id }).from(historyDrafts).where(lt(historyDrafts.updatedAt, before)).limit(limit);
      const rows = await db.delete(historyDrafts).where(inArray(historyDrafts.id, stale)).returning({ id: historyDrafts.id });
      return rows.length;
    },
  };
}
