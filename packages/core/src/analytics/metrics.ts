/**
 * The statistics' formulas, once: every card of /analytics and of the dashboard, and the export, read
 * their rates, changes and bands from here. Plain code (no Zod), integer cents, counts as integers;
 * a rate is a fraction 0–1 or null when its denominator is zero (shown «—», never «0 %» or «NaN»).
 */
import { ageOn } from '../consents/consent-envelope.rules';
import { daysBetween } from '../time/zoned';

/** `part ÷ whole`, or null when there is nothing to divide by. */
export const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

/** The change against the previous period as a fraction (+0.25 = ▲ 25 %); null when it had nothing. */
export const change = (current: number, previous: number): number | null =>
  previous === 0 ? null : (current - previous) / Math.abs(previous);

/** The median of a list of numbers (the mean of the two middle ones for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * No-show rate: sessions the patient did not come to (canceled as `no_show`) ÷ the sessions that were
 * due to happen (completed + no-shows). A cancellation made in time is not a no-show and not counted.
 */
export const noShowRate = (noShows: number, completed: number) => rate(noShows, completed + noShows);

/** Drop-out rate: treatments ended as «abandoned» ÷ treatments ended (spec's ending reasons). */
export const dropOutRate = (abandoned: number, ended: number) => rate(abandoned, ended);

/** A treatment abandoned after this many completed sessions or fewer is an early drop-out. */
export const EARLY_DROPOUT_MAX_SESSIONS = 3;

/** Age bands of the patients' card, by age on the period's last day. */
export const AGE_BANDS = ['0_17', '18_25', '26_35', '36_45', '46_55', '56_65', '66_plus', 'unknown'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];
export const AGE_BAND_LABELS: Record<AgeBand, string> = {
  '0_17': 'Menores de 18',
  '18_25': '18–25',
  '26_35': '26–35',
  '36_45': '36–45',
  '46_55': '46–55',
  '56_65': '56–65',
  '66_plus': '66 o más',
  unknown: 'Sin fecha de nacimiento',
};

export function ageBand(birthdate: string | null, on: string): AgeBand {
  if (!birthdate) return 'unknown';
  const age = ageOn(birthdate, on);
  if (age < 18) return '0_17';
  if (age <= 25) return '18_25';
  if (age <= 35) return '26_35';
  if (age <= 45) return '36_45';
  if (age <= 55) return '46_55';
  if (age <= 65) return '56_65';
  return '66_plus';
}

/** Ageing of what is owed, by days since the invoice was issued (0–30, 31–60, 61–90, > 90). */
export const AGEING_BUCKETS = ['0_30', '31_60', '61_90', '90_plus'] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];
export const AGEING_LABELS: Record<AgeingBucket, string> = {
  '0_30': '0–30 días',
  '31_60': '31–60 días',
  '61_90': '61–90 días',
  '90_plus': 'Más de 90 días',
};

export function ageingBucket(issueDay: string, today: string): AgeingBucket {
  const days = daysBetween(issueDay, today);
  if (days <= 30) return '0_30';
  if (days <= 60) return '31_60';
  if (days <= 90) return '61_90';
  return '90_plus';
}

/** «▲ 25 %», «▼ 3 %», «=» or null (nothing to compare with), with one decimal under 10 %. */
export function formatChange(c: number | null): string | null {
  if (c === null) return null;
  if (Math.abs(c) < 0.0005) return '=';
  const pct = Math.abs(c) * 100;
  const text = pct < 10 ? pct.toLocaleString('es-ES', { maximumFractionDigits: 1 }) : Math.round(pct).toLocaleString('es-ES');
  return `${c > 0 ? '▲' : '▼'} ${text} %`;
}

/** A rate as Spanish percent text («12,5 %»), «—» when there is none. */
export function formatRate(r: number | null): string {
  if (r === null) return '—';
  return `${(r * 100).toLocaleString('es-ES', { maximumFractionDigits: 1 })} %`;
}
