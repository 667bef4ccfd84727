import { and, arrayOverlaps, count, desc, eq, ilike, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { LearningCategory, LearningShelf } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { learningBookmarks, learningProgress, learningPurchases, learningVideos, type LearningVideoRow } from './learning.tables';

/** A video as one therapist sees it: the row, whether they bought it, keep it as a favourite, and where they are in it. */
export type CardRow = {
  video: LearningVideoRow;
  purchased: boolean;
  bookmarked: boolean;
  progress: { positionSeconds: number; watchedSeconds: number; completedAt: Date | null; updatedAt: Date } | null;
};

export type CardFilter = { q?: string; category?: LearningCategory; tag?: string; shelf?: LearningShelf };

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function learningRepository(db: DbOrTx) {
  /** The three per-user joins of every card list: the user's paid purchase, favourite and progress. */
  const cardQuery = (userId: string) =>
    db
      .select({
        video: learningVideos,
        purchaseId: learningPurchases.id,
        bookmarkedAt: learningBookmarks.createdAt,
        progress: {
          positionSeconds: learningProgress.positionSeconds,
          watchedSeconds: learningProgress.watchedSeconds,
          completedAt: learningProgress.completedAt,
          updatedAt: learningProgress.updatedAt,
        },
      })
      .from(learningVideos)
      .leftJoin(
        learningPurchases,
        and(eq(learningPurchases.videoId, learningVideos.id), eq(learningPurchases.userId, userId), eq(learningPurchases.status, 'paid')),
      )
      .leftJoin(learningBookmarks, and(eq(learningBookmarks.videoId, learningVideos.id), eq(learningBookmarks.userId, userId)))
      .leftJoin(learningProgress, and(eq(learningProgress.videoId, learningVideos.id), eq(learningProgress.userId, userId)));

  type Raw = Awaited<ReturnType<ReturnType<typeof cardQuery>['execute']>>[number];
  const toCard = (r: Raw): CardRow => ({
    video: r.video,
    purchased: r.purchaseId !== null,
    bookmarked: r.bookmarkedAt !== null,
    progress: r.progress && r.progress.updatedAt ? r.progress : null,
  });

  const published = eq(learningVideos.status, 'published');

  /** Published, or bought by the caller and not a draft: access without limit survives an unpublishing. */
  const reachable = or(published, and(ne(learningVideos.status, 'draft'), isNotNull(learningPurchases.id)))!;

  const filterOf = (f: CardFilter): SQL[] => {
    const where: SQL[] = [reachable];
    if (f.q) {
      const like = `%${escapeLike(f.q)}%`;
      where.push(
        or(
          ilike(learningVideos.title, like),
          ilike(learningVideos.description, like),
          sql`exists (select 1 from unnest(${learningVideos.tags}) t where t ilike ${like})`,
        )!,
      );
    }
    if (f.category) where.push(sql`${f.category} = any(${learningVideos.categories})`);
    if (f.tag) where.push(sql`${f.tag.toLowerCase()} = any(${learningVideos.tags})`);
    if (f.shelf === 'in_progress') where.push(isNotNull(learningProgress.updatedAt), isNull(learningProgress.completedAt));
    if (f.shelf === 'completed') where.push(isNotNull(learningProgress.completedAt));
    if (f.shelf === 'favorites') where.push(isNotNull(learningBookmarks.createdAt));
    if (f.shelf === 'purchased') where.push(isNotNull(learningPurchases.id));
    return where;
  };

  return {
    async cards(userId: string, f: CardFilter, page: number, pageSize: number): Promise<{ rows: CardRow[]; total: number }> {
      const where = and(...filterOf(f));
      const order =
        f.shelf === 'in_progress' || f.shelf === 'completed'
          ? [desc(learningProgress.updatedAt), desc(learningVideos.id)]
          : f.shelf === 'favorites'
            ? [desc(learningBookmarks.createdAt), desc(learningVideos.id)]
            : [desc(learningVideos.publishedAt), desc(learningVideos.id)];
      const [rows, [total]] = await Promise.all([
        cardQuery(userId)
          .where(where)
          .orderBy(...order)
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        db
          .select({ n: count() })
          .from(learningVideos)
          .leftJoin(
            learningPurchases,
            and(
              eq(learningPurchases.videoId, learningVideos.id),
              eq(learningPurchases.userId, userId),
              eq(learningPurchases.status, 'paid'),
            ),
          )
          .leftJoin(learningBookmarks, and(eq(learningBookmarks.videoId, learningVideos.id), eq(learningBookmarks.userId, userId)))
          .leftJoin(learningProgress, and(eq(learningProgress.videoId, learningVideos.id), eq(learningProgress.userId, userId)))
          .where(where),
      ]);
      return { rows: rows.map(toCard), total: total?.n ?? 0 };
    },

    async card(userId: string, videoId: string): Promise<CardRow | null> {
      const [row] = await cardQuery(userId).where(eq(learningVideos.id, videoId));
      return row ? toCard(row) : null;
    },

    async cardsByIds(userId: string, ids: string[]): Promise<CardRow[]> {
      if (ids.length === 0) return [];
      const rows = (await cardQuery(userId).where(and(published, inArray(learningVideos.id, ids)))).map(toCard);
      return ids.map((id) => rows.find((r) => r.video.id === id)).filter((r): r is CardRow => !!r);
    },

    /** Every tag of the published catalogue, for the filter. */
    async tags(): Promise<string[]> {
      const rows = await db
        .selectDistinct({ tag: sql<string>`unnest(${learningVideos.tags})` })
        .from(learningVideos)
        .where(published);
      return rows.map((r) => r.tag).sort((a, b) => a.localeCompare(b, 'es'));
    },

    /** Same category or a shared tag, the caller's unbought first, then the most shared tags. */
    async related(userId: string, v: LearningVideoRow, limit: number): Promise<CardRow[]> {
      const shared = sql<number>`cardinality(array(select unnest(${learningVideos.tags}) intersect select unnest(o.tags) from learning_videos o where o.id = ${v.id}))`;
      const rows = await cardQuery(userId)
        .where(
          and(
            published,
            sql`${learningVideos.id} <> ${v.id}`,
            or(arrayOverlaps(learningVideos.categories, v.categories), arrayOverlaps(learningVideos.tags, v.tags)),
          ),
        )
        .orderBy(sql`${learningPurchases.id} is not null`, desc(shared), desc(learningVideos.publishedAt))
        .limit(limit);
      return rows.map(toCard);
    },

    /** Bought or finished since `since`: the videos most often, most first. */
    async popularIds(since: Date, limit: number): Promise<string[]> {
      const result = await db.execute(sql`
        select e.video_id from (
          select video_id from learning_purchases where status = 'paid' and paid_at >= ${since}
          union all
          select video_id from learning_progress where completed_at >= ${since}
        ) e join learning_videos v on v.id = e.video_id and v.status = 'published'
        group by e.video_id order by count(*) desc, max(v.published_at) desc limit ${limit}`);
      return (result as unknown as { rows: { video_id: string }[] }).rows.map((r) => r.video_id);
    },

    async video(id: string): Promise<LearningVideoRow | null> {
      const [row] = await db.select().from(learningVideos).where(eq(learningVideos.id, id));
      return row ?? null;
    },

    async hasPaid(userId: string, videoId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: learningPurchases.id })
        .from(learningPurchases)
        .where(and(eq(learningPurchases.userId, userId), eq(learningPurchases.videoId, videoId), eq(learningPurchases.status, 'paid')));
      return !!row;
    },

    async addBookmark(userId: string, videoId: string): Promise<boolean> {
      const made = await db
        .insert(learningBookmarks)
        .values({ userId, videoId })
        .onConflictDoNothing()
        .returning({ v: learningBookmarks.videoId });
      return made.length > 0;
    },
    async removeBookmark(userId: string, videoId: string): Promise<boolean> {
      const gone = await db
        .delete(learningBookmarks)
        .where(and(eq(learningBookmarks.userId, userId), eq(learningBookmarks.videoId, videoId)))
        .returning({ v: learningBookmarks.videoId });
      return gone.length > 0;
    },

    /** The user's progress row, locked for the rest of the transaction (two saves at once merge, never lose). */
    async progressForUpdate(userId: string, videoId: string) {
      const [row] = await db
        .select()
        .from(learningProgress)
        .where(and(eq(learningProgress.userId, userId), eq(learningProgress.videoId, videoId)))
        .for('update');
      return row ?? null;
    },
    async saveProgress(row: typeof learningProgress.$inferInsert) {
      const [saved] = await db
        .insert(learningProgress)
        .values(row)
        .onConflictDoUpdate({
          target: [learningProgress.userId, learningProgress.videoId],
          set: {
            positionSeconds: row.positionSeconds,
            watched: row.watched,
            watchedSeconds: row.watchedSeconds,
            completedAt: row.completedAt,
            updatedAt: row.updatedAt,
          },
        })
        .returning();
      return saved!;
    },

    purchasesOf(userId: string) {
      return db
        .select({ purchase: learningPurchases, title: learningVideos.title })
        .from(learningPurchases)
        .innerJoin(learningVideos, eq(learningVideos.id, learningPurchases.videoId))
        .where(and(eq(learningPurchases.userId, userId), inArray(learningPurchases.status, ['paid', 'refunded'])))
        .orderBy(desc(learningPurchases.createdAt));
    },
  };
}
