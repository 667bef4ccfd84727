import { REMINDER_OPTIONS } from '@divan/core';

/** Ticks or unticks an offset; a tick past the plan's cap is refused (returns null), the list kept longest first. */
export function toggleOffset(selected: readonly number[], minutes: number, max: number): number[] | null {
  if (selected.includes(minutes)) return selected.filter((m) => m !== minutes);
  if (selected.length >= max) return null;
  return [...selected, minutes].sort((a, b) => b - a);
}

/** "1 día antes y 1 h antes", or "Sin recordatorios". */
export function describeOffsets(selected: readonly number[]): string {
  const labels = [...selected].sort((a, b) => b - a).map((m) => REMINDER_OPTIONS.find((o) => o.minutes === m)?.label ?? `${m} min antes`);
  if (!labels.length) return 'Sin recordatorios';
  return labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(', ')} y ${labels.at(-1)}`;
}
