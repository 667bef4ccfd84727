import { and, asc, count, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/database';
import { passkeys, webauthnChallenges } from './passkeys.tables';

export type PasskeyRow = typeof passkeys.$inferSelect;
export type WebauthnPurpose = (typeof webauthnChallenges.$inferInsert)['purpose'];

/** The only file that touches the passkeys tables. */
export function passkeysRepository(db: DbOrTx) {
  return {
    listOf(userId: string): Promise<PasskeyRow[]> {
      return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));
    },
    async countOf(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
      return row?.n ?? 0;
    },
    /** Of these users, those with at least one passkey. */
    async usersWith(userIds: string[]): Promise<Set<string>> {
      if (!userIds.length) return new Set();
      const rows = await db.selectDistinct({ id: passkeys.userId }).from(passkeys).where(inArray(passkeys.userId, userIds));
      return new Set(rows.map((r) => r.id));
    },
    async findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
      const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
      return row;
    },
    async findOwn(userId: string, id: string): Promise<PasskeyRow | undefined> {
      const [row] = await db
        .select()
        .from(passkeys)
        .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)));
      return row;
    },
    /** Undefined when the credential is already registered (to anyone). */
    async insert(values: typeof passkeys.$inferInsert): Promise<PasskeyRow | undefined> {
      const [row] = await db.insert(passkeys).values(values).onConflictDoNothing().returning();
      return row;
    },
    async rename(userId: string, id: string, name: string): Promise<PasskeyRow | undefined> {
      const [row] = await db
        .update(passkeys)
        .set({ name })
        .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
        .returning();
      return row;
    },
    async remove(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(passkeys)
        .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
        .returning({ id: passkeys.id });
      return rows.length === 1;
    },
    /**
     * A use: the new signature counter stored only while it moves forward (or both stay 0, an authenticator without a
     * counter). False: another request got there first with this or a later counter.
     */
    async recordUse(id: string, next: number): Promise<boolean> {
      const rows = await db
        .update(passkeys)
        .set({ counter: next, lastUsedAt: new Date() })
        .where(and(eq(passkeys.id, id), next === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, next)))
        .returning({ id: passkeys.id });
      return rows.length === 1;
    },

    async insertChallenge(values: { challengeHash: string; purpose: WebauthnPurpose; userId: string | null; expiresAt: Date }) {
      await db.insert(webauthnChallenges).values(values);
    },
    /** Uses the challenge once: undefined when unknown, of another purpose, used or expired. */
    async useChallenge(challengeHash: string, purpose: WebauthnPurpose) {
      const [row] = await db
        .update(webauthnChallenges)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(webauthnChallenges.challengeHash, challengeHash),
            eq(webauthnChallenges.purpose, purpose),
            isNull(webauthnChallenges.usedAt),
            gt(webauthnChallenges.expiresAt, new Date()),
          ),
        )
        .returning();
      return row;
    },
    /** Expired or used challenges, a batch at a time (the hourly sweep). */
    async deleteStale(limit: number): Promise<number> {
      const stale = db
        .select({ id: webauthnChallenges.id })
        .from(webauthnChallenges)
        .where(or(lt(webauthnChallenges.expiresAt, new Date()), sql`${webauthnChallenges.usedAt} IS NOT NULL`))
        .limit(limit);
      const rows = await db
        .delete(webauthnChallenges)
        .where(inArray(webauthnChallenges.id, stale))
        .returning({ id: webauthnChallenges.id });
      return rows.length;
    },
  };
}
