/**
 * Booking services (spec §3 "Booking service", issue 14): what a therapist offers on the public booking
 * page — when (a weekly schedule of local time ranges in a time zone), how long, how far ahead, at what
 * price and modality, and who may book. The rules beyond each field's shape (§5) are in
 * booking-service.rules.ts; the create body runs them, an update runs them on the merged service.
 */
import { z } from 'zod';
import { optionalText, requiredText } from '../fields';
import { msg } from '../messages';
import { MODALITY } from '../patients/patient.constants';
import { createSessionBody } from '../sessions/session.contracts';
import { DEFAULT_REMINDER_OFFSETS } from '../sessions/reminders.contracts';
import { SESSION_PRICE_MAX } from '../sessions/session.constants';
import { DEFAULT_TIME_ZONE } from '../time/zoned';
import { hhmmSchema, timeZoneSchema } from '../time/time.contracts';
import { workspaceIdParams } from '../workspaces/workspace.contracts';
import {
  BOOKING_DURATION_MAX,
  BOOKING_DURATION_MIN,
  BOOKING_GAP_MAX,
  BOOKING_LIMIT_PER_PATIENT_MAX,
  BOOKING_PAYMENT,
  BOOKING_SERVICE_DESCRIPTION_MAX,
  BOOKING_SERVICE_STATUS,
  BOOKING_SERVICE_TITLE_MAX,
  SCHEDULE_RANGES_PER_DAY_MAX,
  bookingMessages,
  type IsoWeekday,
} from './booking.constants';
import { bookingServiceProblems } from './booking-service.rules';
import { type Timespan } from './timespan';
import { timespanSchema } from './timespan.contracts';

const enumOf = <K extends string>(v: { values: K[] }) => z.enum(v.values as [K, ...K[]], { error: msg.invalidEnum() });
/** An integer field; `invalid` is its Spanish message ('Precio inválido'), `maxMessage` the one above `max`. */
const int = (invalid: string, min: number, max: number, maxMessage = msg.max(max)) =>
  z.number({ error: invalid }).int({ error: invalid }).min(min, { error: invalid }).max(max, { error: maxMessage });

/** A local wall-clock range 'HH:mm'–'HH:mm' of one day (end exclusive); `from` < `to` is a rule. */
export const timeRangeSchema = z.object({ from: hhmmSchema, to: hhmmSchema });
export type TimeRange = z.infer<typeof timeRangeSchema>;

const dayRanges = z
  .array(timeRangeSchema, { error: 'Horario inválido' })
  .max(SCHEDULE_RANGES_PER_DAY_MAX, { error: msg.arrayMax(SCHEDULE_RANGES_PER_DAY_MAX) })
  .default([]);

/** For each ISO weekday ('1' Monday … '7' Sunday) its ranges; a day left out has none. */
export const weeklyScheduleSchema = z.object(
  { 1: dayRanges, 2: dayRanges, 3: dayRanges, 4: dayRanges, 5: dayRanges, 6: dayRanges, 7: dayRanges },
  { error: 'Horario inválido' },
);
export type WeeklySchedule = Record<IsoWeekday, TimeRange[]>;

/** Minutes before the session, as a session's reminders (the plan caps how many: the server checks it). */
const reminders = createSessionBody.shape.reminders.unwrap();

/** Every setting of a service, with the defaults a new one gets. */
const bookingServiceFields = z.object({
  title: requiredText('título', BOOKING_SERVICE_TITLE_MAX),
  description: optionalText('Descripción', BOOKING_SERVICE_DESCRIPTION_MAX).default(null),
  schedule: weeklyScheduleSchema,
  /** The zone the schedule's times are read in (the therapist's). */
  timeZone: timeZoneSchema.default(DEFAULT_TIME_ZONE),
  priceCents: int(msg.invalid('Precio'), 0, SESSION_PRICE_MAX, msg.max('10.000 €')),
  modality: enumOf(MODALITY),
  locationId: z.uuid({ error: 'Ubicación inválida' }).nullable().default(null),
  durationMinutes: int(bookingMessages.duration(), BOOKING_DURATION_MIN, BOOKING_DURATION_MAX, bookingMessages.duration()),
  /** Free minutes kept before and after every session of the therapist (booked online or not). */
  gapMinutes: int(bookingMessages.gap(), 0, BOOKING_GAP_MAX, bookingMessages.gap()).default(0),
  /** A slot starts at least this long after the moment of booking… */
  minNotice: timespanSchema('Antelación mínima').default({ amount: 24, unit: 'hours' }),
  /** …and at most this long after it. */
  maxNotice: timespanSchema('Antelación máxima').default({ amount: 2, unit: 'months' }),
  reminders: reminders.default([...DEFAULT_REMINDER_OFFSETS]),
  /** Someone who is not yet a patient may book (their patient file is created, source "website"). */
  allowNewPatients: z.boolean({ error: 'Indica si admite pacientes nuevos' }).default(true),
  /** Upcoming sessions a patient may hold booked through this service at once; null: no limit. */
  bookingLimitPerPatient: int(msg.invalid('Límite de reservas por paciente'), 1, BOOKING_LIMIT_PER_PATIENT_MAX).nullable().default(null),
  status: enumOf(BOOKING_SERVICE_STATUS).default('active'),
  /** Pay the session, or save a card, at booking (through the payments gateway's checkout). */
  payment: enumOf(BOOKING_PAYMENT).default('none'),
});

/** A service as the rules and the slot computation read it (every field present). */
export type BookingServiceSettings = z.output<typeof bookingServiceFields>;

/** Create: the §5 rules run here too, so a form marks each problem on its field (once: not where a field's own check spoke). */
export const createBookingServiceBody = bookingServiceFields.superRefine((service, ctx) => {
  const spoken = ctx.issues.map((i) => (i.path ?? []).join('.'));
  const near = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
  for (const p of bookingServiceProblems(service)) {
    if (!spoken.some((s) => near(s, p.path))) ctx.addIssue({ code: 'custom', path: p.path.split('.'), message: p.message });
  }
});
export type CreateBookingServiceBody = z.input<typeof createBookingServiceBody>;

/** Update: any subset, without defaults; the server runs `bookingServiceProblems` on the merged service. */
export const updateBookingServiceBody = z
  .object({
    title: bookingServiceFields.shape.title,
    description: optionalText('Descripción', BOOKING_SERVICE_DESCRIPTION_MAX),
    schedule: weeklyScheduleSchema,
    timeZone: timeZoneSchema,
    priceCents: bookingServiceFields.shape.priceCents,
    modality: bookingServiceFields.shape.modality,
    locationId: z.uuid({ error: 'Ubicación inválida' }).nullable(),
    durationMinutes: bookingServiceFields.shape.durationMinutes,
    gapMinutes: int(bookingMessages.gap(), 0, BOOKING_GAP_MAX, bookingMessages.gap()),
    minNotice: timespanSchema('Antelación mínima'),
    maxNotice: timespanSchema('Antelación máxima'),
    reminders,
    allowNewPatients: z.boolean({ error: 'Indica si admite pacientes nuevos' }),
    bookingLimitPerPatient: int(msg.invalid('Límite de reservas por paciente'), 1, BOOKING_LIMIT_PER_PATIENT_MAX).nullable(),
    status: enumOf(BOOKING_SERVICE_STATUS),
    payment: enumOf(BOOKING_PAYMENT),
  })
  .partial();
export type UpdateBookingServiceBody = z.input<typeof updateBookingServiceBody>;

export const bookingServiceIdParams = workspaceIdParams.extend({ serviceId: z.uuid({ error: 'Servicio inválido' }) });

const ref = z.object({ id: z.uuid(), name: z.string() });
const timespanResponse = z.object({
  amount: z.number().int(),
  unit: z.enum(['months', 'days', 'hours', 'minutes']),
}) satisfies z.ZodType<Timespan>;
const rangeResponse = z.array(z.object({ from: z.string(), to: z.string() }));

/** A service as a member reads it. */
export const bookingServiceResponse = z.object({
  id: z.uuid(),
  therapist: ref,
  title: z.string(),
  description: z.string().nullable(),
  schedule: z.object({
    1: rangeResponse,
    2: rangeResponse,
    3: rangeResponse,
    4: rangeResponse,
    5: rangeResponse,
    6: rangeResponse,
    7: rangeResponse,
  }),
  timeZone: z.string(),
  priceCents: z.number().int(),
  modality: enumOf(MODALITY),
  location: ref.nullable(),
  durationMinutes: z.number().int(),
  gapMinutes: z.number().int(),
  minNotice: timespanResponse,
  maxNotice: timespanResponse,
  reminders: z.array(z.number().int()),
  allowNewPatients: z.boolean(),
  bookingLimitPerPatient: z.number().int().nullable(),
  status: enumOf(BOOKING_SERVICE_STATUS),
  payment: enumOf(BOOKING_PAYMENT),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BookingService = z.infer<typeof bookingServiceResponse>;
export const bookingServiceListResponse = z.object({ items: z.array(bookingServiceResponse) });
