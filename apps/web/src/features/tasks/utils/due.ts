import type { Task } from '@divan/core';

/** The browser's calendar day 'YYYY-MM-DD' (the therapist's own day, where tasks fall due). */
export function localDay(date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return localDay(new Date(y, m - 1, d + n));
}

export type DueState = 'overdue' | 'today' | 'tomorrow' | 'later' | 'none';

export function dueState(task: Pick<Task, 'dueDate' | 'done'>, today: string): DueState {
  if (!task.dueDate) return 'none';
  if (task.dueDate < today) return task.done ? 'later' : 'overdue';
  if (task.dueDate === today) return 'today';
  return task.dueDate === addDays(today, 1) ? 'tomorrow' : 'later';
}

/**
 * Open tasks first: overdue and today's on top (the oldest due first), then the later ones, then those
 * without a due day, each group oldest first; done ones last, the latest done first.
 */
export function sortTasks(tasks: Task[]): Task[] {
  return [...tasks].sort((a, b) => {
    if (a.done !== b.done) return a.done ? 1 : -1;
    if (a.done) return (b.doneAt ?? '').localeCompare(a.doneAt ?? '');
    if (!!a.dueDate !== !!b.dueDate) return a.dueDate ? -1 : 1;
    return (a.dueDate ?? '').localeCompare(b.dueDate ?? '') || a.createdAt.localeCompare(b.createdAt);
  });
}
