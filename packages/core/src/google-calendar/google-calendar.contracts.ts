import { z } from 'zod';
import { msg } from '../messages';
import { instantSchema } from '../time/time.contracts';

/**
 * Google Calendar (Ajustes › Integraciones, spec §2): a therapist's own connection in a workspace.
 * Routes under `/api/v1/workspaces/:workspaceId/google-calendar/…` (the caller's own connection,
 * never another member's); Google's push notifications at `/api/v1/google-calendar/notifications`.
 */

/** How a session is titled in Google: never the motive or notes; initials unless the therapist chooses otherwise. */
export const GOOGLE_TITLE_FORMATS = ['initials', 'first_name', 'full_name', 'generic'] as const;
export type GoogleTitleFormat = (typeof GOOGLE_TITLE_FORMATS)[number];
export const GOOGLE_TITLE_FORMAT_LABELS: Record<GoogleTitleFormat, string> = {
  initials: 'Iniciales del paciente (p. ej. «A. G.»)',
  first_name: 'Nombre del paciente',
  full_name: 'Nombre y apellidos del paciente',
  generic: '«Sesión», sin datos del paciente',
};
/** The most calendars a therapist may read busy times from. */
export const GOOGLE_BUSY_CALENDARS_MAX = 20;

/** A calendar of the Google account, to choose where busy times come from (the Diván one is never listed). */
export const googleCalendarItem = z.object({
  id: z.string(),
  name: z.string(),
  primary: z.boolean(),
  /** Its colour in Google (`#rrggbb`), when it has one. */
  color: z.string().nullable(),
});
export type GoogleCalendarItem = z.infer<typeof googleCalendarItem>;

/** GET …/google-calendar: the caller's connection. `enabled: false` when the server has no Google keys (hide the card). */
export const googleCalendarStatus = z.object({
  enabled: z.boolean(),
  connected: z.boolean(),
  /** The Google account's email (null when not connected). */
  googleEmail: z.string().nullable(),
  connectedAt: z.string().nullable(),
  titleFormat: z.enum(GOOGLE_TITLE_FORMATS),
  /** The account's calendars, read from Google when connected ([] otherwise, or when Google did not answer). */
  calendars: z.array(googleCalendarItem),
  /** The chosen calendars whose busy times block the agenda and the public booking page. */
  busyCalendarIds: z.array(z.string()),
  /** When the last sync from Google finished (null before the first). */
  lastSyncedAt: z.string().nullable(),
  /** Sessions existing before connecting were also sent (the «sincronizar también…» button was pressed). */
  existingSynced: z.boolean(),
});
export type GoogleCalendarStatus = z.infer<typeof googleCalendarStatus>;

/** POST …/google-calendar/authorize → the Google consent page to send the browser to. */
export const googleCalendarAuthorizeResponse = z.object({ url: z.string() });

/**
 * POST …/google-calendar/callback: what Google put on `${PUBLIC_URL}/settings/integrations/google/callback`
 * (the web page posts it here). Answers the status. A missing refresh token is `google_refresh_token_missing`.
 */
export const googleCalendarCallbackBody = z.object({
  code: z
    .string()
    .min(1, { error: msg.required('código') })
    .max(2000),
  state: z
    .string()
    .min(1, { error: msg.required('estado') })
    .max(200),
});
export type GoogleCalendarCallback = z.infer<typeof googleCalendarCallbackBody>;

/** PUT …/google-calendar/settings: any subset. Calendar ids must be among the account's calendars. */
export const googleCalendarSettingsBody = z.object({
  titleFormat: z.enum(GOOGLE_TITLE_FORMATS, { error: 'Formato de título inválido' }).optional(),
  busyCalendarIds: z
    .array(z.string().min(1).max(300))
    .max(GOOGLE_BUSY_CALENDARS_MAX, { error: `Como mucho ${GOOGLE_BUSY_CALENDARS_MAX} calendarios` })
    .optional(),
});
export type GoogleCalendarSettings = z.infer<typeof googleCalendarSettingsBody>;

/** POST …/google-calendar/sync-existing: the future sessions created before connecting are queued. */
export const googleCalendarSyncExistingResponse = z.object({ queued: z.number().int().nonnegative() });

/** GET …/google-calendar/busy?from&to (≤ 62 days): the caller's busy times from Google, as grey blocks (no title, no detail). */
export const googleBusyQuery = z.object({ from: instantSchema, to: instantSchema });
export const GOOGLE_BUSY_RANGE_MAX_DAYS = 62;
export const googleBusyBlock = z.object({ start: z.string(), end: z.string() });
export const googleBusyResponse = z.object({ items: z.array(googleBusyBlock) });
export type GoogleBusyBlock = z.infer<typeof googleBusyBlock>;

/** GET …/google-calendar/sessions/:sessionId: the session's Google event, if synced, and its Meet link (online sessions with Google Meet). */
export const googleSessionParams = z.object({
  workspaceId: z.uuid({ error: 'Espacio de trabajo inválido' }),
  sessionId: z.uuid({ error: msg.invalid('Sesión') }),
});
export const googleSessionLinkResponse = z.object({ synced: z.boolean(), meetLink: z.string().nullable() });
export type GoogleSessionLink = z.infer<typeof googleSessionLinkResponse>;
