import { and, count, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/database';
import { deviceSessions } from '../auth.tables';
import { recoveryCodes, secondFactorPolicies, totpAuthenticators } from './second-factor.tables';

export type TotpRow = typeof totpAuthenticators.$inferSelect;

/** The only file that touches the second-factor tables (and a session's `second_factor_at`). */
export function secondFactorRepository(db: DbOrTx) {
  return {
    async findTotp(userId: string): Promise<TotpRow | undefined> {
      const [row] = await db.select().from(totpAuthenticators).where(eq(totpAuthenticators.userId, userId));
      return row;
    },
    async hasEnabledTotp(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ userId: totpAuthenticators.userId })
        .from(totpAuthenticators)
        .where(and(eq(totpAuthenticators.userId, userId), isNotNull(totpAuthenticators.enabledAt)));
      return !!row;
    },
    /** A new pending secret replaces a pending one; never an enabled one (undefined then). */
    async putPendingTotp(userId: string, secretEnc: string): Promise<boolean> {
      const rows = await db
        .insert(totpAuthenticators)
        .values({ userId, secretEnc })
        .onConflictDoUpdate({
          target: totpAuthenticators.userId,
          set: { secretEnc, createdAt: new Date(), lastUsedStep: null },
          setWhere: isNull(totpAuthenticators.enabledAt),
        })
        .returning({ userId: totpAuthenticators.userId });
      return rows.length === 1;
    },
    /**
     * Records `step` as the last accepted one, only when it is newer than the stored one: of two requests with one code,
     * only one is accepted. `enable` also enables a pending authenticator (its confirming code).
     */
    async useStep(userId: string, step: number, enable = false): Promise<boolean> {
      const rows = await db
        .update(totpAuthenticators)
        .set({ lastUsedStep: step, ...(enable ? { enabledAt: new Date() } : {}) })
        .where(
          and(
            eq(totpAuthenticators.userId, userId),
            enable ? isNull(totpAuthenticators.enabledAt) : isNotNull(totpAuthenticators.enabledAt),
            or(isNull(totpAuthenticators.lastUsedStep), lt(totpAuthenticators.lastUsedStep, step)),
          ),
        )
        .returning({ userId: totpAuthenticators.userId });
      return rows.length === 1;
    },
    async deleteTotp(userId: string) {
      await db.delete(totpAuthenticators).where(eq(totpAuthenticators.userId, userId));
      await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    },
    /** Voids the previous set and stores the new one's hashes. */
    async replaceRecoveryCodes(userId: string, hashes: string[]) {
      await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
    },
    /** Uses the code once: false when unknown, another user's, or already used. */
    async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
      const rows = await db
        .update(recoveryCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
        .returning({ id: recoveryCodes.id });
      return rows.length === 1;
    },
    async recoveryCodesLeft(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return row?.n ?? 0;
    },

    async findPolicy(workspaceId: string) {
      const [row] = await db.select().from(secondFactorPolicies).where(eq(secondFactorPolicies.workspaceId, workspaceId));
      return row;
    },
    /** True when the row was created (the policy was off). */
    async enablePolicy(workspaceId: string, userId: string): Promise<boolean> {
      const rows = await db
        .insert(secondFactorPolicies)
        .values({ workspaceId, enabledBy: userId })
        .onConflictDoNothing()
        .returning({ id: secondFactorPolicies.workspaceId });
      return rows.length === 1;
    },
    /** True when there was a row (the policy was on). */
    async disablePolicy(workspaceId: string): Promise<boolean> {
      const rows = await db
        .delete(secondFactorPolicies)
        .where(eq(secondFactorPolicies.workspaceId, workspaceId))
        .returning({ id: secondFactorPolicies.workspaceId });
      return rows.length === 1;
    },
    /** Which of these workspaces require a second factor. */
    async enforcing(workspaceIds: string[]): Promise<string[]> {
      if (!workspaceIds.length) return [];
      const rows = await db
        .select({ id: secondFactorPolicies.workspaceId })
        .from(secondFactorPolicies)
        .where(inArray(secondFactorPolicies.workspaceId, workspaceIds));
      return rows.map((r) => r.id);
    },
    /** Of these users, those with an enabled authenticator. */
    async enrolledAmong(userIds: string[]): Promise<Set<string>> {
      if (!userIds.length) return new Set();
      const rows = await db
        .select({ id: totpAuthenticators.userId })
        .from(totpAuthenticators)
        .where(and(inArray(totpAuthenticators.userId, userIds), isNotNull(totpAuthenticators.enabledAt)));
      return new Set(rows.map((r) => r.id));
    },

    async sessionSecondFactorAt(sessionId: string): Promise<Date | undefined> {
      const [row] = await db
        .select({ at: deviceSessions.secondFactorAt })
        .from(deviceSessions)
        .where(and(eq(deviceSessions.id, sessionId), isNull(deviceSessions.revokedAt)));
      return row?.at;
    },
    async markSessionVerified(sessionId: string, at = new Date()) {
      await db
        .update(deviceSessions)
        .set({ secondFactorAt: at })
        .where(and(eq(deviceSessions.id, sessionId), isNull(deviceSessions.revokedAt), lt(deviceSessions.secondFactorAt, at)));
    },
  };
}
