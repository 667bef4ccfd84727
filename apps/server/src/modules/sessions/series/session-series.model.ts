import { toLocal, type RecurrenceInput } from '@divan/core';
import { SeriesError, type MonthlyWeek, type SeriesChange, type SeriesDefinition, type StoredOccurrence } from '@divan/core/series';
import { AppError } from '../../../platform/errors';
import type { NewSessionSeries, SeriesFields, SessionSeriesRow } from './session-series.tables';
import type { SessionRow } from '../sessions.tables';

/**
 * Between the stored series and the pure planner of @divan/core/series. The definition lives in
 * `session_series`; an occurrence's override (what was changed for it alone) is not stored apart: it is
 * the difference between its `sessions` row and the series, so a plain PATCH of one session ("only
 * this one") keeps it right with no extra write.
 */
export type Definition = SeriesDefinition<SeriesFields> & { tz: string };

const FIELD_KEYS = [
  'therapistId',
  'price',
  'modality',
  'locationId',
  'reminders',
  'videoConference',
] as const satisfies readonly (keyof SeriesFields)[];
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const minutes = (r: Pick<SessionRow, 'startsAt' | 'endsAt'>) => Math.round((r.endsAt.getTime() - r.startsAt.getTime()) / 60_000);

export function definitionOf(r: SessionSeriesRow): Definition {
  return {
    frequency: r.frequency,
    startDay: r.startDay,
    startTime: r.startTime,
    durationMinutes: r.durationMinutes,
    tz: r.timeZone,
    ...(r.monthlyWeek !== null ? { monthlyWeek: r.monthlyWeek as MonthlyWeek } : {}),
    end: r.count !== null ? { count: r.count } : { until: r.untilDay! },
    fields: r.fields,
  };
}

/** The columns of a definition (for insert or update). */
export function seriesColumns(def: SeriesDefinition<SeriesFields>): Omit<NewSessionSeries, 'workspaceId' | 'patientId' | 'createdBy'> {
  const end = def.end;
  return {
    frequency: def.frequency,
    startDay: def.startDay,
    startTime: def.startTime,
    durationMinutes: def.durationMinutes,
    timeZone: def.tz!,
    monthlyWeek: def.monthlyWeek ?? null,
    untilDay: 'until' in end ? end.until : null,
    count: 'count' in end ? end.count : null,
    fields: def.fields!,
    therapistId: def.fields!.therapistId,
  };
}

export const fieldsOf = (r: SessionRow): SeriesFields => ({
  therapistId: r.therapistId,
  price: r.price,
  modality: r.modality,
  locationId: r.locationId,
  reminders: r.reminders,
  videoConference: r.videoConference,
});

/**
 * Sessions a series edit leaves where they are: completed or canceled ones, and those already started
 * (history). They are planned "pinned" to their own slot and values, so the planner keeps them or, when
 * their original day leaves the pattern, lists them as removed: then they are detached from the series,
 * never deleted.
 */
export const isFrozen = (r: SessionRow, now: Date) => r.status !== 'pending' || r.startsAt.getTime() <= now.getTime();

/** A stored row as the planner sees it: its index, original day and what differs from the series. */
export function storedOf(def: Definition, r: SessionRow, now: Date): StoredOccurrence<SeriesFields> {
  const local = toLocal(r.startsAt, def.tz);
  const pin = isFrozen(r, now);
  const actual = fieldsOf(r);
  const base = def.fields ?? ({} as Partial<SeriesFields>);
  const fields = pin ? actual : Object.fromEntries(FIELD_KEYS.filter((k) => !same(actual[k], base[k])).map((k) => [k, actual[k]]));
  const override = {
    ...(pin || local.day !== r.seriesOriginalDay ? { day: local.day } : {}),
    ...(pin || local.time !== def.startTime ? { time: local.time } : {}),
    ...(pin || minutes(r) !== def.durationMinutes ? { durationMinutes: minutes(r) } : {}),
    ...(Object.keys(fields).length ? { fields } : {}),
    ...(r.status === 'canceled' ? { canceled: true } : {}),
  };
  return { index: r.seriesIndex!, originalDay: r.seriesOriginalDay!, ...(Object.keys(override).length ? { override } : {}) };
}

/** Wall minutes from `from` to `to` ('HH:mm'). */
const wallMinutes = (from: string, to: string) =>
  Number(to.slice(0, 2)) * 60 + Number(to.slice(3)) - (Number(from.slice(0, 2)) * 60 + Number(from.slice(3)));

export type SeriesEditBody = {
  day?: string;
  from?: string;
  to?: string;
  timeZone?: string;
  recurrence?: Partial<RecurrenceInput>;
} & Partial<SeriesFields>;

/**
 * A PATCH body as a change of the series (`startDay`: the new start, worked out by the caller: the
 * pattern moves by as many days as the chosen occurrence moves from its original day).
 */
export function changeOf(
  body: SeriesEditBody,
  startDay: string | undefined,
  currentVideo: SeriesFields['videoConference'],
): SeriesChange<SeriesFields> {
  const change: SeriesChange<SeriesFields> = {};
  if (startDay !== undefined) change.startDay = startDay;
  if (body.from !== undefined && body.to !== undefined) {
    change.startTime = body.from;
    change.durationMinutes = wallMinutes(body.from, body.to);
  }
  if (body.timeZone !== undefined) change.tz = body.timeZone;
  const r = body.recurrence ?? {};
  if (r.frequency !== undefined) change.frequency = r.frequency;
  if (r.monthlyWeek !== undefined) change.monthlyWeek = r.monthlyWeek;
  if (r.end !== undefined) change.end = r.end;
  const fields: Partial<SeriesFields> = {};
  for (const k of FIELD_KEYS) if (body[k] !== undefined) (fields as Record<string, unknown>)[k] = body[k];
  if (body.modality !== undefined && body.videoConference === undefined)
    fields.videoConference = body.modality === 'online' ? (currentVideo ?? 'own') : null;
  if (Object.keys(fields).length) change.fields = fields;
  return change;
}

/** The planner's refusals, as the API's 400 with the message on the field. */
export function asAppError(err: unknown, path = 'recurrence'): never {
  if (err instanceof SeriesError) throw new AppError('invalid_series', [{ path, message: err.message }], err.message);
  throw err;
}
