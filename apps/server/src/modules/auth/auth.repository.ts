import { and, desc, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { DeviceInfo } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import type { Realm } from '../../platform/auth/tokens';
import { authChallenges, deviceSessions, refreshTokens } from './auth.tables';

export type ChallengeKind = 'login' | 'signup' | 'password' | 'patient_login' | 'second_factor';
/** Who a session or a challenge belongs to: a therapist's user or a patient's account. */
export type SessionSubject = { realm: Realm; id: string };
const subjectColumns = (s: SessionSubject) =>
  s.realm === 'patients'
    ? { userId: null, patientAccountId: s.id, realm: s.realm }
    : { userId: s.id, patientAccountId: null, realm: s.realm };
const subjectId = (t: typeof deviceSessions) => sql<string>`coalesce(${t.userId}, ${t.patientAccountId})`;
export type ChallengeRow = typeof authChallenges.$inferSelect;
export type SessionContext = { ip: string; userAgent: string };

/** The only file that touches the auth tables. */
export function authRepository(db: DbOrTx) {
  return {
    /**
     * Challenges a day past their expiry and expired refresh tokens, at most `limit` of each (the hourly
     * sweep). A rotated token is kept until it expires: presented again, it still reveals a theft.
     */
    async deleteExpired(limit: number, now = new Date()): Promise<number> {
      const dayAgo = new Date(now.getTime() - 86_400_000);
      const challenges = await db
        .delete(authChallenges)
        .where(
          inArray(
            authChallenges.id,
            db.select({ id: authChallenges.id }).from(authChallenges).where(lt(authChallenges.expiresAt, dayAgo)).limit(limit),
          ),
        )
        .returning({ id: authChallenges.id });
      const tokens = await db
        .delete(refreshTokens)
        .where(
          inArray(
            refreshTokens.tokenHash,
            db.select({ h: refreshTokens.tokenHash }).from(refreshTokens).where(lt(refreshTokens.expiresAt, now)).limit(limit),
          ),
        )
        .returning({ h: refreshTokens.tokenHash });
      return challenges.length + tokens.length;
    },
    async latestChallenge(userId: string, kind: ChallengeKind): Promise<ChallengeRow | undefined> {
      const [row] = await db
        .select()
        .from(authChallenges)
        .where(and(eq(authChallenges.userId, userId), eq(authChallenges.kind, kind)))
        .orderBy(desc(authChallenges.createdAt))
        .limit(1);
      return row;
    },
    async insertChallenge(values: {
      id?: string;
      kind: ChallengeKind;
      userId?: string;
      patientAccountId?: string;
      secretHash: string;
      expiresAt: Date;
    }) {
      const [row] = await db.insert(authChallenges).values(values).returning();
      return row!;
    },
    async findChallengeById(id: string): Promise<ChallengeRow | undefined> {
      const [row] = await db.select().from(authChallenges).where(eq(authChallenges.id, id));
      return row;
    },
    async findLinkChallenge(kind: ChallengeKind, secretHash: string): Promise<ChallengeRow | undefined> {
      const [row] = await db
        .select()
        .from(authChallenges)
        .where(and(eq(authChallenges.kind, kind), eq(authChallenges.secretHash, secretHash)));
      return row;
    },
    /** Counts an attempt atomically; undefined when the challenge is used up or spent. */
    async countAttempt(id: string, maxAttempts: number): Promise<ChallengeRow | undefined> {
      const [row] = await db
        .update(authChallenges)
        .set({ attempts: sql`${authChallenges.attempts} + 1` })
        .where(and(eq(authChallenges.id, id), isNull(authChallenges.consumedAt), lt(authChallenges.attempts, maxAttempts)))
        .returning();
      return row;
    },
    /** Consumes once: of two racing requests only one gets the row. */
    async consume(id: string): Promise<boolean> {
      const rows = await db
        .update(authChallenges)
        .set({ consumedAt: new Date() })
        .where(and(eq(authChallenges.id, id), isNull(authChallenges.consumedAt)))
        .returning({ id: authChallenges.id });
      return rows.length === 1;
    },
    /** Older links of the same kind stop working once a newer one is used. */
    async consumeAllOfKind(userId: string, kind: ChallengeKind) {
      await db
        .update(authChallenges)
        .set({ consumedAt: new Date() })
        .where(and(eq(authChallenges.userId, userId), eq(authChallenges.kind, kind), isNull(authChallenges.consumedAt)));
    },

    async insertSession(subject: SessionSubject, device: DeviceInfo, ctx: SessionContext) {
      const { realm, ...ids } = subjectColumns(subject);
      const [row] = await db
        .insert(deviceSessions)
        .values({ ...ids, realm, ...device, userAgent: ctx.userAgent, ip: ctx.ip })
        .returning({ id: deviceSessions.id });
      return row!.id;
    },
    async insertRefreshToken(sessionId: string, tokenHash: string, expiresAt: Date) {
      await db.insert(refreshTokens).values({ sessionId, tokenHash, expiresAt });
    },
    /** Marks the token rotated if it is current; undefined when it is unknown, expired or already rotated. */
    async rotate(tokenHash: string) {
      const [row] = await db
        .update(refreshTokens)
        .set({ rotatedAt: new Date() })
        .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.rotatedAt), gt(refreshTokens.expiresAt, new Date())))
        .returning({ sessionId: refreshTokens.sessionId });
      return row;
    },
    async findRefreshToken(tokenHash: string) {
      const [row] = await db
        .select({
          sessionId: refreshTokens.sessionId,
          rotatedAt: refreshTokens.rotatedAt,
          expiresAt: refreshTokens.expiresAt,
          /** The user's or the patient account's id, as `realm` says. */
          subjectId: subjectId(deviceSessions),
          realm: deviceSessions.realm,
          revokedAt: deviceSessions.revokedAt,
        })
        .from(refreshTokens)
        .innerJoin(deviceSessions, eq(deviceSessions.id, refreshTokens.sessionId))
        .where(eq(refreshTokens.tokenHash, tokenHash));
      return row;
    },
    async findSession(id: string) {
      const [row] = await db
        .select({
          id: deviceSessions.id,
          realm: deviceSessions.realm,
          subjectId: subjectId(deviceSessions),
          revokedAt: deviceSessions.revokedAt,
        })
        .from(deviceSessions)
        .where(eq(deviceSessions.id, id));
      return row;
    },
    async touchSession(id: string, device: DeviceInfo, ctx: SessionContext) {
      await db
        .update(deviceSessions)
        .set({ ...device, userAgent: ctx.userAgent, ip: ctx.ip, lastUsedAt: new Date() })
        .where(eq(deviceSessions.id, id));
    },
    async revokeSession(id: string, reason: string) {
      await db
        .update(deviceSessions)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(deviceSessions.id, id), isNull(deviceSessions.revokedAt)));
    },
    /** Sessions revoked after `since` (start-up: their access tokens may still be unexpired). */
    async revokedSince(since: Date): Promise<{ id: string; revokedAt: Date }[]> {
      const rows = await db
        .select({ id: deviceSessions.id, revokedAt: deviceSessions.revokedAt })
        .from(deviceSessions)
        .where(gt(deviceSessions.revokedAt, since));
      return rows.map((r) => ({ id: r.id, revokedAt: r.revokedAt! }));
    },
    /** Revokes every live session of the user but `keep`; returns the revoked ids. */
    async revokeOtherSessions(userId: string, keep: string | null, reason: string): Promise<string[]> {
      const rows = await db
        .update(deviceSessions)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(deviceSessions.userId, userId), isNull(deviceSessions.revokedAt), keep ? ne(deviceSessions.id, keep) : undefined))
        .returning({ id: deviceSessions.id });
      return rows.map((r) => r.id);
    },
  };
}
