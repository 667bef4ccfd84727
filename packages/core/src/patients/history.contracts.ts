import { z } from 'zod';
import { dayField, requiredText, textField } from '../fields';

export const historyEntryBody = z.object({
  title: requiredText('título', 200),
  date: dayField('fecha'),
  /** Rich text as HTML; the server keeps only an allow-list of tags. */
  body: textField('Texto').max(500_000, { error: 'El texto es demasiado largo' }).default(''),
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
