import { availabilityOverrideProblems, isIsoDay, type AvailabilityOverride } from '@divan/core';

/** One row of «Bloquear fechas» as typed. */
export type BlockRow = { key: number; day: string; allDay: boolean; from: string; to: string };

let next = 0;
export const newRow = (day = ''): BlockRow => ({ key: next++, day, allDay: true, from: '09:00', to: '14:00' });

export const entryOf = (r: BlockRow): AvailabilityOverride =>
  r.allDay ? { day: r.day, allDay: true } : { day: r.day, allDay: false, from: r.from, to: r.to };

/**
 * Messages by row and field ('0.day', '1.to'): a day not yet a real date, then core's rules (repeated,
 * past, inverted or empty range) on the rows that are.
 */
export function rowProblems(rows: readonly BlockRow[], today: string): Record<string, string> {
  const out: Record<string, string> = {};
  rows.forEach((r, i) => {
    const typed: string = r.day;
    if (!isIsoDay(r.day)) out[`${i}.day`] = typed.trim() ? 'Fecha inválida: escribe DD/MM/AAAA' : 'Indica la fecha';
  });
  for (const p of availabilityOverrideProblems(rows.map(entryOf), today)) {
    const [, i, field] = p.path.split('.');
    const key = `${i}.${field === 'from' || field === 'to' ? 'to' : 'day'}`;
    out[key] ??= p.message;
  }
  return out;
}
