import { z } from 'zod';
import { linkToken } from '../fields';
import { msg } from '../messages';
import { patientIdParams } from '../patients/patient.contracts';
import { MEASURE_KEYS } from './measure';
import { RELIABLE_CHANGE_LABELS } from './scoring';

export const MEASURE_STATUSES = ['sent', 'completed', 'cancelled', 'expired'] as const;
export type MeasureStatus = (typeof MEASURE_STATUSES)[number];
export const MEASURE_STATUS_LABELS: Record<MeasureStatus, string> = {
  sent: 'Enviado',
  completed: 'Completado',
  cancelled: 'Cancelado',
  expired: 'Caducado',
};
/** A sent link works this long, once. */
export const MEASURE_LINK_DAYS = 7;
/** The patient is reminded once, this many days after sending, if they have not answered. */
export const MEASURE_REMINDER_DAYS = 2;

const measureKey = z.enum(MEASURE_KEYS, { error: msg.invalidEnum() });
const reliable = z.enum(
  Object.keys(RELIABLE_CHANGE_LABELS) as [keyof typeof RELIABLE_CHANGE_LABELS, ...(keyof typeof RELIABLE_CHANGE_LABELS)[]],
);
/** Answers in item order; null is an unanswered item (refused with the item named). The longest measure has 34. */
const answers = z.array(z.number().int().min(0).max(5).nullable(), { error: 'Las respuestas no son válidas' }).max(34);

export const measureIdParams = patientIdParams.extend({ administrationId: z.uuid({ error: 'Cuestionario inválido' }) });
export const measureTokenParams = z.object({ token: linkToken() });

export const sendMeasureBody = z.object({ measure: measureKey });
export const administerMeasureBody = z.object({ measure: measureKey, answers });
export const answerMeasureBody = z.object({ answers });

const scaleScore = z.object({
  key: z.string(),
  /** The exact value is num / den; `value` is it rounded to one decimal. */
  num: z.number().int(),
  den: z.number().int(),
  value: z.number(),
  band: z.string().nullable(),
  level: z.number().int().nullable(),
  clinical: z.boolean().nullable(),
});

export const measureAdministrationResponse = z.object({
  id: z.uuid(),
  measure: measureKey,
  status: z.enum(MEASURE_STATUSES),
  /** `link`: sent to the patient; `session`: the therapist entered the answers. */
  mode: z.enum(['link', 'session']),
  therapist: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  sentAt: z.string(),
  expiresAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  answers: z.array(z.number().int()).nullable(),
  scores: z.array(scaleScore).nullable(),
  risk: z.object({ flagged: z.boolean(), items: z.array(z.number().int()), reviewedAt: z.string().nullable() }),
});
export type MeasureAdministration = z.infer<typeof measureAdministrationResponse>;

/** Sending returns the link too, to copy (it is also mailed). */
export const sentMeasureResponse = measureAdministrationResponse.extend({ link: z.string() });

export const measureTrendResponse = z.array(
  z.object({
    measure: measureKey,
    scale: z.string(),
    points: z.array(
      z.object({
        administrationId: z.uuid(),
        completedAt: z.string(),
        value: z.number(),
        band: z.string().nullable(),
        clinical: z.boolean().nullable(),
        /** Jacobson–Truax against the first administration (null on the first). */
        change: reliable.nullable(),
      }),
    ),
    /** The latest point against the first. */
    classification: reliable.nullable(),
  }),
);
export type MeasureTrend = z.infer<typeof measureTrendResponse>;

export const publicMeasureResponse = z.object({
  measure: measureKey,
  workspaceName: z.string(),
  expiresAt: z.string(),
});
export type PublicMeasure = z.infer<typeof publicMeasureResponse>;

export const answerMeasureResponse = z.object({ completed: z.literal(true), crisisLine: z.boolean() });

/** A measure sent by itself ahead of the patient's sessions (issue 32): before each, every other, or every N weeks. */
export const MEASURE_CADENCES = ['each_session', 'every_other_session', 'every_n_weeks'] as const;
export type MeasureCadence = (typeof MEASURE_CADENCES)[number];
export const MEASURE_CADENCE_LABELS: Record<MeasureCadence, string> = {
  each_session: 'Antes de cada sesión',
  every_other_session: 'Una sesión sí y otra no',
  every_n_weeks: 'Cada N semanas',
};
export const MEASURE_SCHEDULE_STATUSES = ['active', 'paused', 'stopped'] as const;
export type MeasureScheduleStatus = (typeof MEASURE_SCHEDULE_STATUSES)[number];
export const MEASURE_SCHEDULE_STATUS_LABELS: Record<MeasureScheduleStatus, string> = {
  active: 'Activa',
  paused: 'En pausa',
  stopped: 'Detenida',
};
/** A scheduled measure is sent this many hours before the session (the hourly sweep sends it). */
export const MEASURE_SCHEDULE_HOURS_BEFORE = 24;

export const measureScheduleIdParams = patientIdParams.extend({ scheduleId: z.uuid({ error: 'Programación inválida' }) });
const cadence = z.enum(MEASURE_CADENCES, { error: msg.invalidEnum() });
const everyWeeks = z
  .number({ error: 'Indica cada cuántas semanas' })
  .int({ error: 'Indica un número entero de semanas' })
  .min(1, { error: 'Como mínimo, cada semana' })
  .max(26, { error: 'Como máximo, cada 26 semanas' })
  .nullable();
const needsWeeks = (b: { cadence?: MeasureCadence; everyWeeks?: number | null }) => b.cadence !== 'every_n_weeks' || !!b.everyWeeks;
const weeksIssue = { error: 'Indica cada cuántas semanas', path: ['everyWeeks'] };

export const createMeasureScheduleBody = z
  .object({ measure: measureKey, cadence, everyWeeks: everyWeeks.optional() })
  .refine(needsWeeks, weeksIssue);
export const updateMeasureScheduleBody = z
  .object({
    cadence: cadence.optional(),
    everyWeeks: everyWeeks.optional(),
    status: z.enum(['active', 'paused'], { error: msg.invalidEnum() }).optional(),
  })
  .refine(needsWeeks, weeksIssue);

export const measureScheduleResponse = z.object({
  id: z.uuid(),
  measure: measureKey,
  cadence,
  everyWeeks: z.number().int().nullable(),
  status: z.enum(MEASURE_SCHEDULE_STATUSES),
  /** Hours before each session the measure is sent. */
  hoursBefore: z.number().int(),
  lastSentAt: z.string().nullable(),
  createdAt: z.string(),
});
export type MeasureSchedule = z.infer<typeof measureScheduleResponse>;

/** A risk answer not yet reviewed, for the therapist's dashboard: who, which measure, when; never the answers. */
export const measureFlagsResponse = z.array(
  z.object({
    administrationId: z.uuid(),
    patient: z.object({ id: z.uuid(), name: z.string() }),
    measure: measureKey,
    /** Its short name (PHQ-9…), so the dashboard needs none of the instruments' data. */
    measureName: z.string(),
    completedAt: z.string(),
  }),
);
export type MeasureFlags = z.infer<typeof measureFlagsResponse>;
