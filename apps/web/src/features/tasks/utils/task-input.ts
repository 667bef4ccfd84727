import { createTaskBody, genericMessage, updateTaskBody } from '@divan/core';
import { dmyToIsoDate } from '../../../lib/format'; // relative: the unit tests run without the @ alias

/** `field`: which input the refusal is about ('title' or 'dueDate'). */
const refusal = (issue: { message: string; path: PropertyKey[] } | undefined) =>
  ({ ok: false, error: issue?.message ?? genericMessage('invalid_argument'), field: String(issue?.path[0] ?? 'title') }) as const;

type Checked<T> = { ok: true; value: T } | { ok: false; error: string; field: string };

/** A title and a due day as typed (DD/MM/AAAA or empty), checked by the API's own contract. */
export function checkNewTask(
  title: string,
  due: string,
  patientId?: string,
): Checked<{ title: string; dueDate: string | null; patientId?: string }> {
  const parsed = createTaskBody.safeParse({ title, dueDate: dmyToIsoDate(due), ...(patientId ? { patientId } : {}) });
  if (!parsed.success) return refusal(parsed.error.issues[0]);
  return { ok: true, value: { title: parsed.data.title, dueDate: parsed.data.dueDate ?? null, ...(patientId ? { patientId } : {}) } };
}

export function checkEdit(title: string, due: string): Checked<{ title: string; dueDate: string | null }> {
  const parsed = updateTaskBody.safeParse({ title, dueDate: dmyToIsoDate(due) });
  if (!parsed.success) return refusal(parsed.error.issues[0]);
  return { ok: true, value: { title: parsed.data.title ?? title, dueDate: parsed.data.dueDate ?? null } };
}
