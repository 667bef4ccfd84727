import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import { TASK_LIST_MAX } from '@divan/core';
import type { DbOrTx } from '../../platform/db/database';
import { tasks, type TaskRow } from './tasks.tables';

export type TaskFilter = { status?: 'open' | 'done'; patientId?: string; dueBefore?: string };
/** Every read and write names the workspace and the owner: a task is reached only by its owner, in its workspace. */
export type TaskOwner = { workspaceId: string; ownerId: string };

const mine = (o: TaskOwner) => and(eq(tasks.workspaceId, o.workspaceId), eq(tasks.ownerId, o.ownerId));

export function tasksRepository(db: DbOrTx) {
  return {
    /** Open first; then by due day (none last), the oldest first. */
    async list(o: TaskOwner, f: TaskFilter): Promise<TaskRow[]> {
      return db
        .select()
        .from(tasks)
        .where(
          and(
            mine(o),
            f.status ? eq(tasks.done, f.status === 'done') : undefined,
            f.patientId ? eq(tasks.patientId, f.patientId) : undefined,
            f.dueBefore ? lte(tasks.dueDate, f.dueBefore) : undefined,
          ),
        )
        .orderBy(asc(tasks.done), sql`${tasks.dueDate} asc nulls last`, desc(tasks.doneAt), asc(tasks.createdAt))
        .limit(TASK_LIST_MAX);
    },
    async find(o: TaskOwner, id: string): Promise<TaskRow | undefined> {
      const [row] = await db
        .select()
        .from(tasks)
        .where(and(mine(o), eq(tasks.id, id)));
      return row;
    },
    async insert(values: typeof tasks.$inferInsert): Promise<TaskRow> {
      const [row] = await db.insert(tasks).values(values).returning();
      return row!;
    },
    async update(
      o: TaskOwner,
      id: string,
      values: Partial<Pick<TaskRow, 'title' | 'dueDate' | 'done' | 'doneAt'>>,
    ): Promise<TaskRow | undefined> {
      const [row] = await db
        .update(tasks)
        .set({ ...values, updatedAt: new Date() })
        .where(and(mine(o), eq(tasks.id, id)))
        .returning();
      return row;
    },
    async delete(o: TaskOwner, id: string): Promise<boolean> {
      const rows = await db
        .delete(tasks)
        .where(and(mine(o), eq(tasks.id, id)))
        .returning({ id: tasks.id });
      return rows.length === 1;
    },
  };
}
