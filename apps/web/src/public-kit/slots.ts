/**
 * The month answers (by the therapist's local day) regrouped by the visitor's own day, which is what
 * the calendar shows: with zones far apart a late slot may fall on the visitor's next day.
 */
import type { PublicSlots } from '@divan/core';
import { addMonths } from './month-grid';
import { dayInZone } from './format';

export type Slot = PublicSlots['days'][number]['slots'][number];

/** Every loaded month's slots by the visitor's day, each day in time order, without repeats. */
export function slotsByVisitorDay(months: readonly PublicSlots[]): Map<string, Slot[]> {
  const seen = new Set<string>();
  const byDay = new Map<string, Slot[]>();
  for (const m of months)
    for (const d of m.days)
      for (const s of d.slots) {
        if (seen.has(s.startsAt)) continue;
        seen.add(s.startsAt);
        const list = byDay.get(s.visitor.day);
        if (list) list.push(s);
        else byDay.set(s.visitor.day, [s]);
      }
  for (const list of byDay.values()) list.sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
  return byDay;
}

/** The free days of `month` (visitor's days), in order. */
export function freeDaysIn(byDay: ReadonlyMap<string, Slot[]>, month: string): string[] {
  return [...byDay.keys()].filter((d) => d.startsWith(`${month}-`)).sort();
}

type Notice = { amount: number; unit: 'months' | 'days' | 'hours' | 'minutes' };

/** The last month worth showing: the service's maximum notice from now (12 months when unknown). */
export function lastMonth(now: Date, timeZone: string, maxNotice: Notice | undefined): string {
  const today = dayInZone(now, timeZone);
  const month = today.slice(0, 7);
  if (!maxNotice) return addMonths(month, 12);
  if (maxNotice.unit === 'months') return addMonths(month, maxNotice.amount);
  const ms = maxNotice.amount * (maxNotice.unit === 'days' ? 86_400_000 : maxNotice.unit === 'hours' ? 3_600_000 : 60_000);
  return dayInZone(new Date(now.getTime() + ms), timeZone).slice(0, 7);
}
