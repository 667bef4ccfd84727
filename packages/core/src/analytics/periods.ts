/**
 * The statistics' periods (spec §9 date presets): calendar days in the workspace's zone, both ends
 * included, weeks from Monday. Plain code on `time/zoned.ts` (no date library): `today` is the local day
 * the caller computed with `todayIn(tz, now)`, so nothing here reads a clock or the process zone.
 */
import { daysBetween, isIsoDay, isoWeekday, shiftDay } from '../time/zoned';

export const PERIOD_PRESETS = [
  'today',
  'yesterday',
  'last_7_days',
  'last_14_days',
  'last_30_days',
  'this_week',
  'last_week',
  'this_month',
  'last_month',
] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export const PERIOD_PRESET_LABELS: Record<PeriodPreset, string> = {
  today: 'Hoy',
  yesterday: 'Ayer',
  last_7_days: 'Últimos 7 días',
  last_14_days: 'Últimos 14 días',
  last_30_days: 'Últimos 30 días',
  this_week: 'Esta semana',
  last_week: 'La semana pasada',
  this_month: 'Este mes',
  last_month: 'El mes pasado',
};

/** Calendar days, both included: 'YYYY-MM-DD'. */
export type Period = { from: string; to: string };

/** The longest period one request aggregates: ten years (the whole history of a practice). */
export const PERIOD_MAX_DAYS = 3_660;

const firstOfMonth = (day: string) => `${day.slice(0, 8)}01`;
const lastOfMonth = (day: string) => shiftDay(firstOfMonth(shiftDay(firstOfMonth(day), 32)), -1);

/** The days a preset names on `today` ("last 7 days" ends today and holds 7 days). */
export function presetPeriod(preset: PeriodPreset, today: string): Period {
  const monday = shiftDay(today, 1 - isoWeekday(today));
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const d = shiftDay(today, -1);
      return { from: d, to: d };
    }
    case 'last_7_days':
      return { from: shiftDay(today, -6), to: today };
    case 'last_14_days':
      return { from: shiftDay(today, -13), to: today };
    case 'last_30_days':
      return { from: shiftDay(today, -29), to: today };
    case 'this_week':
      return { from: monday, to: shiftDay(monday, 6) };
    case 'last_week':
      return { from: shiftDay(monday, -7), to: shiftDay(monday, -1) };
    case 'this_month':
      return { from: firstOfMonth(today), to: lastOfMonth(today) };
    case 'last_month': {
      const last = shiftDay(firstOfMonth(today), -1);
      return { from: firstOfMonth(last), to: last };
    }
  }
}

/** Days in a period, both ends counted. */
export const periodDays = (p: Period): number => daysBetween(p.from, p.to) + 1;

/**
 * The period compared with: the same number of days just before. A whole calendar month is compared
 * with the whole month before it (March with February, not with the 31 days before March), and so is
 * a run of whole months.
 */
export function previousPeriod(p: Period): Period {
  if (p.from === firstOfMonth(p.from) && p.to === lastOfMonth(p.to)) {
    const months = (Number(p.to.slice(0, 4)) - Number(p.from.slice(0, 4))) * 12 + Number(p.to.slice(5, 7)) - Number(p.from.slice(5, 7)) + 1;
    let from = p.from;
    for (let i = 0; i < months; i++) from = firstOfMonth(shiftDay(from, -1));
    return { from, to: shiftDay(p.from, -1) };
  }
  const n = periodDays(p);
  return { from: shiftDay(p.from, -n), to: shiftDay(p.from, -1) };
}

/** The Spanish message of a period that cannot be aggregated, or null when it can. */
export function periodProblem(p: { from: unknown; to: unknown }): string | null {
  if (!isIsoDay(p.from) || !isIsoDay(p.to)) return 'Fecha inválida';
  if (p.to < p.from) return 'La fecha final no puede ser anterior a la inicial';
  if (daysBetween(p.from, p.to) + 1 > PERIOD_MAX_DAYS) return 'El periodo no puede ser mayor de 10 años';
  return null;
}

/** The preset a period is on `today`, if it is one (the picker shows its name instead of the days). */
export function presetOf(p: Period, today: string): PeriodPreset | null {
  return (
    PERIOD_PRESETS.find((k) => {
      const q = presetPeriod(k, today);
      return q.from === p.from && q.to === p.to;
    }) ?? null
  );
}

/** 'YYYY-MM' of every month a period touches, in order (the by-month charts' axis). */
export function monthsOf(p: Period): string[] {
  const out: string[] = [];
  let day = firstOfMonth(p.from);
  while (day <= p.to) {
    out.push(day.slice(0, 7));
    day = shiftDay(lastOfMonth(day), 1);
  }
  return out;
}

/** Every day of a period, in order (the daily charts' axis). */
export function daysOf(p: Period): string[] {
  const out: string[] = [];
  for (let d = p.from; d <= p.to; d = shiftDay(d, 1)) out.push(d);
  return out;
}
