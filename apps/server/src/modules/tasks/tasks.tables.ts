import { boolean, date, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only.
import { patients } from '../patients/patients.tables';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * A member's own to-do list inside a workspace: nobody else reads it. A task may name a patient; when
 * that patient is erased the task stays, unlinked.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    dueDate: date('due_date', { mode: 'string' }),
    patientId: uuid('patient_id').references(() => patients.id, { onDelete: 'set null' }),
    done: boolean('done').notNull().default(false),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tasks_owner_idx').on(t.workspaceId, t.ownerId, t.done, t.dueDate), index('tasks_patient_idx').on(t.patientId)],
);
export type TaskRow = typeof tasks.$inferSelect;
