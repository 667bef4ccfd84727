import { z } from 'zod';
import { msg } from '../messages';
import { instantSchema } from '../time/time.contracts';
import { sessionMessages } from './session.constants';

/** The reminder offsets offered in settings and in the session form (minutes before the session). */
export const REMINDER_OPTIONS = [
  { minutes: 15, label: '15 min antes' },
  { minutes: 60, label: '1 h antes' },
  { minutes: 120, label: '2 h antes' },
  { minutes: 1440, label: '1 día antes' },
  { minutes: 2880, label: '2 días antes' },
  { minutes: 10080, label: '1 semana antes' },
] as const;

/** A member who never chose: one reminder a day before (every plan allows at least one). */
export const DEFAULT_REMINDER_OFFSETS: readonly number[] = [1440];

/** "1 día antes", "90 min antes"… for any offset, the offered ones by their label. */
export function reminderLabel(minutes: number): string {
  const offered = REMINDER_OPTIONS.find((o) => o.minutes === minutes);
  if (offered) return offered.label;
  if (minutes % 1440 === 0) return `${minutes / 1440} días antes`;
  if (minutes % 60 === 0) return `${minutes / 60} h antes`;
  return `${minutes} min antes`;
}

const offered = new Set<number>(REMINDER_OPTIONS.map((o) => o.minutes));

/** The member's notification settings (settings `notifications`) in a workspace. */
export const notificationSettingsBody = z.strictObject({
  /** Reminders a new session gets when created without any; the plan caps how many (the server checks it). */
  reminderOffsets: z
    .array(
      z
        .number({ error: msg.invalid('Recordatorio') })
        .int({ error: msg.invalid('Recordatorio') })
        .refine((m) => offered.has(m), { error: 'Elige un recordatorio de la lista' }),
      {
        error: msg.invalid('Recordatorios'),
      },
    )
    .max(REMINDER_OPTIONS.length, { error: msg.arrayMax(REMINDER_OPTIONS.length) })
    .refine((r) => new Set(r).size === r.length, { error: sessionMessages.repeatedReminder() }),
  /** Mail me when a patient cancels a session of mine (from the patient's own link or app). */
  notifyPatientCanceled: z.boolean({ error: msg.invalid('Aviso de cancelación') }),
  /** Mail me when a patient books a session with me online. */
  notifyPatientBooked: z.boolean({ error: msg.invalid('Aviso de reserva') }),
});
export type NotificationSettingsBody = z.infer<typeof notificationSettingsBody>;

export const notificationSettingsResponse = notificationSettingsBody.extend({
  /** How many reminders per session the workspace's plan allows. */
  maxReminders: z.number().int(),
  /** False while nobody has saved them: the defaults are shown. */
  saved: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsResponse>;

/** A therapist's private calendar feed (iCal) in a workspace. */
export const calendarFeedBody = z.strictObject({
  /** Full patient names in the events instead of initials. */
  showFullNames: z.boolean({ error: msg.invalid('Nombres completos') }),
});
export const calendarFeedResponse = z.object({
  active: z.boolean(),
  showFullNames: z.boolean(),
  createdAt: instantSchema.nullable(),
  lastReadAt: instantSchema.nullable(),
  /** Only in the answer that makes (or remakes) it: the URL is kept hashed and cannot be shown again. */
  url: z.string().optional(),
});
export type CalendarFeed = z.infer<typeof calendarFeedResponse>;
/** Sessions the feed covers: from this many days back to this many ahead. */
export const CALENDAR_FEED_DAYS_BACK = 60;
export const CALENDAR_FEED_DAYS_AHEAD = 366;
