import { z } from 'zod';
import { dayField, optionalDayField, requiredText } from '../fields';
import { workspaceIdParams } from '../workspaces/workspace.contracts';

/** A task's title: what the therapist has to do, 1–200 characters. */
export const TASK_TITLE_MAX = 200;
/** The most tasks one list answers (the open ones first): a to-do list, not an archive. */
export const TASK_LIST_MAX = 500;

const title = () => requiredText('título', TASK_TITLE_MAX);

/** A new task of the caller's own to-do list; `patientId` links it to a patient the caller may read. */
export const createTaskBody = z.object({
  title: title(),
  /** The due day 'YYYY-MM-DD'; '' or null: no due day. */
  dueDate: optionalDayField(),
  patientId: z.uuid({ error: 'Paciente inválido' }).nullable().optional(),
});
export type CreateTaskBody = z.input<typeof createTaskBody>;

/** Only what is sent changes; `dueDate: null` (or '') removes the due day. */
export const updateTaskBody = z.object({
  title: title().optional(),
  dueDate: optionalDayField(),
  done: z.boolean().optional(),
});
export type UpdateTaskBody = z.input<typeof updateTaskBody>;

export const taskListQuery = z.object({
  /** open: not done; done: done; absent: both (open first). */
  status: z.enum(['open', 'done']).optional(),
  patientId: z.uuid({ error: 'Paciente inválido' }).optional(),
  /** Only tasks due on or before this day (overdue and today's: today). */
  dueBefore: dayField('fecha').optional(),
});
export type TaskListQuery = z.input<typeof taskListQuery>;

export const taskIdParams = workspaceIdParams.extend({ taskId: z.uuid({ error: 'Tarea inválida' }) });

export const taskResponse = z.object({
  id: z.uuid(),
  title: z.string(),
  dueDate: z.string().nullable(),
  done: z.boolean(),
  doneAt: z.string().nullable(),
  /** The linked patient; `name` is null when the caller may no longer read that patient. */
  patient: z.object({ id: z.uuid(), name: z.string().nullable() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Task = z.infer<typeof taskResponse>;
