import { createTaskBody, errorMessage, updateTaskBody } from '@divan/core';
import { dmyToIsoDate } from '../../../lib/format'; // relative: the unit tests run without the @ alias

type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** A title and a due day as typed (DD/MM/AAAA or empty), checked by the API's own contract. */
export function checkNewTask(title: string, due: string, patientId?: string): Checked<{ title: string; dueDate: string | null; patientId?: string }> {
  const parsed = createTaskBody.safeParse({ title, dueDate: dmyToIsoDate(due), ...(patientId ? { patientId } : {}) });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? errorMessage('invalid_argument') };
  return { ok: true, value: { title: parsed.data.title, dueDate: parsed.data.dueDate ?? null, ...(patientId ? { patientId } : {}) } };
}

export function checkEdit(title: string, due: string): Checked<{ title: string; dueDate: string | null }> {
  const parsed = updateTaskBody.safeParse({ title, dueDate: dmyToIsoDate(due) });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? errorMessage('invalid_argument') };
  return { ok: true, value: { title: parsed.data.title ?? title, dueDate: parsed.data.dueDate ?? null } };
}
