/**
 * The building blocks of every request contract: what a client may send as text, a day, an instant or a
 * number stored in an `integer` column. PostgreSQL refuses a NUL in text, a day that is not in the calendar
 * and an integer past int4 with an error deep in a query; these answer a Spanish 400 before that.
 */
import { z } from 'zod';
import { msg } from './messages';
import { isPersonName, personNameMessage } from './person-name';
import { DEFAULT_TIME_ZONE, isIsoDay, todayIn } from './time/zoned';

/** The largest value of a PostgreSQL `integer` (int4) column. */
export const INT4_MAX = 2_147_483_647;

/** True when `s` holds no NUL character (PostgreSQL text cannot store one). */
export const hasNoNul = (s: string): boolean => !s.includes('\u0000');

/** An id as the API gives them (a UUID, any version): for ids read from a URL before asking the server. */
export const isUuid = (v: string | null | undefined): v is string =>
  !!v && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

const capitalized = (label: string) => label.charAt(0).toUpperCase() + label.slice(1);

/**
 * The one request string: every text a client sends (body, query, path) starts here. `label` names the
 * field in the Spanish message ('Nombre contiene caracteres no permitidos'); `error` is the message when
 * the value is missing or not a string. Chain `.trim()`, `.min()`, `.max()`, `.regex()` as on `z.string()`.
 */
export const textField = (label: string, params?: { error?: string }) =>
  z.string(params).refine(hasNoNul, { error: msg.forbiddenChars(capitalized(label)), abort: true });

/** A required text: trimmed, not empty, at most `max` characters. `field` is the Spanish name, lower case ('nombre'). */
export const requiredText = (field: string, max: number) =>
  textField(field, { error: msg.required(field) })
    .trim()
    .min(1, { error: msg.required(field) })
    .max(max, { error: msg.maxLength(max) });

/** An optional text of a form: trimmed, at most `max`; '' means "clear it" and becomes null. */
export const optionalText = (label: string, max: number) =>
  textField(label)
    .trim()
    .max(max, { error: msg.maxLength(max) })
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

/** A required calendar day 'YYYY-MM-DD' (checked against the calendar by `isIsoDay`). */
export const dayField = (field: string) =>
  z
    .string({ error: msg.required(field) })
    .refine(isIsoDay, { error: msg.invalidDate() })
    .meta({ format: 'date' });

/** An optional calendar day of a form: '' means "clear it" and becomes null. */
export const optionalDayField = () =>
  z
    .string()
    .refine((v) => v === '' || isIsoDay(v), { error: msg.invalidDate() })
    .meta({ pattern: '^$|^\\d{4}-\\d{2}-\\d{2}$' }) // the OpenAPI document's hint; isIsoDay is the check
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

/** A birthdate: an optional day from 1900-01-01 to today (in Spain). */
export const birthdateField = () =>
  optionalDayField().refine((v) => !v || (v >= '1900-01-01' && v <= todayIn(DEFAULT_TIME_ZONE)), { error: msg.invalidDate() });

/** A person's required name (first name, a signer's full name): `requiredText` and letters only (person-name.ts). */
export const personNameField = (field: string, max: number) =>
  // An empty one is only «obligatorio», not also «solo letras».
  requiredText(field, max).refine((v) => !v || isPersonName(v), { error: personNameMessage() });

/** A person's optional name (last names): `optionalText` and letters only; '' still clears it. */
export const optionalPersonName = (label: string, max: number) =>
  optionalText(label, max).refine((v) => !v || isPersonName(v), { error: personNameMessage() });

/** The id that no row has: what a public link's garbage id becomes (`linkId`). */
export const NO_SUCH_ID = '00000000-0000-0000-0000-000000000000';
const LINK_TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

/**
 * The token of a link someone was sent or given (a booking's manage link, a signing link, a pay link, a
 * connect invitation, a sign-up or reset link), in a path or a body. A garbage token is only a link that
 * does not exist: it becomes '' (which no link has), so the route answers its own «not found» (404) like
 * for any unknown link, never a 400 about its length or its characters. No NUL ever reaches a query.
 */
export const linkToken = () =>
  z
    .string({ error: msg.invalid('Enlace') })
    .transform((v) => (LINK_TOKEN.test(v) ? v : ''))
    .meta({ pattern: LINK_TOKEN.source }); // the OpenAPI document's hint; garbage is not refused

/** An id in a public link (a booking page, a hold, a public picture, a video room): garbage becomes NO_SUCH_ID, found nowhere (404). */
export const linkId = () =>
  z
    .string({ error: msg.invalid('Enlace') })
    .transform((v) => (isUuid(v) ? v : NO_SUCH_ID))
    .meta({ format: 'uuid' });
