import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/database';
import { sessionSeries, type NewSessionSeries, type SessionSeriesRow } from './session-series.tables';
import { sessions, type SessionRow } from '../sessions.tables';

export function sessionSeriesRepository(db: DbOrTx) {
  return {
    /** The series, locked for the edit: two edits of one series wait for each other. */
    async lock(workspaceId: string, id: string): Promise<SessionSeriesRow | undefined> {
      const [row] = await db
        .select()
        .from(sessionSeries)
        .where(and(eq(sessionSeries.workspaceId, workspaceId), eq(sessionSeries.id, id)))
        .for('update');
      return row;
    },
    async insert(values: NewSessionSeries): Promise<SessionSeriesRow> {
      const [row] = await db.insert(sessionSeries).values(values).returning();
      return row!;
    },
    async update(id: string, values: Partial<NewSessionSeries>): Promise<void> {
      await db
        .update(sessionSeries)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(sessionSeries.id, id));
    },
    /** Every stored occurrence of a series, by index. */
    async occurrences(seriesId: string): Promise<SessionRow[]> {
      return db.select().from(sessions).where(eq(sessions.seriesId, seriesId)).orderBy(asc(sessions.seriesIndex));
    },
    /** Frees the (series, index) keys of rows about to be renumbered, so no two collide meanwhile. */
    async clearIndexes(ids: string[]): Promise<void> {
      if (ids.length) await db.update(sessions).set({ seriesIndex: null }).where(inArray(sessions.id, ids));
    },
    async deleteSessions(ids: string[]): Promise<void> {
      if (ids.length) await db.delete(sessions).where(inArray(sessions.id, ids));
    },
    async insertSessions(values: (typeof sessions.$inferInsert)[]): Promise<SessionRow[]> {
      return values.length ? db.insert(sessions).values(values).returning() : [];
    },
  };
}
