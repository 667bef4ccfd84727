import { change, formatCents, formatChange, formatInteger } from '@divan/core';

export { plural } from '@/lib/format';
/** "1.234": thousands grouped from four digits, like the rest of the app. */
export const formatCount = (n: number) => formatInteger(n);
export const formatMoney = (cents: number) => formatCents(cents);
export const formatMinutes = (m: number) =>
  m < 60 ? `${m} min` : `${formatInteger(Math.floor(m / 60))} h ${m % 60 ? `${m % 60} min` : ''}`.trim();

/** ▲▼ against the period before: its text, and whether up is good news (fewer no-shows is). */
export function delta(current: number | null, previous: number | null, upIsGood = true) {
  if (current === null || previous === null) return null;
  const c = change(current, previous);
  const text = formatChange(c);
  if (text === null) return null;
  const tone = c === null || Math.abs(c) < 0.0005 ? 'same' : c > 0 === upIsGood ? 'good' : 'bad';
  return { text, tone } as const;
}

/** «MM/AAAA» of 'YYYY-MM'; «DD/MM» of a day for a chart's axis. */
export const monthLabel = (m: string) => `${m.slice(5, 7)}/${m.slice(0, 4)}`;
export const shortDay = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}`;
export const longDay = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;
