/**
 * Calendar days as 'YYYY-MM-DD' strings and months as 'YYYY-MM': the month calendar's grid and its
 * keyboard moves. Plain UTC arithmetic on the calendar date: no zone, no clock.
 */
const pad = (n: number) => String(n).padStart(2, '0');
const DAY_MS = 86_400_000;

function toUtc(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}
function fromUtc(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

export const monthOf = (day: string): string => day.slice(0, 7);

export function addDays(day: string, n: number): string {
  return fromUtc(toUtc(day) + n * DAY_MS);
}

export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const total = y * 12 + (m - 1) + n;
  return `${Math.floor(total / 12)}-${pad((total % 12) + 1)}`;
}

export function daysInMonth(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** 0 = Monday … 6 = Sunday (weeks start on Monday in Spain). */
export function weekdayOf(day: string): number {
  return (new Date(toUtc(day)).getUTCDay() + 6) % 7;
}

/** The month's weeks, Monday first; null pads the days of the neighbouring months. */
export function monthGrid(month: string): (string | null)[][] {
  const first = `${month}-01`;
  const cells: (string | null)[] = Array.from({ length: weekdayOf(first) }, () => null);
  for (let d = 1; d <= daysInMonth(month); d++) cells.push(`${month}-${pad(d)}`);
  while (cells.length % 7) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** The same day of another month, or its last day when shorter (31 March → 30 April). */
function sameDayIn(day: string, n: number): string {
  const month = addMonths(monthOf(day), n);
  return `${month}-${pad(Math.min(Number(day.slice(8)), daysInMonth(month)))}`;
}

/** Where a key moves the focused day of the grid (the WAI-ARIA date picker's keys); null: not a move. */
export function keyTarget(day: string, key: string, shift = false): string | null {
  switch (key) {
    case 'ArrowLeft':
      return addDays(day, -1);
    case 'ArrowRight':
      return addDays(day, 1);
    case 'ArrowUp':
      return addDays(day, -7);
    case 'ArrowDown':
      return addDays(day, 7);
    case 'Home':
      return addDays(day, -weekdayOf(day));
    case 'End':
      return addDays(day, 6 - weekdayOf(day));
    case 'PageUp':
      return sameDayIn(day, shift ? -12 : -1);
    case 'PageDown':
      return sameDayIn(day, shift ? 12 : 1);
    default:
      return null;
  }
}
