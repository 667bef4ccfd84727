import { genericMessage } from '@divan/core';
import type * as TaskSchemas from './task-schemas';
import { dmyToIsoDate } from '../../../lib/format'; // relative: the unit tests run without the @ alias

/** `field`: which input the refusal is about ('title' or 'dueDate'). */
const refusal = (issue: { message: string; path: PropertyKey[] } | undefined) =>
  ({ ok: false, error: issue?.message ?? genericMessage('invalid_argument'), field: String(issue?.path[0] ?? 'title') }) as const;

type Checked<T> = { ok: true; value: T } | { ok: false; error: string; field: string };

let schemas: Promise<typeof TaskSchemas> | undefined;
/** The contracts (and Zod) on first use; call it when the user starts typing, so the check does not wait. */
export const loadTaskSchemas = () => (schemas ??= import('./task-schemas'));

/** A title and a due day as typed (DD/MM/AAAA or empty), checked by the API's own contract. */
export async function checkNewTask(
  title: string,
  due: string,
  patientId?: string,
): Promise<Checked<{ title: string; dueDate: string | null; patientId?: string }>> {
  const { createTaskBody } = await loadTaskSchemas();
  const parsed = createTaskBody.safeParse({ title, dueDate: dmyToIsoDate(due), ...(patientId ? { patientId } : {}) });
  if (!parsed.success) return refusal(parsed.error.issues[0]);
  return { ok: true, value: { title: parsed.data.title, dueDate: parsed.data.dueDate ?? null, ...(patientId ? { patientId } : {}) } };
}

export async function checkEdit(title: string, due: string): Promise<Checked<{ title: string; dueDate: string | null }>> {
  const { updateTaskBody } = await loadTaskSchemas();
  const parsed = updateTaskBody.safeParse({ title, dueDate: dmyToIsoDate(due) });
  if (!parsed.success) return refusal(parsed.error.issues[0]);
  return { ok: true, value: { title: parsed.data.title ?? title, dueDate: parsed.data.dueDate ?? null } };
}
