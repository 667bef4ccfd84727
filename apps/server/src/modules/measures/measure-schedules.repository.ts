import { and, asc, desc, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { measureSchedules, type ScheduleRow } from './measures.tables';

const t = measureSchedules;

export function measureSchedulesRepository(db: DbOrTx) {
  return {
    async insert(values: typeof t.$inferInsert): Promise<ScheduleRow> {
      const [row] = await db.insert(t).values(values).returning();
      return row!;
    },
    /** A patient's schedules, open ones first, newest first. */
    async ofPatient(workspaceId: string, patientId: string): Promise<ScheduleRow[]> {
      return db
        .select()
        .from(t)
        .where(and(eq(t.workspaceId, workspaceId), eq(t.patientId, patientId)))
        .orderBy(desc(t.createdAt));
    },
    async lock(workspaceId: string, patientId: string, id: string): Promise<ScheduleRow | undefined> {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.workspaceId, workspaceId), eq(t.patientId, patientId), eq(t.id, id)))
        .for('update');
      return row;
    },
    async lockById(id: string): Promise<ScheduleRow | undefined> {
      const [row] = await db.select().from(t).where(eq(t.id, id)).for('update');
      return row;
    },
    async update(id: string, values: Partial<typeof t.$inferInsert>): Promise<ScheduleRow> {
      const [row] = await db
        .update(t)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(t.id, id))
        .returning();
      return row!;
    },
    /** Active schedules after `afterId`, by id (the sweep pages through them). */
    async active(afterId: string | null, limit: number): Promise<ScheduleRow[]> {
      return db
        .select()
        .from(t)
        .where(afterId ? and(eq(t.status, 'active'), gt(t.id, afterId)) : eq(t.status, 'active'))
        .orderBy(asc(t.id))
        .limit(limit);
    },
  };
}
