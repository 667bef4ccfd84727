import type { ErrorCode } from '../errors';
import { MIN_CHARGE_CENTS } from '../payments/charge-rules';
import { isHHmm, isValidTimeZone } from '../time/zoned';
import { BOOKING_DURATION_MAX, BOOKING_DURATION_MIN, BOOKING_GAP_MAX, ISO_WEEKDAYS, bookingMessages } from './booking.constants';
import type { BookingServiceSettings, TimeRange } from './booking-service.contracts';
import { nominalMinutes } from './timespan';

/**
 * The rules of a booking service beyond each field's shape (spec §5), pure. Every problem names its
 * field as the request body does ('schedule.1.0.to'); the server answers 400 `invalid_argument` with
 * them, the form marks each on its field. An update runs them on the service as it would be saved.
 */
export type BookingProblem = { code: ErrorCode; path: string; message: string };

export type CheckedBookingService = Pick<
  BookingServiceSettings,
  'schedule' | 'timeZone' | 'durationMinutes' | 'gapMinutes' | 'minNotice' | 'maxNotice' | 'priceCents' | 'payment'
>;

/** 'HH:mm' → minutes after midnight. */
export const hhmmToMinutes = (t: string): number => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/**
 * One day's ranges: each inverted or empty one, and each that overlaps an earlier one (by start).
 * Touching ranges (09:00–14:00 and 14:00–16:00) do not overlap.
 */
export function dayRangeProblems(
  ranges: readonly TimeRange[],
  path: string,
  weekday: (typeof ISO_WEEKDAYS)[number],
  durationMinutes: number,
): BookingProblem[] {
  const problems: BookingProblem[] = [];
  const add = (p: string, message: string) => problems.push({ code: 'invalid_argument', path: p, message });
  const valid: { from: number; to: number; index: number }[] = [];
  ranges.forEach((r, index) => {
    if (!isHHmm(r.from) || !isHHmm(r.to)) return add(`${path}.${index}`, 'Hora inválida');
    const from = hhmmToMinutes(r.from);
    const to = hhmmToMinutes(r.to);
    if (from > to) return add(`${path}.${index}.to`, bookingMessages.invertedRange());
    if (from === to) return add(`${path}.${index}.to`, bookingMessages.emptyRange());
    if (to - from < durationMinutes) add(`${path}.${index}.to`, bookingMessages.rangeShorterThanSession());
    valid.push({ from, to, index });
  });
  valid.sort((a, b) => a.from - b.from || a.index - b.index);
  let reach = -1;
  for (const r of valid) {
    if (r.from < reach) add(`${path}.${r.index}`, bookingMessages.overlappingRanges(weekday));
    reach = Math.max(reach, r.to);
  }
  return problems;
}

export function bookingServiceProblems(s: CheckedBookingService): BookingProblem[] {
  const problems: BookingProblem[] = [];
  const add = (path: string, message: string) => problems.push({ code: 'invalid_argument', path, message });

  if (!isValidTimeZone(s.timeZone)) add('timeZone', bookingMessages.invalidTimeZone());

  const durationOk =
    Number.isInteger(s.durationMinutes) && s.durationMinutes >= BOOKING_DURATION_MIN && s.durationMinutes <= BOOKING_DURATION_MAX;
  if (!durationOk) add('durationMinutes', bookingMessages.duration());
  if (!Number.isInteger(s.gapMinutes) || s.gapMinutes < 0 || s.gapMinutes > BOOKING_GAP_MAX) add('gapMinutes', bookingMessages.gap());

  if (ISO_WEEKDAYS.every((d) => !s.schedule[d]?.length)) add('schedule', bookingMessages.noWeekday());
  for (const d of ISO_WEEKDAYS)
    problems.push(...dayRangeProblems(s.schedule[d] ?? [], `schedule.${d}`, d, durationOk ? s.durationMinutes : 0));

  // §5: the minimum notice must not exceed the maximum plus the session's duration. Units are compared at
  // their nominal length (a month is 30 days): same units compare exactly; the real window at a given
  // moment is the slot computation's (1 month after a day of February is shorter than 30 days).
  if (nominalMinutes(s.maxNotice) === 0) add('maxNotice', bookingMessages.maxNoticeZero());
  else if (nominalMinutes(s.minNotice) > nominalMinutes(s.maxNotice) + (durationOk ? s.durationMinutes : 0))
    add('minNotice', bookingMessages.noticeOrder());

  // A card charge must be above 0,50 € (§9), so paying at booking needs a price above it.
  if (s.payment === 'pay' && s.priceCents <= MIN_CHARGE_CENTS)
    add('priceCents', 'Para cobrar al reservar, el precio debe ser mayor de 0,50 €');
  return problems;
}
