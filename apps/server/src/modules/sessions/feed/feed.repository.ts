import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/database';
import { locations, sessions, type SessionRow } from '../sessions.tables';
import { calendarFeeds } from './feed.tables';

export type FeedSession = Pick<
  SessionRow,
  'id' | 'patientId' | 'startsAt' | 'endsAt' | 'timeZone' | 'status' | 'modality' | 'updatedAt' | 'createdAt'
> & {
  locationName: string | null;
  locationAddress: string | null;
};

export function feedRepository(db: DbOrTx) {
  return {
    async ofMember(workspaceId: string, userId: string) {
      const [row] = await db
        .select()
        .from(calendarFeeds)
        .where(and(eq(calendarFeeds.workspaceId, workspaceId), eq(calendarFeeds.userId, userId)));
      return row;
    },
    async byTokenHash(tokenHash: string) {
      const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.tokenHash, tokenHash));
      return row;
    },
    /** A new token for the member's feed: the old URL stops working in the same statement. */
    async replace(workspaceId: string, userId: string, tokenHash: string, showFullNames: boolean) {
      const [row] = await db
        .insert(calendarFeeds)
        .values({ workspaceId, userId, tokenHash, showFullNames })
        .onConflictDoUpdate({
          target: [calendarFeeds.workspaceId, calendarFeeds.userId],
          set: { tokenHash, showFullNames, createdAt: new Date(), lastReadAt: null },
        })
        .returning();
      return row!;
    },
    async setShowFullNames(workspaceId: string, userId: string, showFullNames: boolean) {
      const [row] = await db
        .update(calendarFeeds)
        .set({ showFullNames })
        .where(and(eq(calendarFeeds.workspaceId, workspaceId), eq(calendarFeeds.userId, userId)))
        .returning();
      return row;
    },
    async delete(workspaceId: string, userId: string) {
      const rows = await db
        .delete(calendarFeeds)
        .where(and(eq(calendarFeeds.workspaceId, workspaceId), eq(calendarFeeds.userId, userId)))
        .returning({ id: calendarFeeds.id });
      return rows.length === 1;
    },
    touch: (id: string, at: Date) => db.update(calendarFeeds).set({ lastReadAt: at }).where(eq(calendarFeeds.id, id)),
    /** The therapist's sessions starting in [from, to), by start: the (workspace, therapist, start) index. */
    sessionsOf: (workspaceId: string, therapistId: string, from: Date, to: Date, limit: number): Promise<FeedSession[]> =>
      db
        .select({
          id: sessions.id,
          patientId: sessions.patientId,
          startsAt: sessions.startsAt,
          endsAt: sessions.endsAt,
          timeZone: sessions.timeZone,
          status: sessions.status,
          modality: sessions.modality,
          createdAt: sessions.createdAt,
          updatedAt: sessions.updatedAt,
          locationName: locations.name,
          locationAddress: locations.address,
        })
        .from(sessions)
        .leftJoin(locations, eq(locations.id, sessions.locationId))
        .where(
          and(
            eq(sessions.workspaceId, workspaceId),
            eq(sessions.therapistId, therapistId),
            gte(sessions.startsAt, from),
            lt(sessions.startsAt, to),
          ),
        )
        .orderBy(asc(sessions.startsAt), asc(sessions.id))
        .limit(limit),
  };
}
