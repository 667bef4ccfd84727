import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { historyEntries, historyRevisions } from './patients.tables';

export type HistoryRow = typeof historyEntries.$inferSelect;

export function historyRepository(db: DbOrTx) {
  return {
    async list(patientId: string): Promise<HistoryRow[]> {
      return db.select().from(historyEntries).where(eq(historyEntries.patientId, patientId)).orderBy(desc(historyEntries.entryDate), desc(historyEntries.createdAt));
    },
    async find(patientId: string, id: string): Promise<HistoryRow | undefined> {
      const [row] = await db.select().from(historyEntries).where(and(eq(historyEntries.patientId, patientId), eq(historyEntries.id, id)));
      return row;
    },
    async insert(values: typeof historyEntries.$inferInsert): Promise<HistoryRow> {
      const [row] = await db.insert(historyEntries).values(values).returning();
      return row!;
    },
    async update(id: string, values: Partial<typeof historyEntries.$inferInsert>): Promise<HistoryRow> {
      const [row] = await db.update(historyEntries).set({ ...values, updatedAt: new Date() }).where(eq(historyEntries.id, id)).returning();
      return row!;
    },
    async delete(id: string) {
      await db.delete(historyEntries).where(eq(historyEntries.id, id));
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
  };
}
