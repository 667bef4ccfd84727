import { isHHmm, isIsoDay } from '../time/zoned';
import { bookingMessages } from './booking.constants';
import type { AvailabilityOverride } from './availability-override.contracts';
import type { BookingProblem } from './booking-service.rules';

/**
 * The rules of blocked dates (spec §5), pure: no day twice in one request, no day before `today` (the
 * therapist's local day, `todayIn(timeZone)`, passed in so the rule stays pure), no inverted or empty
 * range. Paths name the request body's fields ('dates.2.to'); `prefix` is '' for a single override.
 */
export function availabilityOverrideProblems(entries: readonly AvailabilityOverride[], today: string, prefix = 'dates'): BookingProblem[] {
  if (!isIsoDay(today)) throw new RangeError(`Invalid today: ${JSON.stringify(today)}`);
  const problems: BookingProblem[] = [];
  const add = (path: string, message: string) => problems.push({ code: 'invalid_argument', path, message });
  const at = (i: number, field: string) => [prefix, prefix ? String(i) : '', field].filter(Boolean).join('.');
  const seen = new Set<string>();
  entries.forEach((o, i) => {
    if (seen.has(o.day)) add(at(i, 'day'), bookingMessages.repeatedDay());
    seen.add(o.day);
    if (o.day < today) add(at(i, 'day'), bookingMessages.pastDay());
    if (!o.allDay) {
      if (!isHHmm(o.from) || !isHHmm(o.to)) add(at(i, 'from'), bookingMessages.overrideTimesRequired());
      else if (o.from > o.to) add(at(i, 'to'), bookingMessages.invertedRange());
      else if (o.from === o.to) add(at(i, 'to'), bookingMessages.emptyRange());
    }
  });
  return problems;
}
