import { normalizeHHmm } from '../../../lib/time-text';
import { DEFAULT_TIME_ZONE, SESSION_RANGE_MAX_DAYS, shiftDay, toInstant } from '@divan/core';

/**
 * The calendar shows each session at its own wall clock (day, from, to in the session's zone, Madrid
 * by default): the grid works in naive local times, so 18:00 stays 18:00 whatever the browser's zone.
 */
const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD' of a grid date (the grid's local getters carry the wall clock). */
export const dayOf = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** 'HH:mm' of a grid date. */
export const timeOf = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** A grid date from a day and a time. */
export const gridDate = (day: string, time = '00:00') => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  return new Date(y, m - 1, d, h, min);
};

/** Minutes between two 'HH:mm' (negative when `to` is earlier). */
export const minutesBetween = (from: string, to: string) => {
  const [fh, fm] = from.split(':').map(Number) as [number, number];
  const [th, tm] = to.split(':').map(Number) as [number, number];
  return th * 60 + tm - (fh * 60 + fm);
};

/** 'HH:mm' plus minutes, clamped to the same day (23:59 at most). */
export const addToTime = (time: string, minutes: number) => {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const total = Math.max(0, Math.min(23 * 60 + 59, h * 60 + m + minutes));
  return `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
};

/**
 * The API's range for the grid's visible days [startDay, endDay): instants at midnight in Madrid. A month
 * view is exactly the API's 42 days; across the October clock change that is an hour more, so the
 * end is clamped (a session after 23:00 on the very last spill-over day is the only thing left out).
 */
export function apiRange(startDay: string, endDay: string, tz = DEFAULT_TIME_ZONE): { from: string; to: string } {
  const from = toInstant(startDay, '00:00', tz);
  let to = toInstant(endDay, '00:00', tz);
  const max = from.getTime() + SESSION_RANGE_MAX_DAYS * 86_400_000;
  if (to.getTime() > max) to = new Date(max);
  return { from: from.toISOString(), to: to.toISOString() };
}

/** Today in Madrid (the sessions' default zone), 'YYYY-MM-DD'. */
export const today = () => {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: DEFAULT_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
  return parts;
};

const longDay = new Intl.DateTimeFormat('es-ES', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
/** "martes, 24 de noviembre de 2026". */
export const formatDayLong = (day: string) => longDay.format(new Date(`${day}T12:00:00Z`));
const shortDay = new Intl.DateTimeFormat('es-ES', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
/** "mar, 24 nov". */
export const formatDayShort = (day: string) => shortDay.format(new Date(`${day}T12:00:00Z`));

export { shiftDay };

/** "9", "09", "930", "9:30", "9.30", "9h30" → "09:30"; null when it is not a time of day. */
export const normalizeTime = normalizeHHmm;
