/**
 * Booking timespans (spec §9): an amount of months, days, hours or minutes, for a service's minimum and
 * maximum notice. Months and days are calendar units in the therapist's time zone: "1 month" after
 * 31 January 10:00 is 28/29 February 10:00, "2 days" after Saturday 18:00 is Monday 18:00 even across a
 * clock change (`addLocalMonths`, `addLocalDays`). Hours and minutes are real time. A form's schema of
 * one is in timespan.contracts.ts.
 */
import { addLocalDays, addLocalMonths, addMinutes } from '../time/zoned';

const labelled = <K extends string>(entries: Record<K, string>) => ({ values: Object.keys(entries) as K[], labels: entries });

export const TIMESPAN_UNITS = labelled({ months: 'meses', days: 'días', hours: 'horas', minutes: 'minutos' });
export type TimespanUnit = keyof typeof TIMESPAN_UNITS.labels;
export type Timespan = { amount: number; unit: TimespanUnit };

const SINGULAR: Record<TimespanUnit, string> = { months: 'mes', days: 'día', hours: 'hora', minutes: 'minuto' };

/** The largest amount of each unit: about a year. */
export const TIMESPAN_MAX: Record<TimespanUnit, number> = { months: 12, days: 366, hours: 366 * 24, minutes: 366 * 24 * 60 };

/** Nominal minutes of a unit, for comparing timespans of different units (a month counts 30 days). */
const NOMINAL_MINUTES: Record<TimespanUnit, number> = { months: 30 * 1440, days: 1440, hours: 60, minutes: 1 };

/** The instant `span` after `instant`, months and days counted on the calendar of `timeZone`. */
export function addTimespan(instant: Date, span: Timespan, timeZone: string): Date {
  switch (span.unit) {
    case 'months':
      return addLocalMonths(instant, span.amount, timeZone);
    case 'days':
      return addLocalDays(instant, span.amount, timeZone);
    case 'hours':
      return addMinutes(instant, span.amount * 60);
    case 'minutes':
      return addMinutes(instant, span.amount);
  }
}

/**
 * The length of a timespan in minutes with a month as 30 days and a day as 24 hours: a comparison of
 * settings (the rules of §5), never a date computation (that is `addTimespan`).
 */
export function nominalMinutes(span: Timespan): number {
  return span.amount * NOMINAL_MINUTES[span.unit];
}

/** "1 día", "2 meses", "90 minutos". */
export function formatTimespan(span: Timespan): string {
  return `${span.amount} ${span.amount === 1 ? SINGULAR[span.unit] : TIMESPAN_UNITS.labels[span.unit]}`;
}
