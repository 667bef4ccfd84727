import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { giftCodes, type GiftCodeRow } from './billing.tables';

/** Gift rows: bought, paid (by the webhook), shown once, redeemed once (a credit's claimed first). */
/** A gift not yet redeemed, and claimed by no workspace but this one. */
const unredeemedFor = (id: string, workspaceId: string) =>
  and(
    eq(giftCodes.id, id),
    isNull(giftCodes.redeemedAt),
    or(isNull(giftCodes.redeemedWorkspaceId), eq(giftCodes.redeemedWorkspaceId, workspaceId)),
  );

export const giftRepository = (db: DbOrTx) => ({
  async insert(values: typeof giftCodes.$inferInsert): Promise<void> {
    await db.insert(giftCodes).values(values);
  },
  async ofSession(sessionId: string): Promise<GiftCodeRow | null> {
    const [row] = await db.select().from(giftCodes).where(eq(giftCodes.checkoutSessionId, sessionId));
    return row ?? null;
  },
  /** A paid gift by its code's hash; with `lock`, held until the transaction ends (one redemption at a time). */
  async paidOfHash(codeHash: string, opts: { lock?: boolean } = {}): Promise<GiftCodeRow | null> {
    const q = db
      .select()
      .from(giftCodes)
      .where(and(eq(giftCodes.codeHash, codeHash), isNotNull(giftCodes.paidAt)));
    const [row] = opts.lock ? await q.for('update') : await q;
    return row ?? null;
  },
  /** True only for the call that marked it paid (a replayed webhook finds it paid). */
  async markPaid(id: string, at: Date, expiresAt: Date): Promise<boolean> {
    const rows = await db
      .update(giftCodes)
      .set({ paidAt: at, expiresAt })
      .where(and(eq(giftCodes.id, id), isNull(giftCodes.paidAt)))
      .returning({ id: giftCodes.id });
    return rows.length > 0;
  },
  /** True only for the first read of the code after payment. */
  async markRevealed(id: string, at: Date): Promise<boolean> {
    const rows = await db
      .update(giftCodes)
      .set({ revealedAt: at })
      .where(and(eq(giftCodes.id, id), isNotNull(giftCodes.paidAt), isNull(giftCodes.revealedAt)))
      .returning({ id: giftCodes.id });
    return rows.length > 0;
  },
  /**
   * Taken for a workspace before its credit goes to the provider (under the row's lock): the workspace set,
   * `redeemed_at` not yet — the gift is not redeemed until its credit is placed, and no other workspace may
   * take it meanwhile (a credit that reached the provider unanswered must not be followed by a second
   * redemption elsewhere). The same workspace finishes it on a retry.
   */
  async claim(id: string, by: { userId: string; workspaceId: string }): Promise<boolean> {
    const rows = await db
      .update(giftCodes)
      .set({ redeemedBy: by.userId, redeemedWorkspaceId: by.workspaceId })
      .where(unredeemedFor(id, by.workspaceId))
      .returning({ id: giftCodes.id });
    return rows.length > 0;
  },
  /** True only for the call that redeemed it (never over another workspace's claim). */
  async markRedeemed(id: string, by: { userId: string; workspaceId: string; at: Date }): Promise<boolean> {
    const rows = await db
      .update(giftCodes)
      .set({ redeemedAt: by.at, redeemedBy: by.userId, redeemedWorkspaceId: by.workspaceId })
      .where(unredeemedFor(id, by.workspaceId))
      .returning({ id: giftCodes.id });
    return rows.length > 0;
  },
});
