import { z } from 'zod';
import { textField } from '../fields';
import { msg } from '../messages';
import { DEFAULT_TIME_ZONE, isHHmm, isValidTimeZone, isoWeekday, toLocal } from '../time/zoned';

/**
 * A therapist's office hours for the chat (settings `notifications`): when enabled, a patient who
 * writes outside them gets the automatic reply, once per stretch of unread messages.
 */
export const CHAT_AUTO_REPLY_MAX = 1000;
const hhmm = textField('Hora').refine(isHHmm, { error: 'Hora no válida (HH:mm)' });

export const officeHoursSlot = z
  .object({ weekday: z.number().int().min(1).max(7), start: hhmm, end: hhmm })
  .refine((s) => s.start < s.end, { error: 'La hora de fin debe ser posterior a la de inicio', path: ['end'] });

export const chatOfficeHoursBody = z.object({
  enabled: z.boolean(),
  timeZone: textField('Zona horaria').refine(isValidTimeZone, { error: 'Zona horaria no válida' }).default(DEFAULT_TIME_ZONE),
  slots: z.array(officeHoursSlot).max(28, { error: msg.arrayMax(28) }),
  autoReply: textField('Respuesta automática')
    .trim()
    .max(CHAT_AUTO_REPLY_MAX, { error: msg.maxLength(CHAT_AUTO_REPLY_MAX) }),
});
export type ChatOfficeHours = z.output<typeof chatOfficeHoursBody>;
export const chatOfficeHoursResponse = z.object({
  enabled: z.boolean(),
  timeZone: z.string(),
  slots: z.array(z.object({ weekday: z.number().int(), start: z.string(), end: z.string() })),
  autoReply: z.string(),
});

export const DEFAULT_CHAT_AUTO_REPLY =
  'Gracias por tu mensaje. Ahora estoy fuera de mi horario de atención; te responderé en cuanto pueda. Si es una urgencia, llama al 112.';

/** Whether `at` falls outside the office hours (enabled, with a reply to send). */
export function outsideOfficeHours(h: ChatOfficeHours, at: Date): boolean {
  if (!h.enabled || !h.autoReply) return false;
  const local = toLocal(at, h.timeZone);
  const weekday = isoWeekday(local.day);
  return !h.slots.some((s) => s.weekday === weekday && s.start <= local.time && local.time < s.end);
}
