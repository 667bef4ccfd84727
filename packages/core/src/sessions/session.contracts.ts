import { z } from 'zod';
import { msg } from '../messages';
import { optionalText, requiredText } from '../fields';
import { hhmmSchema, instantSchema, isoDaySchema, timeZoneSchema } from '../time/time.contracts';
import { MODALITY } from '../patients/patient.constants';
import {
  CANCELLATION_REASON,
  PAYMENTS_RECEIVER,
  PAYMENT_STATUS,
  PAYMENT_TYPE,
  REMINDER_MAX_OFFSET_MINUTES,
  SESSION_PRICE_MAX,
  SESSION_STATUS,
  VIDEO_CONFERENCE,
  sessionMessages,
} from './session.constants';

const enumOf = <K extends string>(v: { values: K[] }) => z.enum(v.values as [K, ...K[]], { error: msg.invalidEnum() });
const cents = (field: string) =>
  z
    .number({ error: msg.invalid(field) })
    .int({ error: msg.invalid(field) })
    .min(0, { error: msg.invalid(field) })
    .max(SESSION_PRICE_MAX, { error: msg.max('10.000 €') });

/** Minutes before the session; the plan caps how many (checked by the server: it knows the plan). */
const reminders = z
  .array(
    z
      .number({ error: msg.invalid('Recordatorio') })
      .int({ error: msg.invalid('Recordatorio') })
      .min(0, { error: msg.invalid('Recordatorio') })
      .max(REMINDER_MAX_OFFSET_MINUTES, { error: msg.max('30 días') }),
    {
      error: msg.invalid('Recordatorios'),
    },
  )
  .max(10, { error: msg.arrayMax(10) })
  .refine((r) => new Set(r).size === r.length, { error: sessionMessages.repeatedReminder() });

/** The editable fields of a session. Day and times are local to `timeZone` (default Europe/Madrid). */
const sessionFields = {
  therapistId: z.uuid({ error: msg.invalid('Terapeuta') }),
  day: isoDaySchema,
  from: hhmmSchema,
  to: hhmmSchema,
  timeZone: timeZoneSchema,
  /** Cents; default the patient's standard session price. */
  price: cents('Precio'),
  modality: enumOf(MODALITY),
  locationId: z.uuid({ error: msg.invalid('Ubicación') }).nullable(),
  reminders,
  videoConference: enumOf(VIDEO_CONFERENCE).nullable(),
  paymentStatus: enumOf(PAYMENT_STATUS),
  paymentType: enumOf(PAYMENT_TYPE).nullable(),
  invoiced: z.boolean({ error: msg.invalid('Facturada') }),
  chargeDate: isoDaySchema.nullable(),
};

/** A series' repetition (see @divan/core/series): the first session is the body's day, from and to. */
export const SERIES_FREQUENCY = {
  values: ['weekly', 'biweekly', 'monthly'] as ('weekly' | 'biweekly' | 'monthly')[],
  labels: { weekly: 'Cada semana', biweekly: 'Cada dos semanas', monthly: 'Cada mes' },
};
export const EDIT_SCOPE = {
  values: ['this', 'following', 'all'] as ('this' | 'following' | 'all')[],
  labels: { this: 'Solo esta', following: 'Esta y las siguientes', all: 'Todas' },
};
const seriesEnd = z.union(
  [
    z.strictObject({ until: isoDaySchema }),
    z.strictObject({
      count: z
        .number({ error: msg.invalid('Número de sesiones') })
        .int({ error: msg.invalid('Número de sesiones') })
        .min(2, { error: 'Una serie tiene al menos 2 sesiones' })
        .max(200, { error: 'Una serie tiene como máximo 200 sesiones' }),
    }),
  ],
  { error: 'Indica hasta qué fecha se repite o cuántas sesiones tiene la serie' },
);
export const recurrenceInput = z.strictObject({
  frequency: enumOf(SERIES_FREQUENCY),
  end: seriesEnd,
  /** Monthly only: the weekday's position in the month (1–4, -1 = the last); by default the start day's. */
  monthlyWeek: z
    .union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(-1)], { error: msg.invalid('Semana del mes') })
    .optional(),
});
export type RecurrenceInput = z.infer<typeof recurrenceInput>;
const editScope = enumOf(EDIT_SCOPE);

const startBeforeEnd = (b: { from?: string; to?: string }) => !b.from || !b.to || b.from < b.to;

/** Create: `therapistId` defaults to the caller; the rest not given come from the patient and the plan's defaults. */
export const createSessionBody = z
  .object({ patientId: z.uuid({ error: msg.invalid('Paciente') }), ...sessionFields, recurrence: recurrenceInput })
  .partial({
    therapistId: true,
    timeZone: true,
    price: true,
    modality: true,
    locationId: true,
    reminders: true,
    videoConference: true,
    paymentStatus: true,
    paymentType: true,
    invoiced: true,
    chargeDate: true,
    recurrence: true,
  })
  .refine(startBeforeEnd, { error: sessionMessages.startBeforeEnd(), path: ['to'] });
export type CreateSessionBody = z.input<typeof createSessionBody>;

/** Update: any subset; moving needs day, from and to together (a partial time is ambiguous), and a zone comes with them. */
export const updateSessionBody = z
  .object({ ...sessionFields, scope: editScope, recurrence: recurrenceInput.partial() })
  .partial()
  .refine(startBeforeEnd, { error: sessionMessages.startBeforeEnd(), path: ['to'] })
  .refine((b) => b.recurrence === undefined || b.scope === 'following' || b.scope === 'all', {
    error: 'Para cambiar la frecuencia o el final elige «Esta y las siguientes» o «Todas»',
    path: ['recurrence'],
  })
  .refine((b) => [b.day, b.from, b.to, b.timeZone].every((v) => v === undefined) || [b.day, b.from, b.to].every((v) => v !== undefined), {
    error: 'Para mover la sesión indica el día, la hora de inicio y la de fin',
    path: ['day'],
  });
export type UpdateSessionBody = z.input<typeof updateSessionBody>;

/** `scope` (default 'this') cancels one occurrence of a series, it and the following, or all not yet started. */
export const cancelSessionBody = z.object({ reason: enumOf(CANCELLATION_REASON), scope: editScope.optional() });
export const paySessionBody = z.object({ paymentType: enumOf(PAYMENT_TYPE), chargeDate: isoDaySchema.nullable().optional() });

export const sessionIdParams = z.object({ workspaceId: z.uuid(), sessionId: z.uuid() });

/**
 * The calendar's read: sessions starting in [from, to), bounded (SESSION_RANGE_MAX_DAYS). Without
 * them, the current week (Monday to Monday, Europe/Madrid); `to` alone is refused, `from` alone reads a week.
 */
export const sessionListQuery = z.object({
  from: instantSchema.optional(),
  to: instantSchema.optional(),
  therapistId: z.uuid({ error: msg.invalid('Terapeuta') }).optional(),
  patientId: z.uuid({ error: msg.invalid('Paciente') }).optional(),
  status: enumOf(SESSION_STATUS).optional(),
});
export type SessionListQuery = z.infer<typeof sessionListQuery>;

const ref = z.object({ id: z.uuid(), name: z.string() });

/** The series a session is an occurrence of; `moved`: its day or time was changed for it alone. */
export const sessionSeriesRef = z.object({
  id: z.uuid(),
  index: z.number().int(),
  frequency: enumOf(SERIES_FREQUENCY),
  /** Spanish, e.g. "Cada semana, los martes". */
  description: z.string(),
  moved: z.boolean(),
});

/**
 * A session as the member reads it. Fields guarded by another subject (SESSION_FIELDS) are optional:
 * absent when the member may not read them.
 */
export const sessionResponse = z.object({
  id: z.uuid(),
  patient: ref,
  therapist: ref,
  day: z.string(),
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  status: enumOf(SESSION_STATUS),
  cancellationReason: enumOf(CANCELLATION_REASON).nullable(),
  canceledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  price: z.number().int(),
  /** The therapist's fee for this session (its price less the workspace's commission), cents; null when their membership sets no commission. */
  fee: z.number().int().nullable(),
  paymentsReceiver: enumOf(PAYMENTS_RECEIVER),
  paymentStatus: enumOf(PAYMENT_STATUS),
  paymentType: enumOf(PAYMENT_TYPE).nullable(),
  paidAt: z.string().nullable(),
  modality: enumOf(MODALITY),
  location: ref.nullable(),
  reminders: z.array(z.number().int()),
  invoiced: z.boolean(),
  chargeDate: z.string().nullable(),
  videoConference: enumOf(VIDEO_CONFERENCE).nullable(),
  series: sessionSeriesRef.nullable(),
  /** Clinical (patient_histories): the session's note, when one is written from it. */
  noteId: z.uuid().nullable().optional(),
  /** Clinical (patient_histories): completed and still without its note. */
  noteMissing: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Session = z.infer<typeof sessionResponse>;

/** Another session overlapping a new or moved one: a warning, never a refusal. */
export const sessionConflict = z.object({
  id: z.uuid(),
  kind: z.enum(['therapist', 'location']),
  therapistId: z.uuid(),
  locationId: z.uuid().nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
});
export type SessionConflict = z.infer<typeof sessionConflict>;

export const sessionWriteResponse = z.object({ session: sessionResponse, conflicts: z.array(sessionConflict) });
/** Create: with `recurrence`, the first session, the conflicts over all created and the series. */
export const sessionCreateResponse = sessionWriteResponse.extend({
  series: z.object({ id: z.uuid(), count: z.number().int() }).optional(),
});
/** Update: the chosen session, the conflicts over the written ones, how many were updated (or created) and removed. */
export const sessionUpdateResponse = sessionWriteResponse.extend({ updated: z.number().int(), removed: z.number().int() });
export const sessionCancelResponse = z.object({ session: sessionResponse, canceled: z.number().int() });
export const sessionListResponse = z.object({ items: z.array(sessionResponse) });

/** The calendar grid's week (sessions/session-grid.ts): the same range read, as columns with each name once. */
const named = z.object({ id: z.uuid(), name: z.string() });
const column = z.array(z.number().int());
export const sessionGridResponse = z.object({
  days: z.array(z.string()),
  therapists: z.array(named),
  patients: z.array(z.string()),
  locations: z.array(named),
  series: z.array(z.object({ id: z.uuid(), description: z.string() })),
  sessions: z.object({
    id: z.array(z.uuid()),
    day: column,
    from: column,
    to: column,
    status: column,
    therapist: column,
    patient: column,
    location: column,
    series: column,
    flags: column,
  }),
});

// Locations: the workspace's rooms and addresses.
export const LOCATION_KIND = { values: ['room', 'address'] as ('room' | 'address')[], labels: { room: 'Sala', address: 'Dirección' } };
export const locationBody = z.object({
  name: requiredText('nombre', 80),
  kind: enumOf(LOCATION_KIND).default('room'),
  address: optionalText('Dirección', 200),
});
export const updateLocationBody = z.object({
  name: locationBody.shape.name.optional(),
  kind: enumOf(LOCATION_KIND).optional(),
  address: locationBody.shape.address,
});
export const locationIdParams = z.object({ workspaceId: z.uuid(), locationId: z.uuid() });
export const locationResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  kind: enumOf(LOCATION_KIND),
  address: z.string().nullable(),
  createdAt: z.string(),
});
export type WorkspaceLocation = z.infer<typeof locationResponse>;
