import { formatDayEs, type Holiday } from '@divan/core';

/**
 * What the setup says while holidays are still open to booking: a booking service offers its hours on
 * every day of its schedule, a holiday included, until the day is blocked. Null once none is left.
 */
export function holidayNotice(open: readonly Holiday[]): { text: string; action: string } | null {
  const next = open[0];
  if (!next) return null;
  const count = open.length === 1 ? 'Queda 1 festivo' : `Quedan ${open.length} festivos`;
  return {
    text: `Los festivos se pueden reservar como cualquier otro día mientras no los bloquees. ${count} sin bloquear en los próximos 12 meses; el primero, ${next.name}, el ${formatDayEs(next.day)}.`,
    action: open.length === 1 ? `Bloquear ${next.name}` : `Bloquear los ${open.length} festivos`,
  };
}
