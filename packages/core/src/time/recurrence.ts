/**
 * Recurring sessions: an RRULE (RFC 5545) plus a local start (day + 'HH:mm') plus a TZID.
 *
 * Import from '@divan/core/recurrence', never through the main index: rrule-temporal bundles a Temporal
 * polyfill (180 KB minified, 52 KB gzip) that the web should load only on the screens that expand series.
 *
 * Stored text is exactly what `buildRrule` writes, and `parseRecurrence` accepts nothing else:
 *   FREQ=WEEKLY;INTERVAL=1 | FREQ=WEEKLY;INTERVAL=2 | FREQ=MONTHLY;INTERVAL=1[;BYMONTHDAY=28,…,d;BYSETPOS=-1]
 *   followed by ;COUNT=n (1–200) or ;UNTIL=YYYYMMDDTHHMMSSZ (UTC, as RFC 5545 requires with a TZID).
 * - Monthly keeps the start's day of the month; a start on the 29th–31st falls on the month's last day
 *   when the month is shorter (31 Jan → 28 Feb → 31 Mar), written in standard RRULE as
 *   BYMONTHDAY=28,…,d;BYSETPOS=-1 so other calendars read it the same. (Plain RFC 5545 would skip those
 *   months: a client would silently lose sessions.)
 * - `until` is a local day, inclusive: UNTIL is the last second of that day in the series' zone, in UTC.
 * - A series lasts at most RECURRENCE_MAX_YEARS from its start day and has at most RECURRENCE_MAX_COUNT
 *   occurrences, so expanding one is always bounded.
 *
 * Expansion: rrule-temporal generates the calendar days (in UTC, where no day or hour is ever missing),
 * then each day at the start time is resolved in the series' zone by `toInstant`: 18:00 stays 18:00 local
 * across clock changes, a time in a spring-forward gap moves forward by the gap (RFC 5545 would drop that
 * occurrence), an ambiguous autumn time is its first occurrence. UNTIL is compared with those instants.
 */
import { RRuleTemporal } from 'rrule-temporal';
import { DEFAULT_TIME_ZONE, isHHmm, isIsoDay, isValidTimeZone, shiftDay, startOfLocalDay, toInstant, toLocal } from './zoned';

export const RECURRENCE_FREQUENCIES = ['weekly', 'biweekly', 'monthly'] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];
/** How a series is stored. */
export type Recurrence = { rrule: string; startDay: string; startTime: string; tz: string };
/** What a form edits; `until` is a local day, inclusive. Exactly one of until / count. */
export type RecurrenceSettings = { frequency: RecurrenceFrequency; until?: string; count?: number };

/** At most this many occurrences in a series (COUNT), and per `occurrences` call. */
export const RECURRENCE_MAX_COUNT = 200;
/** The last occurrence is at most this many years after the start day. */
export const RECURRENCE_MAX_YEARS = 3;

type Rule = { freq: 'WEEKLY' | 'MONTHLY'; interval: 1 | 2; clampTo?: number; count?: number; until?: Date };

const bad = (what: string) => new RangeError(`Invalid recurrence: ${what}`);
const UNTIL_RE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function utcStamp(d: Date): string {
  return (
    `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`
  );
}

/** The last second of local `day` in `tz`, the inclusive UNTIL of that day. */
function endOfLocalDay(day: string, tz: string): Date {
  return new Date(startOfLocalDay(shiftDay(day, 1), tz).getTime() - 1000);
}

const dayOfMonth = (day: string) => Number(day.slice(8, 10));
/** BYMONTHDAY list of the month-end clamp for a start on the 29th–31st. */
const clampList = (d: number) => Array.from({ length: d - 27 }, (_, i) => 28 + i).join(',');

/** `day` + `months` calendar months, clamped to the target month's last day. */
function addMonthsToDay(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12 + 1;
  let dd = d;
  while (!isIsoDay(`${pad(year, 4)}-${pad(month)}-${pad(dd)}`) && dd > 28) dd--;
  return `${pad(year, 4)}-${pad(month)}-${pad(dd)}`;
}

function serialize(rule: Rule): string {
  const parts = [`FREQ=${rule.freq}`, `INTERVAL=${rule.interval}`];
  if (rule.clampTo) parts.push(`BYMONTHDAY=${clampList(rule.clampTo)}`, 'BYSETPOS=-1');
  parts.push(rule.count !== undefined ? `COUNT=${rule.count}` : `UNTIL=${utcStamp(rule.until!)}`);
  return parts.join(';');
}

function parseRule(text: string): Rule {
  const body = text.startsWith('RRULE:') ? text.slice(6) : text;
  const fields = new Map<string, string>();
  for (const part of body.split(';')) {
    const eq = part.indexOf('=');
    const key = eq > 0 ? part.slice(0, eq) : '';
    if (!key || fields.has(key)) throw bad(`malformed RRULE ${JSON.stringify(text.slice(0, 200))}`);
    fields.set(key, part.slice(eq + 1));
  }
  for (const key of fields.keys()) {
    if (!['FREQ', 'INTERVAL', 'BYMONTHDAY', 'BYSETPOS', 'COUNT', 'UNTIL'].includes(key)) throw bad(`unsupported RRULE part ${key}`);
  }
  const freq = fields.get('FREQ');
  const interval = fields.get('INTERVAL') ?? '1';
  if (freq !== 'WEEKLY' && freq !== 'MONTHLY') throw bad('FREQ must be WEEKLY or MONTHLY');
  if (!(interval === '1' || (interval === '2' && freq === 'WEEKLY'))) throw bad('INTERVAL must be 1 (or 2 when weekly)');
  const rule: Rule = { freq, interval: interval === '2' ? 2 : 1 };

  const byMonthDay = fields.get('BYMONTHDAY');
  const bySetPos = fields.get('BYSETPOS');
  if (byMonthDay !== undefined || bySetPos !== undefined) {
    const d = Number(byMonthDay?.split(',').at(-1));
    if (freq !== 'MONTHLY' || bySetPos !== '-1' || !(d >= 29 && d <= 31) || byMonthDay !== clampList(d)) {
      throw bad('BYMONTHDAY/BYSETPOS only as the month-end clamp BYMONTHDAY=28,…,d;BYSETPOS=-1');
    }
    rule.clampTo = d;
  }

  const count = fields.get('COUNT');
  const until = fields.get('UNTIL');
  if ((count === undefined) === (until === undefined)) throw bad('exactly one of COUNT and UNTIL');
  if (count !== undefined) {
    if (!/^[1-9]\d{0,2}$/.test(count) || Number(count) > RECURRENCE_MAX_COUNT) throw bad(`COUNT must be 1–${RECURRENCE_MAX_COUNT}`);
    rule.count = Number(count);
  } else {
    const m = UNTIL_RE.exec(until!);
    const [y, mo, d, h, mi, s] = (m ?? []).slice(1).map(Number) as number[];
    const at = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
    if (!m || !isIsoDay(`${m[1]}-${m[2]}-${m[3]}`) || h! > 23 || mi! > 59 || s! > 59 || Number.isNaN(at.getTime())) {
      throw bad('UNTIL must be a UTC date-time YYYYMMDDTHHMMSSZ');
    }
    rule.until = at;
  }
  return rule;
}

/** Checks a rule against its start: the start day fits the clamp, the series ends in time and not before it starts. */
function checkAgainstStart(rule: Rule, rec: Omit<Recurrence, 'rrule'>): void {
  const d = dayOfMonth(rec.startDay);
  if (rule.freq === 'MONTHLY' && (rule.clampTo ?? 0) !== (d >= 29 ? d : 0)) {
    throw bad(`a monthly series starting on day ${d} must${d >= 29 ? '' : ' not'} carry BYMONTHDAY=28,…,${d >= 29 ? d : 'd'};BYSETPOS=-1`);
  }
  const latest = addMonthsToDay(rec.startDay, RECURRENCE_MAX_YEARS * 12);
  let lastDay: string;
  if (rule.until) {
    if (rule.until.getTime() < toInstant(rec.startDay, rec.startTime, rec.tz).getTime()) throw bad('UNTIL is before the start');
    lastDay = toLocal(rule.until, rec.tz).day;
  } else {
    const n = rule.count! - 1;
    lastDay = rule.freq === 'WEEKLY' ? shiftDay(rec.startDay, n * 7 * rule.interval) : addMonthsToDay(rec.startDay, n);
  }
  if (lastDay > latest) throw bad(`a series lasts at most ${RECURRENCE_MAX_YEARS} years (until ${latest} at the latest)`);
}

function checkStart(input: { startDay?: unknown; startTime?: unknown; tz?: unknown }): void {
  if (!isIsoDay(input.startDay)) throw bad(`start day must be a calendar day YYYY-MM-DD: ${JSON.stringify(input.startDay)}`);
  if (!isHHmm(input.startTime)) throw bad(`start time must be HH:mm: ${JSON.stringify(input.startTime)}`);
  if (!isValidTimeZone(input.tz)) throw bad(`unknown time zone ${JSON.stringify(input.tz)}`);
}

function ruleFor(settings: RecurrenceSettings & { startDay: string; tz: string }): Rule {
  const { frequency, until, count, startDay, tz } = settings;
  if (!RECURRENCE_FREQUENCIES.includes(frequency)) throw bad(`frequency must be one of ${RECURRENCE_FREQUENCIES.join(', ')}`);
  if ((until === undefined) === (count === undefined)) throw bad('give exactly one of until and count');
  const rule: Rule = { freq: frequency === 'monthly' ? 'MONTHLY' : 'WEEKLY', interval: frequency === 'biweekly' ? 2 : 1 };
  if (frequency === 'monthly' && dayOfMonth(startDay) >= 29) rule.clampTo = dayOfMonth(startDay);
  if (count !== undefined) {
    if (!Number.isInteger(count) || count < 1 || count > RECURRENCE_MAX_COUNT) throw bad(`count must be 1–${RECURRENCE_MAX_COUNT}`);
    rule.count = count;
  } else {
    if (!isIsoDay(until)) throw bad(`until must be a calendar day YYYY-MM-DD: ${JSON.stringify(until)}`);
    if (until < startDay) throw bad('until is before the start day');
    rule.until = endOfLocalDay(until, tz);
  }
  return rule;
}

/**
 * RRULE text for a series starting on `startDay`: weekly → FREQ=WEEKLY;INTERVAL=1, biweekly → INTERVAL=2,
 * monthly → FREQ=MONTHLY on the start's day of the month (29th–31st clamp to a shorter month's last
 * day). `until` is a local day in `tz` (default Europe/Madrid), inclusive, written as UTC.
 */
export function buildRrule(input: RecurrenceSettings & { startDay: string; tz?: string }): string {
  const tz = input.tz ?? DEFAULT_TIME_ZONE;
  checkStart({ startDay: input.startDay, startTime: '00:00', tz });
  const rule = ruleFor({ ...input, tz });
  checkAgainstStart(rule, { startDay: input.startDay, startTime: '00:00', tz });
  return serialize(rule);
}

/** A stored series from form settings. */
export function buildRecurrence(input: RecurrenceSettings & { startDay: string; startTime: string; tz: string }): Recurrence {
  checkStart(input);
  const rule = ruleFor(input);
  checkAgainstStart(rule, input);
  return { rrule: serialize(rule), startDay: input.startDay, startTime: input.startTime, tz: input.tz };
}

/** Validates a stored series (throws RangeError) and returns it with its RRULE in canonical form. */
export function parseRecurrence(input: unknown): Recurrence {
  if (typeof input !== 'object' || input === null) throw bad('expected { rrule, startDay, startTime, tz }');
  const { rrule, startDay, startTime, tz } = input as Record<string, unknown>;
  if (typeof rrule !== 'string' || rrule.length > 300) throw bad('rrule must be RRULE text');
  checkStart({ startDay, startTime, tz });
  const rec = { startDay, startTime, tz } as Omit<Recurrence, 'rrule'>;
  const rule = parseRule(rrule);
  checkAgainstStart(rule, rec);
  return { rrule: serialize(rule), ...rec };
}

/** The form settings of a stored series (the inverse of `buildRecurrence`). */
export function recurrenceSettings(rec: Recurrence): RecurrenceSettings {
  const { rrule, tz } = parseRecurrence(rec);
  const rule = parseRule(rrule);
  const frequency: RecurrenceFrequency = rule.freq === 'MONTHLY' ? 'monthly' : rule.interval === 2 ? 'biweekly' : 'weekly';
  return rule.count !== undefined ? { frequency, count: rule.count } : { frequency, until: toLocal(rule.until!, tz).day };
}

export type OccurrenceWindow = {
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
  /** 1–RECURRENCE_MAX_COUNT, default RECURRENCE_MAX_COUNT. */
  limit?: number;
};

function expand(input: Recurrence, window: OccurrenceWindow): { day: string; at: Date }[] {
  const rec = parseRecurrence(input);
  const rule = parseRule(rec.rrule);
  const { from, to, limit = RECURRENCE_MAX_COUNT } = window;
  if (!Number.isInteger(limit) || limit < 1 || limit > RECURRENCE_MAX_COUNT) throw bad(`limit must be 1–${RECURRENCE_MAX_COUNT}`);
  for (const d of [from, to])
    if (d !== undefined && (!(d instanceof Date) || Number.isNaN(d.getTime()))) throw bad('from/to must be valid dates');
  const fromMs = from?.getTime() ?? -Infinity;
  const toMs = to?.getTime() ?? Infinity;
  const lastDay = to ? toLocal(to, rec.tz).day : undefined;

  // Calendar days in UTC (no gaps there); UNTIL becomes the end of its local day, checked exactly below.
  const calendar = { ...rule, until: rule.until && new Date(`${toLocal(rule.until, rec.tz).day}T23:59:59Z`) };
  const rruleString = `DTSTART:${rec.startDay.replaceAll('-', '')}T120000Z\nRRULE:${serialize(calendar)}`;
  const out: { day: string; at: Date }[] = [];
  new RRuleTemporal({ rruleString, cache: false }).all((zdt, i) => {
    const day = zdt.toPlainDate().toString();
    if (i >= RECURRENCE_MAX_COUNT * 2 || (lastDay !== undefined && day > lastDay)) return false;
    const at = toInstant(day, rec.startTime, rec.tz);
    if (rule.until && at.getTime() > rule.until.getTime()) return false;
    if (at.getTime() >= fromMs && at.getTime() < toMs) out.push({ day, at });
    return out.length < limit;
  });
  return out;
}

/** Instants of a series within [from, to), in order, at most `limit`. */
export function occurrences(rec: Recurrence, window: OccurrenceWindow = {}): Date[] {
  return expand(rec, window).map((o) => o.at);
}

/** Local days (in the series' zone) of the same occurrences as `occurrences`. */
export function occurrenceDays(rec: Recurrence, window: OccurrenceWindow = {}): string[] {
  return expand(rec, window).map((o) => o.day);
}
