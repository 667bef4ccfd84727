import { z } from 'zod';
import { msg } from '../messages';

export const historyEntryBody = z.object({
  title: z.string({ error: msg.required('título') }).trim().min(1, { error: msg.required('título') }).max(200, { error: msg.maxLength(200) }),
  date: z.string({ error: msg.required('fecha') }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: msg.invalidDate() }),
  /** Rich text as HTML; the server keeps only an allow-list of tags. */
  body: z.string().max(500_000, { error: 'El texto es demasiado largo' }).default(''),
  private: z.boolean().default(false),
});
export type HistoryEntryBody = z.input<typeof historyEntryBody>;

export const historyEntryResponse = z.object({
  id: z.uuid(),
  title: z.string(),
  date: z.string(),
  body: z.string(),
  private: z.boolean(),
  author: z.object({ id: z.uuid(), name: z.string() }),
  revisions: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type HistoryEntry = z.infer<typeof historyEntryResponse>;

export const historyRevisionResponse = z.object({
  id: z.uuid(),
  title: z.string(),
  body: z.string(),
  date: z.string(),
  editor: z.object({ id: z.uuid(), name: z.string() }),
  createdAt: z.string(),
});

export const accessLogResponse = z.object({
  id: z.uuid(),
  user: z.object({ id: z.uuid(), name: z.string() }),
  patient: z.object({ id: z.uuid(), name: z.string() }),
  action: z.string(),
  createdAt: z.string(),
});
