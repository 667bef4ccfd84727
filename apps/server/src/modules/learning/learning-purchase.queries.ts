import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { learningPurchases, learningVideos, type LearningPurchaseRow, type LearningVideoRow } from './learning.tables';

/** The purchases' reads and writes (learning-purchase.service.ts). */
export function purchaseQueries(db: DbOrTx) {
  return {
    async video(id: string): Promise<LearningVideoRow | null> {
      const [row] = await db.select().from(learningVideos).where(eq(learningVideos.id, id));
      return row ?? null;
    },
    async purchase(id: string): Promise<LearningPurchaseRow | null> {
      const [row] = await db.select().from(learningPurchases).where(eq(learningPurchases.id, id));
      return row ?? null;
    },
    /** The user's pending or paid purchase of the video (the database holds at most one). */
    async live(userId: string, videoId: string): Promise<LearningPurchaseRow | null> {
      const [row] = await db
        .select()
        .from(learningPurchases)
        .where(
          and(
            eq(learningPurchases.userId, userId),
            eq(learningPurchases.videoId, videoId),
            inArray(learningPurchases.status, ['pending', 'paid']),
          ),
        );
      return row ?? null;
    },
    async insertPending(row: Pick<LearningPurchaseRow, 'userId' | 'videoId' | 'workspaceId' | 'baseCents' | 'vatCents' | 'totalCents'>) {
      const [made] = await db
        .insert(learningPurchases)
        .values({ ...row, status: 'pending' })
        .returning();
      return made!;
    },
    async setCheckout(id: string, checkoutSessionId: string) {
      await db.update(learningPurchases).set({ checkoutSessionId }).where(eq(learningPurchases.id, id));
    },
    /** A pending attempt that charged nothing: failed (a paid one is never touched). */
    async failPending(id: string) {
      await db
        .update(learningPurchases)
        .set({ status: 'failed' })
        .where(and(eq(learningPurchases.id, id), eq(learningPurchases.status, 'pending')));
    },
    async markPaid(
      id: string,
      paid: Pick<LearningPurchaseRow, 'paidAt' | 'paymentIntentId' | 'invoiceId' | 'invoiceNumber' | 'vatCents' | 'totalCents'>,
    ): Promise<LearningPurchaseRow> {
      const [row] = await db
        .update(learningPurchases)
        .set({ ...paid, status: 'paid' })
        .where(eq(learningPurchases.id, id))
        .returning();
      return row!;
    },
    /** The staff's refunds screen: paid and refunded purchases, newest first, with their video's title; one user's if given. */
    async recent(o: { userId?: string; limit: number }): Promise<{ purchase: LearningPurchaseRow; title: string }[]> {
      const done = inArray(learningPurchases.status, ['paid', 'refunded']);
      return db
        .select({ purchase: learningPurchases, title: learningVideos.title })
        .from(learningPurchases)
        .innerJoin(learningVideos, eq(learningVideos.id, learningPurchases.videoId))
        .where(o.userId ? and(done, eq(learningPurchases.userId, o.userId)) : done)
        .orderBy(desc(sql`coalesce(${learningPurchases.paidAt}, ${learningPurchases.createdAt})`), desc(learningPurchases.id))
        .limit(o.limit);
    },
    async markRefunded(id: string, at: Date): Promise<LearningPurchaseRow | null> {
      const [row] = await db
        .update(learningPurchases)
        .set({ status: 'refunded', refundedAt: at })
        .where(and(eq(learningPurchases.id, id), eq(learningPurchases.status, 'paid')))
        .returning();
      return row ?? null;
    },
  };
}
