import type { Task } from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import { tasksRepository, type TaskFilter, type TaskOwner } from './tasks.repository';
import type { TaskRow } from './tasks.tables';

type Create = { title: string; dueDate?: string | null; patientId?: string | null };
type Update = { title?: string; dueDate?: string | null; done?: boolean };

const ownerOf = (c: Caller): TaskOwner => ({ workspaceId: c.member.workspaceId, ownerId: c.userId });

/**
 * A member's own to-do list in a workspace. Any member keeps one (the route asks only membership); a
 * task is read and changed by its owner alone, and anyone else's task id is a 404. A task names a
 * patient only if its owner may read that patient (PatientsService decides), and shows the patient's
 * name only while they still may.
 */
export class TasksService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
  ) {}

  async list(c: Caller, query: TaskFilter): Promise<Task[]> {
    if (query.patientId) await this.patients.accessible(c, query.patientId);
    const rows = await tasksRepository(this.db).list(ownerOf(c), query);
    return this.present(c, rows);
  }

  async create(c: Caller, b: Create): Promise<Task> {
    if (b.patientId) await this.patients.accessible(c, b.patientId);
    const row = await tasksRepository(this.db).insert({
      ...ownerOf(c),
      title: b.title,
      dueDate: b.dueDate ?? null,
      patientId: b.patientId ?? null,
    });
    return (await this.present(c, [row]))[0]!;
  }

  async update(c: Caller, id: string, b: Update): Promise<Task> {
    const repo = tasksRepository(this.db);
    const current = await repo.find(ownerOf(c), id);
    if (!current) throw new AppError('task_not_found');
    const changes: Partial<Pick<TaskRow, 'title' | 'dueDate' | 'done' | 'doneAt'>> = {};
    if (b.title !== undefined) changes.title = b.title;
    if (b.dueDate !== undefined) changes.dueDate = b.dueDate;
    if (b.done !== undefined && b.done !== current.done) {
      changes.done = b.done;
      changes.doneAt = b.done ? new Date() : null;
    }
    const row = await repo.update(ownerOf(c), id, changes);
    if (!row) throw new AppError('task_not_found');
    return (await this.present(c, [row]))[0]!;
  }

  async delete(c: Caller, id: string): Promise<void> {
    if (!(await tasksRepository(this.db).delete(ownerOf(c), id))) throw new AppError('task_not_found');
  }

  /** Each linked patient checked once; one the caller may no longer read keeps its id, not its name. */
  private async present(c: Caller, rows: TaskRow[]): Promise<Task[]> {
    const names = new Map<string, string | null>();
    for (const id of new Set(rows.map((r) => r.patientId).filter((x): x is string => !!x))) {
      try {
        const p = await this.patients.accessible(c, id);
        names.set(id, [p.firstName, p.lastName].filter(Boolean).join(' '));
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        names.set(id, null);
      }
    }
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      dueDate: r.dueDate,
      done: r.done,
      doneAt: r.doneAt?.toISOString() ?? null,
      patient: r.patientId ? { id: r.patientId, name: names.get(r.patientId) ?? null } : null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}
