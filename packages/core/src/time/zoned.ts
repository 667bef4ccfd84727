/**
 * Local time in a named time zone (default Europe/Madrid), whatever the process's own zone (TZ).
 *
 * Vocabulary: a *day* is a calendar day 'YYYY-MM-DD', a *time* is a wall-clock 'HH:mm', an *instant*
 * is a `Date` (a point on the UTC line). Nothing here reads the process zone: no local `Date` getters,
 * no `new Date(y, m, d)`; offsets come from `tzOffset` (tz-offset.ts: Intl time-zone data). No Zod and
 * no date library: a rule any page may load (the schemas on these checks are in time.contracts.ts).
 *
 * DST rules for a local wall time (`toInstant`, `addLocalDays`, `addLocalMonths`, recurrences):
 * - non-existent (spring-forward gap, 2026-03-29 02:30 in Madrid): moved forward by the gap, i.e. read
 *   with the offset in force before the change → 03:30 local (RFC 5545 §3.3.5 reads DTSTART this way);
 * - ambiguous (autumn, 2026-10-25 02:30 happens twice): the first occurrence (summer time, +02:00).
 * `TZDate`'s constructor is not used for this on purpose: for an ambiguous time it returns the first or
 * the second occurrence depending on the process zone (checked on @date-fns/tz 1.5.0).
 */
import { tzOffset } from './tz-offset';

export const DEFAULT_TIME_ZONE = 'Europe/Madrid';

export type LocalDateTime = { day: string; time: string };
/** An interval of instants, end exclusive. */
export type InstantRange = { start: Date; end: Date };

const MINUTE = 60_000;
const DAY = 86_400_000;

// ---------------------------------------------------------------------------------------------------
// Validation: the one calendar-checked day and the one HH:mm of packages/core.

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INSTANT_RE = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const HHMM_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** IANA-shaped names only ('Europe/Madrid', 'UTC', 'Etc/GMT-1'); no bare offsets like '+01:00'. */
const ZONE_RE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
const knownZones = new Set<string>();

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** 'YYYY-MM-DD' naming a real calendar day (no 2026-02-30), years 1000–9999. */
export function isIsoDay(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  const m = DAY_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return y >= 1000 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
}

/**
 * An ISO-8601 instant with its zone ('2026-03-01T10:00:00Z', '…+01:00') on a real calendar day, years
 * 1000–9999, that parses to a valid `Date`. Year 0 and 2026-02-30 are refused (PostgreSQL would error).
 */
export function isIsoInstant(s: unknown): s is string {
  if (typeof s !== 'string' || !INSTANT_RE.test(s) || !isIsoDay(s.slice(0, 10))) return false;
  return !Number.isNaN(Date.parse(s));
}

/** 'HH:mm', 00:00–23:59. */
export function isHHmm(s: unknown): s is string {
  return typeof s === 'string' && HHMM_RE.test(s);
}

/** An IANA time-zone name this runtime knows. */
export function isValidTimeZone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || tz.length > 64 || !ZONE_RE.test(tz)) return false;
  if (knownZones.has(tz)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    return false;
  }
  knownZones.add(tz); // valid names only, so the set stays as small as the zone database
  return true;
}

function assertDay(day: string): void {
  if (!isIsoDay(day)) throw new RangeError(`Invalid day (YYYY-MM-DD): ${JSON.stringify(day)}`);
}
function assertTime(time: string): void {
  if (!isHHmm(time)) throw new RangeError(`Invalid time (HH:mm): ${JSON.stringify(time)}`);
}
function assertZone(tz: string): void {
  if (!isValidTimeZone(tz)) throw new RangeError(`Invalid time zone: ${JSON.stringify(tz)}`);
}
function assertInstant(instant: Date): number {
  const t = instant instanceof Date ? instant.getTime() : NaN;
  if (Number.isNaN(t)) throw new RangeError('Invalid instant');
  return t;
}
function assertInteger(n: number, what: string): void {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${what} must be an integer: ${n}`);
}

// ---------------------------------------------------------------------------------------------------
// Wall clock ↔ instant. A "wall" is the local date-time written as if it were UTC milliseconds.

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function dayToWall(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}
function wallToDay(wall: number): string {
  const w = new Date(wall);
  return `${pad(w.getUTCFullYear(), 4)}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())}`;
}
function wallToTime(wall: number): string {
  const w = new Date(wall);
  return `${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}`;
}

const offsetMs = (tz: string, t: number) => tzOffset(tz, new Date(t)) * MINUTE;

/** Local wall clock of an instant. */
function instantToWall(t: number, tz: string): number {
  return t + offsetMs(tz, t);
}

/**
 * The instant of a local wall clock, by the rules at the top of this file. Assumes at most one offset
 * change within a day either side of the wall time (true of every zone's rules in use).
 */
function wallToInstant(wall: number, tz: string): number {
  const before = offsetMs(tz, wall - DAY);
  const after = offsetMs(tz, wall + DAY);
  const tBefore = wall - before;
  const tAfter = wall - after;
  const beforeFits = offsetMs(tz, tBefore) === before;
  const afterFits = offsetMs(tz, tAfter) === after;
  if (beforeFits && afterFits) return Math.min(tBefore, tAfter); // ambiguous (or no change): the first
  if (beforeFits) return tBefore;
  if (afterFits) return tAfter;
  return tBefore; // in the gap: read with the offset before the change, i.e. moved forward by the gap
}

/** Local wall time `day` `time` in `tz` → instant. Gap: moved forward; ambiguous: first occurrence. */
export function toInstant(day: string, time: string, tz: string): Date {
  assertDay(day);
  assertTime(time);
  assertZone(tz);
  const [h, m] = time.split(':').map(Number) as [number, number];
  return new Date(wallToInstant(dayToWall(day) + h * 3_600_000 + m * MINUTE, tz));
}

/** Instant → local day and time (seconds dropped) in `tz`. `toInstant` is the way back. */
export function toLocal(instant: Date, tz: string): LocalDateTime {
  const t = assertInstant(instant);
  assertZone(tz);
  const wall = instantToWall(t, tz);
  return { day: wallToDay(wall), time: wallToTime(wall) };
}

/** The widest span `localClock` reads with its two offsets: no zone has changed its offset twice within it. */
const CLOCK_SPAN = 8 * DAY;

/**
 * `toLocal` for many instants of one zone between `first` and `last` (a week's sessions): the zone's
 * offset is read at both ends and, when they differ, the change between them is found to the millisecond
 * by halving; each instant then costs arithmetic, not an Intl lookup (a quarter of a calendar read's CPU).
 * Exact while the two are at most 8 days apart (no zone has changed its offset twice within 8 days); a
 * wider range, or an instant outside it, is read as `toLocal` reads it.
 */
export function localClock(tz: string, first: Date, last: Date): (instant: Date) => LocalDateTime {
  assertZone(tz);
  const a = assertInstant(first);
  const b = assertInstant(last);
  if (b < a || b - a > CLOCK_SPAN) return (instant) => toLocal(instant, tz);
  const before = offsetMs(tz, a);
  const after = offsetMs(tz, b);
  // The first instant read with `after`'s offset.
  let change = b + 1;
  if (before !== after) {
    let lo = a;
    let hi = b;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetMs(tz, mid) === before) lo = mid;
      else hi = mid;
    }
    change = hi;
  }
  return (instant) => {
    const t = assertInstant(instant);
    if (t < a || t > b) return toLocal(instant, tz);
    const wall = t + (t < change ? before : after);
    return { day: wallToDay(wall), time: wallToTime(wall) };
  };
}

/** The local day in `tz` at `now`. */
export function todayIn(tz: string, now: Date = new Date()): string {
  return toLocal(now, tz).day;
}

// ---------------------------------------------------------------------------------------------------
// Calendar days (no zone involved).

/** `day` plus `n` calendar days (n may be negative). */
export function shiftDay(day: string, n: number): string {
  assertDay(day);
  assertInteger(n, 'Days');
  const out = wallToDay(dayToWall(day) + n * DAY);
  assertDay(out);
  return out;
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  assertDay(from);
  assertDay(to);
  return Math.round((dayToWall(to) - dayToWall(from)) / DAY);
}

/** ISO weekday of a day: 1 = Monday … 7 = Sunday. */
export function isoWeekday(day: string): number {
  assertDay(day);
  return new Date(dayToWall(day)).getUTCDay() || 7;
}

/** 'YYYY-MM-DD' → 'DD/MM/YYYY' (spec §1), the one conversion of every screen, mail and document. */
export function formatDayEs(day: string): string {
  assertDay(day);
  const [y, m, d] = day.split('-');
  return `${d}/${m}/${y}`;
}

/**
 * `formatDayEs` for text a screen only shows (an audit event's details, a response's field): the day at
 * its start ('2026-11-03' or '2026-11-03T10:00:00Z') as 'DD/MM/YYYY', and text that holds no day as it is,
 * instead of throwing.
 */
export function displayDayEs(text: string): string {
  const day = text.slice(0, 10);
  return isIsoDay(day) ? formatDayEs(day) : text;
}

// ---------------------------------------------------------------------------------------------------
// Local days and ranges as instants.

/** The first instant of `day` in `tz` (00:00, or the first minute after a gap at midnight). */
export function startOfLocalDay(day: string, tz: string): Date {
  return toInstant(day, '00:00', tz);
}

/** `day` in `tz`: [00:00, next day 00:00). 23, 24 or 25 hours long. */
export function dayRange(day: string, tz: string): InstantRange {
  return { start: startOfLocalDay(day, tz), end: startOfLocalDay(shiftDay(day, 1), tz) };
}

/** The Monday–Sunday week containing `day` in `tz`: [Monday 00:00, next Monday 00:00). */
export function weekRange(day: string, tz: string): InstantRange {
  const monday = shiftDay(day, 1 - isoWeekday(day));
  return { start: startOfLocalDay(monday, tz), end: startOfLocalDay(shiftDay(monday, 7), tz) };
}

/** The month containing `day` in `tz`: [1st 00:00, 1st of next month 00:00). */
export function monthRange(day: string, tz: string): InstantRange {
  assertDay(day);
  const [y, m] = day.split('-').map(Number) as [number, number];
  const first = `${pad(y, 4)}-${pad(m)}-01`;
  const next = m === 12 ? `${pad(y + 1, 4)}-01-01` : `${pad(y, 4)}-${pad(m + 1)}-01`;
  return { start: startOfLocalDay(first, tz), end: startOfLocalDay(next, tz) };
}

// ---------------------------------------------------------------------------------------------------
// Arithmetic on instants.

/** `n` local days later keeping the wall-clock time (18:00 stays 18:00 across a clock change). */
export function addLocalDays(instant: Date, n: number, tz: string): Date {
  const t = assertInstant(instant);
  assertZone(tz);
  assertInteger(n, 'Days');
  if (n === 0) return new Date(t);
  return new Date(wallToInstant(instantToWall(t, tz) + n * DAY, tz));
}

/**
 * `n` local months later keeping the wall-clock time; a day missing from the target month becomes its
 * last day (31 January + 1 month = 28/29 February), as monthly recurrences do.
 */
export function addLocalMonths(instant: Date, n: number, tz: string): Date {
  const t = assertInstant(instant);
  assertZone(tz);
  assertInteger(n, 'Months');
  if (n === 0) return new Date(t);
  const wall = new Date(instantToWall(t, tz));
  const months = wall.getUTCFullYear() * 12 + wall.getUTCMonth() + n;
  const year = Math.floor(months / 12);
  const month = months - year * 12; // 0-based
  const day = Math.min(wall.getUTCDate(), daysInMonth(year, month + 1));
  const target = Date.UTC(2000, month, day, wall.getUTCHours(), wall.getUTCMinutes(), wall.getUTCSeconds(), wall.getUTCMilliseconds());
  const withYear = new Date(target);
  withYear.setUTCFullYear(year);
  return new Date(wallToInstant(withYear.getTime(), tz));
}

/** A duration: `minutes` real minutes later (a 50-minute session is 50 minutes even across a change). */
export function addMinutes(instant: Date, minutes: number): Date {
  const t = assertInstant(instant);
  if (!Number.isFinite(minutes)) throw new RangeError(`Minutes must be finite: ${minutes}`);
  return new Date(t + minutes * MINUTE);
}

/** 'DD/MM/YYYY HH:mm' in `tz` (Spanish display). */
export function formatLocal(instant: Date, tz: string): string {
  const { day, time } = toLocal(instant, tz);
  return `${formatDayEs(day)} ${time}`;
}
