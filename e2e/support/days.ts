/** Days as the tests need them: in Madrid (the server's zone), as the API takes them and as the screens type them. */

/** A day in Madrid (the server's zone), 'YYYY-MM-DD', `offset` days from today. */
export function madridIsoDay(offset = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + offset)).toISOString().slice(0, 10);
}

/** As the screens show and take a day: 'YYYY-MM-DD' → 'DD/MM/YYYY'. */
export const dmy = (iso: string): string => iso.split('-').reverse().join('/');

/** A day in Madrid as the screens type it, 'DD/MM/YYYY', `offset` days from today. */
export const madridDmy = (offset = 0): string => dmy(madridIsoDay(offset));

/** `day` ('YYYY-MM-DD') moved by `n` days. */
export const shiftDay = (day: string, n: number): string =>
  new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The Monday at least a week ahead: its week is one grid, all of it in the future. */
export function mondayInAWeek(): string {
  const weekday = (new Date(`${madridIsoDay(0)}T12:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  return madridIsoDay(7 + (7 - weekday));
}
