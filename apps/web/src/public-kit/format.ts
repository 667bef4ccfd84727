/**
 * Days and times as a visitor reads them (DD/MM/YYYY, HH:mm, a length, a zone's city), in a given time zone,
 * with the browser's Intl only: no date library on the public pages. The booking pages and the companion both
 * read sessions with these. The wall clock in a zone and the DD/MM/YYYY are core's rules (`@divan/core/rules`:
 * no Zod, no date library), as everywhere else.
 */
import { formatDayEs, toLocal, zoneName } from '@divan/core/rules';

const formats = new Map<string, Intl.DateTimeFormat>();
function dtf(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.DateTimeFormat('es-ES', { timeZone, ...options })));
  return f;
}

/** 'YYYY-MM-DD' of an instant in `timeZone`. */
export function dayInZone(instant: string | Date, timeZone: string): string {
  return toLocal(new Date(instant), timeZone).day;
}

/** 'HH:mm' of an instant in `timeZone`. */
export function timeInZone(instant: string | Date, timeZone: string): string {
  return toLocal(new Date(instant), timeZone).time;
}

/** ['jueves', ' de diciembre de 2026'] of '2026-12-03': what a screen reader says around the day's number. */
export function spokenDay(day: string): [string, string] {
  const at = new Date(`${day}T12:00:00Z`);
  return [dtf('UTC', { weekday: 'long' }).format(at), ` de ${dtf('UTC', { month: 'long', year: 'numeric' }).format(at)}`];
}

/** 'jueves 03/12/2026' of a calendar day 'YYYY-MM-DD'. */
export function dayLabel(day: string): string {
  const weekday = dtf('UTC', { weekday: 'long' }).format(new Date(`${day}T12:00:00Z`));
  return `${weekday} ${formatDayEs(day)}`;
}

/** 'diciembre de 2026' of 'YYYY-MM'. */
export function monthLabel(month: string): string {
  return dtf('UTC', { month: 'long', year: 'numeric' }).format(new Date(`${month}-15T12:00:00Z`));
}

/** '50 min', '1 h', '1 h 30 min'. */
export function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h) return `${m} min`;
  return m ? `${h} h ${m} min` : `${h} h`;
}

/** 'Madrid' of 'Europe/Madrid', 'Ciudad de México' of 'America/Mexico_City', 'Canarias' (core's zoneName). */
export const zoneCity = zoneName;

/** The visitor's zone, as the browser knows it; undefined when it does not. */
export function visitorTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
