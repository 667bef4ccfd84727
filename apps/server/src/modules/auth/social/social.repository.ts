import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { SocialProvider } from '@divan/core';
import type { DbOrTx } from '../../../platform/db/database';
import { oauthStates, pendingIdentityLinks, userIdentities } from './social.tables';

export type IdentityRow = typeof userIdentities.$inferSelect;
export type OAuthStateRow = typeof oauthStates.$inferSelect;
export type PendingLinkRow = typeof pendingIdentityLinks.$inferSelect;
export type StatePurpose = OAuthStateRow['purpose'];

/** The only file that touches the social sign-in tables. */
export function socialRepository(db: DbOrTx) {
  return {
    async insertState(values: typeof oauthStates.$inferInsert) {
      await db.insert(oauthStates).values(values);
    },
    /**
     * Consumes a started sign-in once, atomically: of this provider, unexpired, unused, and started for `want` (sign-in or
     * sign-up without a user; or a link by this user). Undefined otherwise: unknown, replayed, expired or another's.
     */
    async consumeState(
      stateHash: string,
      provider: SocialProvider,
      want: { kind: 'login' } | { kind: 'link'; userId: string },
    ): Promise<OAuthStateRow | undefined> {
      const purpose =
        want.kind === 'login'
          ? and(inArray(oauthStates.purpose, ['login', 'signup']), isNull(oauthStates.userId))
          : and(eq(oauthStates.purpose, 'link'), eq(oauthStates.userId, want.userId));
      const [row] = await db
        .update(oauthStates)
        .set({ consumedAt: new Date() })
        .where(
          and(
            eq(oauthStates.stateHash, stateHash),
            eq(oauthStates.provider, provider),
            isNull(oauthStates.consumedAt),
            gt(oauthStates.expiresAt, new Date()),
            purpose,
          ),
        )
        .returning();
      return row;
    },

    async findIdentity(provider: SocialProvider, subject: string): Promise<IdentityRow | undefined> {
      const [row] = await db
        .select()
        .from(userIdentities)
        .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)));
      return row;
    },
    /** Undefined when `(provider, subject)` is already linked (to anyone: the caller reads whom). */
    async insertIdentity(values: { userId: string; provider: SocialProvider; subject: string; email: string | null }) {
      const [row] = await db
        .insert(userIdentities)
        .values({ ...values, lastUsedAt: new Date() })
        .onConflictDoNothing({ target: [userIdentities.provider, userIdentities.subject] })
        .returning();
      return row;
    },
    async touchIdentity(id: string, email: string | null): Promise<IdentityRow> {
      const [row] = await db
        .update(userIdentities)
        .set({ lastUsedAt: new Date(), ...(email ? { email } : {}) })
        .where(eq(userIdentities.id, id))
        .returning();
      return row!;
    },
    listIdentities: (userId: string): Promise<IdentityRow[]> =>
      db.select().from(userIdentities).where(eq(userIdentities.userId, userId)).orderBy(asc(userIdentities.createdAt)),
    async deleteIdentity(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(userIdentities)
        .where(and(eq(userIdentities.id, id), eq(userIdentities.userId, userId)))
        .returning({ id: userIdentities.id });
      return rows.length > 0;
    },

    async insertPendingLink(values: typeof pendingIdentityLinks.$inferInsert): Promise<PendingLinkRow> {
      const [row] = await db.insert(pendingIdentityLinks).values(values).returning();
      return row!;
    },
    async findPendingLink(id: string, provider: SocialProvider): Promise<PendingLinkRow | undefined> {
      const [row] = await db
        .select()
        .from(pendingIdentityLinks)
        .where(and(eq(pendingIdentityLinks.id, id), eq(pendingIdentityLinks.provider, provider)));
      return row;
    },
    /** Once: false when another request consumed it first (or it expired meanwhile). */
    async consumePendingLink(id: string): Promise<boolean> {
      const rows = await db
        .update(pendingIdentityLinks)
        .set({ consumedAt: new Date() })
        .where(
          and(eq(pendingIdentityLinks.id, id), isNull(pendingIdentityLinks.consumedAt), gt(pendingIdentityLinks.expiresAt, new Date())),
        )
        .returning({ id: pendingIdentityLinks.id });
      return rows.length > 0;
    },

    /** Started sign-ins past their expiry or used, and pending links past theirs, at most `limit` of each (the hourly sweep). */
    async deleteExpired(limit: number, now = new Date()): Promise<number> {
      const states = await db
        .delete(oauthStates)
        .where(
          inArray(
            oauthStates.stateHash,
            db
              .select({ h: oauthStates.stateHash })
              .from(oauthStates)
              .where(or(lt(oauthStates.expiresAt, now), sql`${oauthStates.consumedAt} is not null`))
              .limit(limit),
          ),
        )
        .returning({ h: oauthStates.stateHash });
      const links = await db
        .delete(pendingIdentityLinks)
        .where(
          inArray(
            pendingIdentityLinks.id,
            db
              .select({ id: pendingIdentityLinks.id })
              .from(pendingIdentityLinks)
              .where(lt(pendingIdentityLinks.expiresAt, now))
              .limit(limit),
          ),
        )
        .returning({ id: pendingIdentityLinks.id });
      return states.length + links.length;
    },
  };
}
