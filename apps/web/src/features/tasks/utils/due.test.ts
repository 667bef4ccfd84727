import { describe, expect, it } from 'vitest';
import type { Task } from '@divan/core';
import { addDays, dueState, sortTasks } from './due';

const task = (over: Partial<Task>): Task => ({
  id: crypto.randomUUID(),
  title: 't',
  dueDate: null,
  done: false,
  doneAt: null,
  patient: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...over,
});

describe('due days', () => {
  it('adds days across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('names a task overdue, today, tomorrow or later; a done one is never overdue', () => {
    const today = '2026-11-23';
    expect(dueState(task({ dueDate: '2026-11-22' }), today)).toBe('overdue');
    expect(dueState(task({ dueDate: '2026-11-22', done: true }), today)).toBe('later');
    expect(dueState(task({ dueDate: today }), today)).toBe('today');
    expect(dueState(task({ dueDate: '2026-11-24' }), today)).toBe('tomorrow');
    expect(dueState(task({ dueDate: '2026-12-24' }), today)).toBe('later');
    expect(dueState(task({}), today)).toBe('none');
  });

  it('puts overdue and today first, undated after, done last', () => {
    const list = [
      task({ title: 'sin fecha' }),
      task({ title: 'hecha', done: true, doneAt: '2026-11-23T09:00:00.000Z', dueDate: '2026-11-01' }),
      task({ title: 'mañana', dueDate: '2026-11-24' }),
      task({ title: 'vencida', dueDate: '2026-11-20' }),
      task({ title: 'hoy', dueDate: '2026-11-23' }),
    ];
    expect(sortTasks(list).map((t) => t.title)).toEqual(['vencida', 'hoy', 'mañana', 'sin fecha', 'hecha']);
  });
});
