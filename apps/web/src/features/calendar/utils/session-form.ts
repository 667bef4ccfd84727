import { isHHmm, isIsoDay, MODALITY, type Modality, type PaymentType, type Session } from '@divan/core';
import type { CreateBody, UpdateBody } from '../api/sessions-api';
import type { RecurrenceInput } from '@divan/core';
import type { CalendarSession, RecurrenceFrequency } from '../api/types';
import { minutesBetween, normalizeTime } from './dates';
import { centsToEuros, eurosToCents } from '@divan/core';

export type Repeat = 'none' | RecurrenceFrequency;
export type SessionFormValues = {
  patientId: string;
  therapistId: string;
  day: string;
  from: string;
  to: string;
  modality: Modality | '';
  /** Online sessions: Diván's own room or Google Meet ('' = the server's default, Diván's own). */
  videoConference: NonNullable<Session['videoConference']> | '';
  locationId: string;
  price: string;
  /** Offsets in minutes; null: the therapist's defaults (not sent). */
  reminders: number[] | null;
  repeat: Repeat;
  endKind: 'until' | 'count';
  until: string;
  count: string;
};

export const REPEAT_LABELS: Record<Repeat, string> = {
  none: 'No se repite',
  weekly: 'Cada semana',
  biweekly: 'Cada dos semanas',
  monthly: 'Cada mes',
};
export const REMINDER_CHOICES = [
  { minutes: 2880, label: '2 días antes' },
  { minutes: 1440, label: '1 día antes' },
  { minutes: 120, label: '2 horas antes' },
  { minutes: 60, label: '1 hora antes' },
  { minutes: 30, label: '30 minutos antes' },
];
export const modalityOf = (m: string | null | undefined): Modality | '' =>
  m && (MODALITY.values as string[]).includes(m) ? (m as Modality) : '';

export const blankForm = (init: Partial<SessionFormValues> = {}): SessionFormValues => ({
  patientId: '',
  therapistId: '',
  day: '',
  from: '10:00',
  to: '10:50',
  modality: '',
  videoConference: '',
  locationId: '',
  price: '',
  reminders: null,
  repeat: 'none',
  endKind: 'count',
  until: '',
  count: '10',
  ...init,
});

export const formOfSession = (s: CalendarSession): SessionFormValues =>
  blankForm({
    patientId: s.patient.id,
    therapistId: s.therapist.id,
    day: s.day,
    from: s.from,
    to: s.to,
    modality: s.modality,
    videoConference: s.videoConference ?? '',
    locationId: s.location?.id ?? '',
    price: centsToEuros(s.price),
    reminders: s.reminders,
  });

/** The times as typed, read on the 24-hour clock («930» → 09:30) before checking. */
export const withTimes = (v: SessionFormValues): SessionFormValues => ({
  ...v,
  from: normalizeTime(v.from) ?? v.from,
  to: normalizeTime(v.to) ?? v.to,
});

export type FieldProblem = { field: keyof SessionFormValues; message: string };

/** What the browser can tell before asking the server (the server checks everything again). */
export function checkForm(v: SessionFormValues, mode: 'create' | 'edit'): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (mode === 'create' && !v.patientId) problems.push({ field: 'patientId', message: 'Elige un paciente' });
  if (!v.day) problems.push({ field: 'day', message: 'Indica el día' });
  else if (!isIsoDay(v.day)) problems.push({ field: 'day', message: 'Fecha inválida: escríbela como DD/MM/AAAA' });
  if (!v.from) problems.push({ field: 'from', message: 'Indica la hora de inicio' });
  else if (!isHHmm(v.from)) problems.push({ field: 'from', message: 'Hora inválida: escríbela como HH:MM' });
  if (!v.to) problems.push({ field: 'to', message: 'Indica la hora de fin' });
  else if (!isHHmm(v.to)) problems.push({ field: 'to', message: 'Hora inválida: escríbela como HH:MM' });
  else if (isHHmm(v.from) && minutesBetween(v.from, v.to) <= 0)
    problems.push({ field: 'to', message: 'La hora de inicio debe ser anterior a la hora de fin' });
  if (Number.isNaN(eurosToCents(v.price))) problems.push({ field: 'price', message: 'Escribe un importe en euros, p. ej. 60 o 62,50' });
  if (mode === 'create' && v.repeat !== 'none') {
    if (v.endKind === 'until') {
      if (!v.until) problems.push({ field: 'until', message: 'Indica hasta qué día se repite' });
      else if (!isIsoDay(v.until)) problems.push({ field: 'until', message: 'Fecha inválida: escríbela como DD/MM/AAAA' });
      else if (v.day && v.until <= v.day) problems.push({ field: 'until', message: 'El último día debe ser posterior al primero' });
    } else {
      const n = Number(v.count);
      if (!Number.isInteger(n) || n < 2 || n > 200) problems.push({ field: 'count', message: 'Entre 2 y 200 sesiones' });
    }
  }
  return problems;
}

export function recurrenceOf(v: SessionFormValues): RecurrenceInput | undefined {
  if (v.repeat === 'none') return undefined;
  return { frequency: v.repeat, end: v.endKind === 'until' ? { until: v.until } : { count: Number(v.count) } };
}

/** The create body: empty choices are left out so the server applies the patient's and therapist's defaults. */
export function createBodyOf(v: SessionFormValues): CreateBody {
  const price = eurosToCents(v.price);
  const recurrence = recurrenceOf(v);
  return {
    patientId: v.patientId,
    ...(v.therapistId ? { therapistId: v.therapistId } : {}),
    day: v.day,
    from: v.from,
    to: v.to,
    ...(v.modality ? { modality: v.modality } : {}),
    ...(v.modality !== 'online' && v.locationId ? { locationId: v.locationId } : {}),
    ...(v.modality === 'online' && v.videoConference ? { videoConference: v.videoConference } : {}),
    ...(price !== null && !Number.isNaN(price) ? { price } : {}),
    ...(v.reminders ? { reminders: v.reminders } : {}),
    ...(recurrence ? { recurrence } : {}),
  };
}

/** The update body: only what changed (an unchanged save writes nothing). */
export function updateBodyOf(v: SessionFormValues, before: SessionFormValues): UpdateBody {
  const body: UpdateBody = {};
  if (v.day !== before.day || v.from !== before.from || v.to !== before.to) Object.assign(body, { day: v.day, from: v.from, to: v.to });
  if (v.therapistId && v.therapistId !== before.therapistId) body.therapistId = v.therapistId;
  if (v.modality && v.modality !== before.modality) body.modality = v.modality;
  if (v.modality === 'online' && v.videoConference && v.videoConference !== before.videoConference)
    body.videoConference = v.videoConference;
  const location = v.modality === 'online' ? '' : v.locationId;
  if (location !== before.locationId) body.locationId = location || null;
  const price = eurosToCents(v.price);
  if (price !== null && !Number.isNaN(price) && v.price !== before.price) body.price = price;
  if (v.reminders && JSON.stringify(v.reminders) !== JSON.stringify(before.reminders)) body.reminders = v.reminders;
  return body;
}

export const PAYMENT_CHOICES: PaymentType[] = ['cash', 'card', 'transfer', 'paypal', 'other'];

/**
 * The «Terapeuta» choices: the member first, named with «(yo)», then the others by name. Each person
 * once: a blank «Yo» beside the member's own name offered the same therapist twice.
 */
export function therapistOptions(therapists: readonly { id: string; name: string }[], me: string): { value: string; label: string }[] {
  const self = therapists.find((t) => t.id === me);
  const others = therapists.filter((t) => t.id !== me).map((t) => ({ value: t.id, label: t.name }));
  return self ? [{ value: self.id, label: `${self.name} (yo)` }, ...others] : others;
}
