import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { documentTagLinks, documentTags, patientDocuments, type DocumentRow } from './documents.tables';

export type NewDocument = typeof patientDocuments.$inferInsert;
export type DocumentWithTags = DocumentRow & { tags: string[] };

export const tagKey = (name: string) => name.toLowerCase();
/** Documents not deleted: a tombstone is invisible to every list, count, read and download. */
const live = isNull(patientDocuments.deletedAt);

export function documentsRepository(db: DbOrTx) {
  return {
    async insert(values: NewDocument): Promise<DocumentRow> {
      const [row] = await db.insert(patientDocuments).values(values).returning();
      return row!;
    },
    async find(patientId: string, id: string): Promise<DocumentRow | undefined> {
      const [row] = await db
        .select()
        .from(patientDocuments)
        .where(and(eq(patientDocuments.patientId, patientId), eq(patientDocuments.id, id), live));
      return row;
    },
    async list(patientId: string): Promise<DocumentRow[]> {
      return db
        .select()
        .from(patientDocuments)
        .where(and(eq(patientDocuments.patientId, patientId), live))
        .orderBy(desc(patientDocuments.createdAt), desc(patientDocuments.id));
    },
    async update(id: string, values: Partial<NewDocument>): Promise<DocumentRow> {
      const [row] = await db
        .update(patientDocuments)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(patientDocuments.id, id))
        .returning();
      return row!;
    },
    /** Tombstones the document (row and bytes stay); false when it was already deleted (a concurrent delete). */
    async markDeleted(id: string, by: string): Promise<boolean> {
      const rows = await db
        .update(patientDocuments)
        .set({ deletedAt: new Date(), deletedBy: by })
        .where(and(eq(patientDocuments.id, id), live))
        .returning({ id: patientDocuments.id });
      return rows.length === 1;
    },
    /** Rows removed with the patient's erasure, tombstones included; their storage keys, so the bytes go too. */
    async deleteForPatient(patientId: string): Promise<string[]> {
      const rows = await db
        .delete(patientDocuments)
        .where(eq(patientDocuments.patientId, patientId))
        .returning({ storageKey: patientDocuments.storageKey });
      return rows.map((r) => r.storageKey);
    },
    async count(patientId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(patientDocuments)
        .where(and(eq(patientDocuments.patientId, patientId), live));
      return row?.n ?? 0;
    },
    async tagsOf(documentIds: string[]): Promise<Map<string, string[]>> {
      const out = new Map<string, string[]>();
      if (!documentIds.length) return out;
      const rows = await db
        .select({ documentId: documentTagLinks.documentId, name: documentTags.name })
        .from(documentTagLinks)
        .innerJoin(documentTags, eq(documentTags.id, documentTagLinks.tagId))
        .where(inArray(documentTagLinks.documentId, documentIds))
        .orderBy(asc(documentTags.nameKey));
      for (const r of rows) out.set(r.documentId, [...(out.get(r.documentId) ?? []), r.name]);
      return out;
    },
    /**
     * The workspace's tags with these names, created when missing. An existing tag keeps its
     * spelling ("informe" links to "Informe"); concurrent creators meet on the unique index.
     */
    async ensureTags(workspaceId: string, names: string[]): Promise<{ id: string; name: string }[]> {
      if (!names.length) return [];
      await db
        .insert(documentTags)
        .values(names.map((name) => ({ workspaceId, name, nameKey: tagKey(name) })))
        .onConflictDoNothing();
      return db
        .select({ id: documentTags.id, name: documentTags.name })
        .from(documentTags)
        .where(and(eq(documentTags.workspaceId, workspaceId), inArray(documentTags.nameKey, names.map(tagKey))));
    },
    async setTags(workspaceId: string, documentId: string, tagIds: string[]) {
      await db
        .delete(documentTagLinks)
        .where(and(eq(documentTagLinks.workspaceId, workspaceId), eq(documentTagLinks.documentId, documentId)));
      if (tagIds.length) await db.insert(documentTagLinks).values(tagIds.map((tagId) => ({ workspaceId, documentId, tagId })));
    },
    /** For autocomplete: names containing the text, ignoring case. */
    async listTags(workspaceId: string, q: string | undefined, limit: number) {
      const term = q ? `%${tagKey(q).replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
      return db
        .select({ id: documentTags.id, name: documentTags.name })
        .from(documentTags)
        .where(and(eq(documentTags.workspaceId, workspaceId), term ? sql`${documentTags.nameKey} like ${term}` : undefined))
        .orderBy(asc(documentTags.nameKey))
        .limit(limit);
    },
  };
}
