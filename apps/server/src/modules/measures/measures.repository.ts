import { and, asc, desc, eq, inArray, isNull, lt, lte, sql, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { measureAdministrations, type AdministrationRow } from './measures.tables';

const t = measureAdministrations;

export function measuresRepository(db: DbOrTx) {
  return {
    async insert(values: typeof t.$inferInsert): Promise<AdministrationRow> {
      const [row] = await db.insert(t).values(values).returning();
      return row!;
    },
    /** A patient's administrations, newest first. */
    async ofPatient(patientId: string): Promise<AdministrationRow[]> {
      return db.select().from(t).where(eq(t.patientId, patientId)).orderBy(desc(t.sentAt), desc(t.createdAt));
    },
    /** A patient's completed administrations, oldest first (the trend). */
    async completedOf(patientId: string): Promise<AdministrationRow[]> {
      return db
        .select()
        .from(t)
        .where(and(eq(t.patientId, patientId), eq(t.status, 'completed')))
        .orderBy(asc(t.completedAt), asc(t.createdAt));
    },
    async find(patientId: string, id: string): Promise<AdministrationRow | undefined> {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.patientId, patientId), eq(t.id, id)));
      return row;
    },
    async byTokenHash(hash: string): Promise<AdministrationRow | undefined> {
      const [row] = await db.select().from(t).where(eq(t.tokenHash, hash));
      return row;
    },
    async lock(id: string): Promise<AdministrationRow | undefined> {
      const [row] = await db.select().from(t).where(eq(t.id, id)).for('update');
      return row;
    },
    async update(id: string, values: Partial<typeof t.$inferInsert>): Promise<AdministrationRow> {
      const [row] = await db
        .update(t)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(t.id, id))
        .returning();
      return row!;
    },
    /** Risk flags not yet reviewed in a workspace, newest first; `patientIds` (a subquery) narrows to a scope. */
    async unreviewedFlags(workspaceId: string, patientIds: SQLWrapper | null, limit: number): Promise<AdministrationRow[]> {
      return db
        .select()
        .from(t)
        .where(
          and(
            eq(t.workspaceId, workspaceId),
            eq(t.riskFlagged, true),
            isNull(t.riskReviewedAt),
            ...(patientIds ? [inArray(t.patientId, sql`(${patientIds})`)] : []),
          ),
        )
        .orderBy(desc(t.completedAt))
        .limit(limit);
    },
    /** Links sent before `before`, still unanswered and not expired at `now`, not yet reminded. */
    async reminderCandidates(before: Date, now: Date, limit: number): Promise<AdministrationRow[]> {
      return db
        .select()
        .from(t)
        .where(and(eq(t.status, 'sent'), lte(t.sentAt, before), isNull(t.remindedAt), sql`${t.expiresAt} > ${now}`))
        .orderBy(asc(t.sentAt))
        .limit(limit);
    },
    /** Links past their expiry become `expired`, `limit` a call. */
    async expire(now: Date, limit: number): Promise<number> {
      const due = db
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.status, 'sent'), lt(t.expiresAt, now)))
        .limit(limit);
      const rows = await db
        .update(t)
        .set({ status: 'expired', updatedAt: now })
        .where(sql`${t.id} in (${due})`)
        .returning({ id: t.id });
      return rows.length;
    },
  };
}
