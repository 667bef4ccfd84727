import { z } from 'zod';
import { msg } from '../messages';
import { optionalText, requiredText } from '../fields';
import { hhmmSchema, instantSchema, isoDaySchema, timeZoneSchema } from '../time/zoned';
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
  z.number({ error: msg.invalid(field) }).int({ error: msg.invalid(field) }).min(0, { error: msg.invalid(field) }).max(SESSION_PRICE_MAX, { error: msg.max('10.000 €') });

/** Minutes before the session; the plan caps how many (checked by the server: it knows the plan). */
const reminders = z
  .array(z.number({ error: msg.invalid('Recordatorio') }).int({ error: msg.invalid('Recordatorio') }).min(0, { error: msg.invalid('Recordatorio') }).max(REMINDER_MAX_OFFSET_MINUTES, { error: msg.max('30 días') }), {
    error: msg.invalid('Recordatorios'),
  })
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

const startBeforeEnd = (b: { from?: string; to?: string }) => !b.from || !b.to || b.from < b.to;

/** Create: `therapistId` defaults to the caller; the rest not given come from the patient and the plan's defaults. */
export const createSessionBody = z
  .object({ patientId: z.uuid({ error: msg.invalid('Paciente') }), ...sessionFields })
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
  })
  .refine(startBeforeEnd, { error: sessionMessages.startBeforeEnd(), path: ['to'] });
export type CreateSessionBody = z.input<typeof createSessionBody>;

/** Update: any subset; moving needs day, from and to together (a partial time is ambiguous), and a zone comes with them. */
export const updateSessionBody = z
  .object(sessionFields)
  .partial()
  .refine(startBeforeEnd, { error: sessionMessages.startBeforeEnd(), path: ['to'] })
  .refine((b) => [b.day, b.from, b.to, b.timeZone].every((v) => v === undefined) || [b.day, b.from, b.to].every((v) => v !== undefined), {
    error: 'Para mover la sesión indica el día, la hora de inicio y la de fin',
    path: ['day'],
  });
export type UpdateSessionBody = z.input<typeof updateSessionBody>;

export const cancelSessionBody = z.object({ reason: enumOf(CANCELLATION_REASON) });
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
  /** The therapist's commission for this session, cents; null when their membership sets none. */
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
  /** Clinical (patient_histories): the session's note, when one is written from it. */
  noteId: z.uuid().nullable().optional(),
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
export const sessionListResponse = z.object({ items: z.array(sessionResponse) });

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
export const locationResponse = z.object({ id: z.uuid(), name: z.string(), kind: enumOf(LOCATION_KIND), address: z.string().nullable(), createdAt: z.string() });
export type WorkspaceLocation = z.infer<typeof locationResponse>;
