import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { learningPurchases, learningVideos, type LearningVideoRow } from './learning.tables';

type VideoChanges = Partial<Omit<typeof learningVideos.$inferInsert, 'id' | 'createdAt'>>;

/** The upload tool's reads and writes (learning-admin.service.ts). */
export function adminQueries(db: DbOrTx) {
  return {
    /** Every video, newest first, with how many paid purchases each has. */
    async all(): Promise<{ video: LearningVideoRow; purchases: number }[]> {
      const rows = await db.select().from(learningVideos).orderBy(desc(learningVideos.createdAt)).limit(500);
      const counts = await db
        .select({ videoId: learningPurchases.videoId, n: count() })
        .from(learningPurchases)
        .where(eq(learningPurchases.status, 'paid'))
        .groupBy(learningPurchases.videoId);
      const n = new Map(counts.map((c) => [c.videoId, c.n]));
      return rows.map((video) => ({ video, purchases: n.get(video.id) ?? 0 }));
    },
    async video(id: string): Promise<LearningVideoRow | null> {
      const [row] = await db.select().from(learningVideos).where(eq(learningVideos.id, id));
      return row ?? null;
    },
    async insert(values: typeof learningVideos.$inferInsert): Promise<LearningVideoRow> {
      const [row] = await db.insert(learningVideos).values(values).returning();
      return row!;
    },
    async update(id: string, changes: VideoChanges): Promise<LearningVideoRow> {
      const [row] = await db.update(learningVideos).set(changes).where(eq(learningVideos.id, id)).returning();
      return row!;
    },
    /**
     * A piece taken: only if the upload is still at `offset` of the same size (two pieces for the same
     * offset: one wins). Null when it was not.
     */
    async appendPart(id: string, at: { offset: number; size: number }, part: { key: string; received: number }, changes: VideoChanges) {
      const [row] = await db
        .update(learningVideos)
        .set({ ...changes, uploadReceived: part.received, uploadParts: sql`array_append(${learningVideos.uploadParts}, ${part.key})` })
        .where(and(eq(learningVideos.id, id), eq(learningVideos.uploadReceived, at.offset), eq(learningVideos.uploadSize, at.size)))
        .returning();
      return row ?? null;
    },
    async paidCount(videoId: string): Promise<number> {
      const [r] = await db
        .select({ n: count() })
        .from(learningPurchases)
        .where(and(eq(learningPurchases.videoId, videoId), eq(learningPurchases.status, 'paid')));
      return r?.n ?? 0;
    },
  };
}
