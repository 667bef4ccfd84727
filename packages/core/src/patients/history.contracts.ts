import { z } from 'zod';
import { dayField, requiredText, textField } from '../fields';
import { msg } from '../messages';

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
  /** The session this entry is the note of, when written from one ("Escribir nota"). */
  sessionId: z.uuid().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type HistoryEntry = z.infer<typeof historyEntryResponse>;

/** A draft untouched this long is swept (the server's hourly sweep). */
export const HISTORY_DRAFT_TTL_DAYS = 30;

/**
 * An unsaved entry as the form holds it, autosaved while typing: nothing is required yet, and the date
 * is the text typed so far (DD/MM/AAAA, maybe unfinished). Bounds are looser than the entry's, so a
 * title one character too long is still kept while the form shows its error.
 */
export const historyDraftBody = z.object({
  title: textField('título')
    .max(1000, { error: msg.maxLength(1000) })
    .default(''),
  date: textField('fecha')
    .max(40, { error: msg.maxLength(40) })
    .default(''),
  body: textField('Texto').max(500_000, { error: 'El texto es demasiado largo' }).default(''),
  private: z.boolean().default(false),
});
export type HistoryDraftBody = z.input<typeof historyDraftBody>;

export const historyDraftResponse = z.object({
  /** null: a new entry; otherwise the entry being edited. */
  entryId: z.uuid().nullable(),
  title: z.string(),
  date: z.string(),
  body: z.string(),
  private: z.boolean(),
  updatedAt: z.string(),
});
export type HistoryDraft = z.infer<typeof historyDraftResponse>;

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
