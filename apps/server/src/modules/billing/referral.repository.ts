import { and, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { billingCustomers, billingSubscriptions, referralCodes, referrals, type ReferralRow } from './billing.tables';

/** Referral rows: each therapist's code, the friends who joined with it, the months off they earned. */
export const referralRepository = (db: DbOrTx) => ({
  async codeOf(userId: string): Promise<string | null> {
    const [row] = await db.select({ code: referralCodes.code }).from(referralCodes).where(eq(referralCodes.userId, userId));
    return row?.code ?? null;
  },
  /** False when the code is taken by someone else (or the user already has one): the caller reads again. */
  async insertCode(userId: string, code: string): Promise<boolean> {
    const rows = await db.insert(referralCodes).values({ userId, code }).onConflictDoNothing().returning({ code: referralCodes.code });
    return rows.length > 0;
  },
  async ownerOfCode(code: string): Promise<string | null> {
    const [row] = await db.select({ userId: referralCodes.userId }).from(referralCodes).where(eq(referralCodes.code, code));
    return row?.userId ?? null;
  },

  /** One referral per friend: null when the friend already joined with a code. */
  async insert(values: { referrerId: string; friendId: string; workspaceId: string }): Promise<ReferralRow | null> {
    const [row] = await db.insert(referrals).values(values).onConflictDoNothing({ target: referrals.friendId }).returning();
    return row ?? null;
  },
  async ofFriend(friendId: string): Promise<ReferralRow | null> {
    const [row] = await db.select().from(referrals).where(eq(referrals.friendId, friendId));
    return row ?? null;
  },
  async ofReferrer(referrerId: string): Promise<ReferralRow[]> {
    return db.select().from(referrals).where(eq(referrals.referrerId, referrerId)).orderBy(desc(referrals.joinedAt)).limit(500);
  },

  /** The friend's first paid charge: true only for the call that set it (a replay, or a second charge, finds it set). */
  async markRewarded(referralId: string, providerInvoiceId: string, at: Date): Promise<boolean> {
    const rows = await db
      .update(referrals)
      .set({ rewardedAt: at, rewardInvoiceId: providerInvoiceId })
      .where(and(eq(referrals.id, referralId), isNull(referrals.rewardedAt), isNull(referrals.refusedAt)))
      .returning({ id: referrals.id });
    return rows.length > 0;
  },
  /**
   * No month off for this friend, ever (a self-referral): once, and only while nothing was placed — before
   * the reward is earned (`unearned`, at the friend's first charge; the charge kept as the one that decided),
   * or after it, while it waits for the referrer's plan (`uncredited`). True for the call that set it.
   */
  async markRefused(
    referralId: string,
    refusal: { reason: 'same_card'; providerInvoiceId: string; at: Date },
    stage: 'unearned' | 'uncredited',
  ): Promise<boolean> {
    const rows = await db
      .update(referrals)
      .set({
        refusedReason: refusal.reason,
        refusedAt: refusal.at,
        ...(stage === 'unearned' ? { rewardInvoiceId: refusal.providerInvoiceId } : {}),
      })
      .where(
        and(
          eq(referrals.id, referralId),
          isNull(referrals.refusedAt),
          isNull(referrals.creditItemId),
          stage === 'unearned' ? isNull(referrals.rewardedAt) : isNotNull(referrals.rewardedAt),
        ),
      )
      .returning({ id: referrals.id });
    return rows.length > 0;
  },
  /** Months off earned and not yet placed on a subscription (a refused one is none). */
  async uncredited(referrerId: string): Promise<ReferralRow[]> {
    return db
      .select()
      .from(referrals)
      .where(
        and(
          eq(referrals.referrerId, referrerId),
          isNotNull(referrals.rewardedAt),
          isNull(referrals.creditItemId),
          isNull(referrals.refusedAt),
        ),
      )
      .orderBy(referrals.rewardedAt);
  },
  async markCredited(referralId: string, credit: { amount: number; itemId: string; workspaceId: string; at: Date }): Promise<void> {
    await db
      .update(referrals)
      .set({ creditAmount: credit.amount, creditItemId: credit.itemId, creditWorkspaceId: credit.workspaceId, creditedAt: credit.at })
      .where(and(eq(referrals.id, referralId), isNull(referrals.creditItemId)));
  },

  /** Which of these workspaces ever had a subscription of Diván (any status: a row is kept once made). */
  async everSubscribed(workspaceIds: string[]): Promise<boolean> {
    if (workspaceIds.length === 0) return false;
    const [row] = await db
      .select({ id: billingSubscriptions.workspaceId })
      .from(billingSubscriptions)
      .where(inArray(billingSubscriptions.workspaceId, workspaceIds))
      .limit(1);
    return !!row;
  },
  async customersOf(workspaceIds: string[]): Promise<string[]> {
    if (workspaceIds.length === 0) return [];
    const rows = await db
      .select({ id: billingCustomers.customerId })
      .from(billingCustomers)
      .where(inArray(billingCustomers.workspaceId, workspaceIds));
    return rows.map((r) => r.id);
  },
  /** The subscriptions of these workspaces, to place a month off on one in force. */
  async subscriptionsOf(workspaceIds: string[]) {
    if (workspaceIds.length === 0) return [];
    return db.select().from(billingSubscriptions).where(inArray(billingSubscriptions.workspaceId, workspaceIds));
  },
});
