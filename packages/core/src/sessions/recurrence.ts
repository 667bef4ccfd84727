/**
 * Session series (pure, framework-free): the definition a therapist fills in and its expansion into
 * occurrences on the series' local clock. Imported from '@divan/core/series' (it pulls rrule-temporal,
 * like '@divan/core/recurrence'; see docs/decisions/0008-time-and-recurrence.md).
 *
 * - Frequencies: weekly, every two weeks (`biweekly`), monthly.
 * - **Monthly repeats the start's weekday position**, not its day of the month: a series that starts on
 *   Tuesday 9 June 2026 (the 2nd Tuesday) falls on the 2nd Tuesday of every month (RRULE BYDAY=2TU).
 *   A Spanish therapist's week is a fixed timetable ("los martes a las 18:00"), so a monthly patient
 *   keeps their weekday and never lands on a Saturday or a holiday-prone fixed date. A start in the
 *   5th week (day 29–31) means "the last": BYDAY=-1TU (the last Tuesday of every month), so no month is
 *   skipped. A start on the 4th weekday stays "the 4th" even when it is also the last of that month,
 *   unless `monthlyWeek: -1` says "the last" (the form may offer both). A split keeps the old position.
 * - The end is a local day (inclusive) or a number of sessions. At most RECURRENCE_MAX_COUNT (200)
 *   sessions and RECURRENCE_MAX_YEARS (3) years from the start day, like every stored recurrence.
 * - Expansion: rrule-temporal generates the calendar days in UTC (no missing day or hour there); each
 *   day at the start time is resolved in the series' zone by `toInstant` (gap → moved forward, ambiguous
 *   → first pass). So 18:00 in Madrid stays 18:00 across clock changes, whatever the process's TZ.
 * - Errors are `SeriesError`s: code `invalid_series` (a 400) and a Spanish message for the form.
 */
import { RRuleTemporal } from 'rrule-temporal';
import { RECURRENCE_MAX_COUNT, RECURRENCE_MAX_YEARS } from '../time/recurrence';
import {
  DEFAULT_TIME_ZONE,
  addMinutes,
  formatDayEs,
  isHHmm,
  isIsoDay,
  isValidTimeZone,
  isoWeekday,
  toInstant,
  toLocal,
} from '../time/zoned';

export { RECURRENCE_MAX_COUNT, RECURRENCE_MAX_YEARS };
export const SERIES_FREQUENCIES = ['weekly', 'biweekly', 'monthly'] as const;
export type SeriesFrequency = (typeof SERIES_FREQUENCIES)[number];
export const SERIES_MIN_DURATION = 5;
export const SERIES_MAX_DURATION = 720;

export type MonthlyWeek = 1 | 2 | 3 | 4 | -1;
export type SeriesEnd = { until: string } | { count: number };
export type SeriesDefinition<F extends object = Record<string, unknown>> = {
  frequency: SeriesFrequency;
  /** Local day of the first session, 'YYYY-MM-DD'. */
  startDay: string;
  /** Local time of every session, 'HH:mm'. */
  startTime: string;
  /** Real minutes. */
  durationMinutes: number;
  /** IANA zone; Europe/Madrid when missing. */
  tz?: string;
  /** Monthly only: the weekday's position in the month (1–4, -1 = last); derived from startDay when missing. */
  monthlyWeek?: MonthlyWeek;
  /** `until`: last local day, inclusive; `count`: number of sessions. */
  end: SeriesEnd;
  /** What every occurrence inherits (therapist, room, modality, fee…): opaque here. */
  fields?: F;
};

/** One occurrence as the series defines it. `index` counts from 0 over the whole series. */
export type SeriesOccurrence = { index: number; day: string; time: string; start: Date; end: Date };

export type SeriesWindow = { /** Inclusive. */ from?: Date; /** Exclusive. */ to?: Date };

export class SeriesError extends Error {
  readonly code = 'invalid_series';
  readonly status = 400;
  constructor(message: string) {
    super(message);
    this.name = 'SeriesError';
  }
}

const WEEKDAY_CODES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const WEEKDAY_NAMES = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'] as const;
const POSITION_NAMES = ['primer', 'segundo', 'tercer', 'cuarto'] as const;

/** Weekday position of a day in its month: 1–4, or -1 for the 5th (= "the last"); `monthlyWeek` when given. */
export function monthlyPosition(day: string, monthlyWeek?: MonthlyWeek): { position: MonthlyWeek; weekday: number } {
  const d = Number(day.slice(8, 10));
  const n = Math.ceil(d / 7);
  const fits = monthlyWeek === undefined || (monthlyWeek === -1 ? isIsoDay(day) && !isSameMonthDay(day, d + 7) : monthlyWeek === n);
  if (!fits) throw new SeriesError('La fecha de inicio no cae en la semana del mes elegida.');
  return { position: monthlyWeek ?? ((n >= 5 ? -1 : n) as MonthlyWeek), weekday: isoWeekday(day) };
}

/** Whether day-of-month `d` exists in `day`'s month. */
const isSameMonthDay = (day: string, d: number) => d <= 31 && isIsoDay(`${day.slice(0, 8)}${String(d).padStart(2, '0')}`);

/** Spanish description of the frequency, e.g. "Cada mes, el segundo martes". */
export function describeFrequency(def: Pick<SeriesDefinition, 'frequency' | 'startDay' | 'monthlyWeek'>): string {
  const weekday = WEEKDAY_NAMES[isoWeekday(def.startDay) - 1]!;
  if (def.frequency === 'weekly') return `Cada semana, los ${weekday === 'sábado' || weekday === 'domingo' ? `${weekday}s` : weekday}`;
  if (def.frequency === 'biweekly')
    return `Cada dos semanas, los ${weekday === 'sábado' || weekday === 'domingo' ? `${weekday}s` : weekday}`;
  const { position } = monthlyPosition(def.startDay, def.monthlyWeek);
  return `Cada mes, el ${position === -1 ? 'último' : POSITION_NAMES[position - 1]} ${weekday}`;
}

/** `day` + `months`, clamped to the month's last day (for the length cap). */
function addMonthsToDay(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = String(total - year * 12 + 1).padStart(2, '0');
  let dd = d;
  while (!isIsoDay(`${year}-${month}-${String(dd).padStart(2, '0')}`) && dd > 28) dd--;
  return `${year}-${month}-${String(dd).padStart(2, '0')}`;
}

/** The last day a series starting on `startDay` may reach. */
export function latestSeriesDay(startDay: string): string {
  return addMonthsToDay(startDay, RECURRENCE_MAX_YEARS * 12);
}

/** Validates a definition (throws SeriesError in Spanish) and returns it with its zone filled in. */
export function checkSeries<F extends object>(def: SeriesDefinition<F>): SeriesDefinition<F> & { tz: string } {
  if (typeof def !== 'object' || def === null) throw new SeriesError('Faltan los datos de la serie.');
  if (!SERIES_FREQUENCIES.includes(def.frequency)) throw new SeriesError('Elige la frecuencia: semanal, cada dos semanas o mensual.');
  if (!isIsoDay(def.startDay)) throw new SeriesError('La fecha de inicio de la serie no es válida.');
  if (!isHHmm(def.startTime)) throw new SeriesError('La hora de la serie no es válida (HH:mm).');
  const d = def.durationMinutes;
  if (!Number.isInteger(d) || d < SERIES_MIN_DURATION || d > SERIES_MAX_DURATION) {
    throw new SeriesError(`La duración debe ser de ${SERIES_MIN_DURATION} a ${SERIES_MAX_DURATION} minutos.`);
  }
  if (def.monthlyWeek !== undefined) {
    if (def.frequency !== 'monthly' || ![1, 2, 3, 4, -1].includes(def.monthlyWeek)) {
      throw new SeriesError('La semana del mes solo se elige en una serie mensual (1.ª a 4.ª o última).');
    }
    monthlyPosition(def.startDay, def.monthlyWeek);
  }
  const tz = def.tz ?? DEFAULT_TIME_ZONE;
  if (!isValidTimeZone(tz)) throw new SeriesError('La zona horaria de la serie no es válida.');
  const end = def.end as Partial<{ until: unknown; count: unknown }> | undefined;
  const hasUntil = end?.until !== undefined;
  const hasCount = end?.count !== undefined;
  if (!end || hasUntil === hasCount) throw new SeriesError('Indica hasta qué fecha se repite o cuántas sesiones tiene la serie.');
  const latest = latestSeriesDay(def.startDay);
  if (hasUntil) {
    if (!isIsoDay(end.until)) throw new SeriesError('La fecha final de la serie no es válida.');
    if (end.until < def.startDay) throw new SeriesError('La fecha final no puede ser anterior al inicio de la serie.');
    if (end.until > latest)
      throw new SeriesError(`Una serie puede durar como máximo ${RECURRENCE_MAX_YEARS} años (hasta el ${formatDayEs(latest)}).`);
  } else {
    const c = end.count;
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 1 || c > RECURRENCE_MAX_COUNT) {
      throw new SeriesError(`El número de sesiones debe estar entre 1 y ${RECURRENCE_MAX_COUNT}.`);
    }
  }
  return { ...def, tz };
}

/** RRULE text (no DTSTART; the start and TZID travel beside it), e.g. FREQ=MONTHLY;INTERVAL=1;BYDAY=2TU;COUNT=10. */
export function seriesRrule(def: SeriesDefinition<object>): string {
  const s = checkSeries(def);
  const parts = [`FREQ=${s.frequency === 'monthly' ? 'MONTHLY' : 'WEEKLY'}`, `INTERVAL=${s.frequency === 'biweekly' ? 2 : 1}`];
  if (s.frequency === 'monthly') {
    const { position, weekday } = monthlyPosition(s.startDay, s.monthlyWeek);
    parts.push(`BYDAY=${position}${WEEKDAY_CODES[weekday - 1]}`);
  }
  parts.push('count' in s.end ? `COUNT=${s.end.count}` : `UNTIL=${s.end.until.replaceAll('-', '')}T235959Z`);
  return parts.join(';');
}

/** Local days of the whole series (at most RECURRENCE_MAX_COUNT), in order. */
function seriesDays(s: SeriesDefinition<object> & { tz: string }): string[] {
  const latest = latestSeriesDay(s.startDay);
  const lastDay = 'until' in s.end ? s.end.until : latest;
  // Calendar days only: DTSTART at noon UTC, UNTIL at the end of the last local day read as UTC.
  const rruleString = `DTSTART:${s.startDay.replaceAll('-', '')}T120000Z\nRRULE:${seriesRrule(s)}`;
  const days: string[] = [];
  new RRuleTemporal({ rruleString, cache: false }).all((zdt) => {
    const day = zdt.toPlainDate().toString();
    if (day > lastDay || day > latest) return false;
    days.push(day);
    return days.length < RECURRENCE_MAX_COUNT;
  });
  // A monthly start that is not itself on its rule (impossible by construction) would be left out by RFC 5545.
  if (days[0] !== s.startDay) throw new SeriesError('La fecha de inicio no encaja con la frecuencia de la serie.');
  if ('count' in s.end && days.length < s.end.count) {
    throw new SeriesError(`Una serie puede durar como máximo ${RECURRENCE_MAX_YEARS} años (hasta el ${formatDayEs(latest)}).`);
  }
  return days;
}

/** The occurrence of a series on local `day` (its index given), at the series' time. */
export function occurrenceAt(def: SeriesDefinition<object> & { tz: string }, index: number, day: string): SeriesOccurrence {
  const start = toInstant(day, def.startTime, def.tz);
  // `time` is the wall time that really happens: 02:30 in a spring-forward gap is 03:30.
  return { index, day, time: toLocal(start, def.tz).time, start, end: addMinutes(start, def.durationMinutes) };
}

/**
 * Occurrences of a series, in order, with their local day and time and their UTC instants; with a
 * window, only those starting in [from, to) (indexes still count from the series' first session).
 */
export function expandSeries(def: SeriesDefinition<object>, window: SeriesWindow = {}): SeriesOccurrence[] {
  const s = checkSeries(def);
  const fromMs = window.from?.getTime() ?? -Infinity;
  const toMs = window.to?.getTime() ?? Infinity;
  if (Number.isNaN(fromMs) || Number.isNaN(toMs)) throw new SeriesError('El intervalo de fechas no es válido.');
  return seriesDays(s)
    .map((day, index) => occurrenceAt(s, index, day))
    .filter((o) => o.start.getTime() >= fromMs && o.start.getTime() < toMs);
}
