import {
  DEFAULT_TIME_ZONE,
  SESSION_FIELDS,
  SESSION_MAX_MINUTES,
  SESSION_MAX_PAST_DAYS,
  SESSION_RANGE_MAX_DAYS,
  forbiddenWrites,
  msg,
  sessionMessages,
  toInstant,
  todayIn,
  weekRange,
  writeDeniedMessage,
  type OwnedRecord,
} from '@divan/core';
import { AppError } from '../../platform/errors';
import type { Caller } from '../../platform/auth/caller';

const DAY_MS = 86_400_000;
const invalid = (path: string, message: string) => new AppError('invalid_argument', [{ path, message }], message);

/**
 * A session's day and hours (local to `timeZone`) as instants, under the rules of spec §5: the start
 * before the end (checked again on the instants: a clock change can fold "02:00–03:00" to nothing),
 * not longer than SESSION_MAX_MINUTES, and not starting more than SESSION_MAX_PAST_DAYS ago.
 */
export function sessionTimes(t: { day: string; from: string; to: string; timeZone?: string | null }, now: Date) {
  const timeZone = t.timeZone ?? DEFAULT_TIME_ZONE;
  const startsAt = toInstant(t.day, t.from, timeZone);
  const endsAt = toInstant(t.day, t.to, timeZone);
  if (endsAt <= startsAt) throw invalid('to', sessionMessages.startBeforeEnd());
  if (endsAt.getTime() - startsAt.getTime() > SESSION_MAX_MINUTES * 60_000) throw invalid('to', sessionMessages.tooLong());
  if (startsAt.getTime() < now.getTime() - SESSION_MAX_PAST_DAYS * DAY_MS) throw invalid('day', sessionMessages.tooOld());
  return { startsAt, endsAt, timeZone };
}

/** The calendar's range: from before to, at most SESSION_RANGE_MAX_DAYS wide; by default this week. */
export function checkedRange(from: string | undefined, to: string | undefined, now = new Date()) {
  if (to !== undefined && from === undefined) throw invalid('from', msg.required('inicio del intervalo'));
  // This week only when no range is given: its zone arithmetic is the costliest part of a cached read.
  const week = from === undefined ? weekRange(todayIn(DEFAULT_TIME_ZONE, now), DEFAULT_TIME_ZONE) : undefined;
  const start = week ? week.start : new Date(from!);
  const end = to !== undefined ? new Date(to) : week ? week.end : new Date(start.getTime() + 7 * DAY_MS);
  if (end <= start) throw invalid('to', sessionMessages.rangeBeforeEnd());
  if (end.getTime() - start.getTime() > SESSION_RANGE_MAX_DAYS * DAY_MS) throw invalid('to', sessionMessages.rangeTooWide());
  return { start, end };
}

/** Reminders beyond the plan's number per session (spec §1/§9) are refused with the spec's message. */
export function checkReminders(reminders: readonly number[] | undefined, max: number) {
  if (reminders && reminders.length > max) {
    const message = sessionMessages.remindersCap(max);
    throw new AppError('session_reminders_limit', [{ path: 'reminders', message }], message);
  }
}

/** A write of a field the member may not write (SESSION_FIELDS) refuses the whole request, naming the group. */
export function assertWritable(c: Caller, input: object, record: OwnedRecord, action: 'create' | 'update') {
  const denied = forbiddenWrites(c.member.ability, SESSION_FIELDS, record, input, action);
  if (denied.length)
    throw new AppError(
      'access_denied',
      denied.map((d) => ({ path: d.path, message: 'No tienes permiso para editar este dato' })),
      writeDeniedMessage(denied),
    );
}

/** Sessions are booked only for patients in treatment (spec §5), with the spec's message. */
export function assertPatientActive(patient: { treatmentStatus: string }) {
  if (patient.treatmentStatus !== 'active')
    throw new AppError('patient_not_active', [{ path: 'patientId', message: sessionMessages.patientNotActive() }]);
}
