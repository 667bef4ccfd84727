import { and, asc, count, eq, gte, inArray, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/database';
import { sessionPacks, sessionPackUses, type SessionPackRow } from './session-packs.tables';

export function sessionPacksRepository(db: DbOrTx) {
  return {
    /** A patient's packs, oldest first. */
    ofPatient(workspaceId: string, patientId: string): Promise<SessionPackRow[]> {
      return db
        .select()
        .from(sessionPacks)
        .where(and(eq(sessionPacks.workspaceId, workspaceId), eq(sessionPacks.patientId, patientId)))
        .orderBy(asc(sessionPacks.createdAt));
    },
    async find(workspaceId: string, patientId: string, id: string): Promise<SessionPackRow | undefined> {
      const [pack] = await db
        .select()
        .from(sessionPacks)
        .where(and(eq(sessionPacks.id, id), eq(sessionPacks.patientId, patientId), eq(sessionPacks.workspaceId, workspaceId)));
      return pack;
    },
    async insert(values: typeof sessionPacks.$inferInsert): Promise<SessionPackRow> {
      const [row] = await db.insert(sessionPacks).values(values).returning();
      return row!;
    },
    async setRefunded(id: string, refundedSessions: number, refundInvoiceId: string | null): Promise<SessionPackRow> {
      const [row] = await db.update(sessionPacks).set({ refundedSessions, refundInvoiceId }).where(eq(sessionPacks.id, id)).returning();
      return row!;
    },
    /** The packs of a patient with a therapist that may pay a session of `day` (nothing refunded, not expired then), oldest first, locked. */
    usableOn(s: { workspaceId: string; patientId: string; therapistId: string }, day: string): Promise<SessionPackRow[]> {
      return db
        .select()
        .from(sessionPacks)
        .where(
          and(
            eq(sessionPacks.workspaceId, s.workspaceId),
            eq(sessionPacks.patientId, s.patientId),
            eq(sessionPacks.therapistId, s.therapistId),
            eq(sessionPacks.refundedSessions, 0),
            or(isNull(sessionPacks.expiresOn), gte(sessionPacks.expiresOn, day)),
          ),
        )
        .orderBy(asc(sessionPacks.createdAt))
        .for('update');
    },
    /** Whether a pack paid the session already. */
    async usedBy(sessionId: string): Promise<boolean> {
      const [already] = await db.select().from(sessionPackUses).where(eq(sessionPackUses.sessionId, sessionId));
      return !!already;
    },
    async use(workspaceId: string, sessionId: string, packId: string): Promise<void> {
      await db.insert(sessionPackUses).values({ workspaceId, sessionId, packId });
    },
    /** The session's use given back: whether it had one. */
    async release(sessionId: string): Promise<boolean> {
      const gone = await db.delete(sessionPackUses).where(eq(sessionPackUses.sessionId, sessionId)).returning();
      return gone.length > 0;
    },
    async usedOf(packId: string): Promise<number> {
      const [r] = await db.select({ n: count() }).from(sessionPackUses).where(eq(sessionPackUses.packId, packId));
      return Number(r?.n ?? 0);
    },
    /** Sessions used of each pack. */
    async usedOfMany(packIds: string[]): Promise<Map<string, number>> {
      const uses = await db
        .select({ packId: sessionPackUses.packId, n: count() })
        .from(sessionPackUses)
        .where(inArray(sessionPackUses.packId, packIds))
        .groupBy(sessionPackUses.packId);
      return new Map(uses.map((u) => [u.packId, Number(u.n)]));
    },
  };
}
