/**
 * Spain's formats (spec §1): DD/MM/YYYY, HH:mm, euro. Built on the browser's Intl, not date-fns: these
 * helpers are used by the signed-in shell and the dashboard, where date-fns and its `es` locale cost
 * ~12 KB gzipped. Output is the same as date-fns' `dd/MM/yyyy`, `HH:mm` and `EEEE, d 'de' MMMM 'de' yyyy`
 * (see format.test.ts), in the browser's time zone like date-fns.
 */
import { formatCents, formatDayEs, formatInteger, isIsoDay } from '@divan/core';

const dmy = new Intl.DateTimeFormat('es-ES', { day: '2-digit', month: '2-digit', year: 'numeric' });
const hm = new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const long = new Intl.DateTimeFormat('es-ES', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

/** A local calendar date, or an invalid Date when the parts are not a real day (31/02). */
function calendarDay(year: number, month: number, day: number): Date {
  const date = new Date(2000, 0, 1);
  date.setFullYear(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day ? date : new Date(NaN);
}

/**
 * An ISO-8601 text as date-fns' `parseISO` reads it: a bare calendar day ('YYYY-MM-DD') is local
 * midnight (`new Date` would take it as UTC midnight, the day before west of Greenwich); instants
 * ('…T…Z', '…T…+01:00', or without offset: local) are what `Date` makes of them.
 */
function toDate(value: Date | string): Date {
  if (typeof value !== 'string') return value;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return day ? calendarDay(Number(day[1]), Number(day[2]), Number(day[3])) : new Date(value);
}

const isValid = (date: Date) => !Number.isNaN(date.getTime());

/** 'DD/MM/YYYY' ('' when empty or invalid). */
export function formatDate(value: Date | string | null | undefined): string {
  if (!value) return '';
  const date = toDate(value);
  return isValid(date) ? dmy.format(date) : '';
}

/** 'HH:mm', 24-hour clock ('' when invalid). */
export function formatTime(value: Date | string): string {
  const date = toDate(value);
  return isValid(date) ? hm.format(date) : '';
}

/** "sábado, 22 de noviembre de 2025" with the first letter in upper case, for headings. */
export function formatLongDate(date: Date): string {
  const text = long.format(date);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Money travels as integer cents: 123456 → "1.234,56 €". The one formatter of web and server
 * (`@divan/core`), which groups four-digit amounts too; throws on a fraction of a cent.
 */
export const formatCurrency = (cents: number): string => formatCents(cents);

/** Spanish plural for counters: "1 factura", "1.234 facturas" (thousands grouped from four digits). */
export const plural = (n: number, one: string, many: string) => `${formatInteger(n)} ${n === 1 ? one : many}`;

/** 'YYYY-MM-DD' → 'DD/MM/YYYY' ('' when empty). */
export function isoDateToDmy(iso: string | null | undefined): string {
  return iso && isIsoDay(iso) ? formatDayEs(iso) : '';
}

/**
 * 'DD/MM/YYYY' (also D/M/YYYY, with - or .) → 'YYYY-MM-DD'. Returns '' for empty input and the raw text
 * when it isn't a real calendar date, so the shared schema rejects it with its own message.
 */
export function dmyToIsoDate(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  const match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(trimmed);
  if (!match) return trimmed;
  const [, d = '', m = '', y = ''] = match;
  if (!isValid(calendarDay(Number(y), Number(m), Number(d)))) return trimmed;
  return `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
}
