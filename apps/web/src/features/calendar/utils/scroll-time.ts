/** Where a day or week opens without sessions: the start of a usual working day. */
export const WORKDAY_START = '08:00';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Where the time grid opens: half an hour before the first session on screen (on the half hour), so a
 * week of evening sessions opens on the evening; the start of the working day when there is none.
 * Canceled sessions do not count: they are not where the day's work is.
 */
export function scrollTimeFor(sessions: readonly { from: string; status: string }[]): string {
  const starts = sessions.filter((s) => s.status !== 'canceled').map((s) => s.from);
  if (!starts.length) return WORKDAY_START;
  const [h, m] = starts
    .reduce((a, b) => (b < a ? b : a))
    .split(':')
    .map(Number) as [number, number];
  const minutes = Math.max(0, Math.floor((h * 60 + m - 30) / 30) * 30);
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
