/**
 * The list's date filters as ranges of issue dates, inclusive, 'YYYY-MM-DD', counted on the calendar
 * of the browser (Diván's users are in Spain). Weeks start on Monday.
 */
export const DATE_PRESETS = ['today', 'yesterday', 'last7', 'last14', 'last30', 'thisWeek', 'lastWeek', 'thisMonth', 'lastMonth'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const DATE_PRESET_LABELS: Record<DatePreset, string> = {
  today: 'Hoy',
  yesterday: 'Ayer',
  last7: 'Últimos 7 días',
  last14: 'Últimos 14 días',
  last30: 'Últimos 30 días',
  thisWeek: 'Esta semana',
  lastWeek: 'La semana pasada',
  thisMonth: 'Este mes',
  lastMonth: 'El mes pasado',
};

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** A local calendar day, `days` after `d` (noon: no daylight-saving change moves it to another day). */
const addDays = (d: Date, days: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + days, 12);

export function presetRange(preset: DatePreset, now: Date = new Date()): { from: string; to: string } {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate(), 12);
  const monday = addDays(today, -((today.getDay() + 6) % 7));
  switch (preset) {
    case 'today':
      return { from: iso(today), to: iso(today) };
    case 'yesterday':
      return { from: iso(addDays(today, -1)), to: iso(addDays(today, -1)) };
    case 'last7':
      return { from: iso(addDays(today, -6)), to: iso(today) };
    case 'last14':
      return { from: iso(addDays(today, -13)), to: iso(today) };
    case 'last30':
      return { from: iso(addDays(today, -29)), to: iso(today) };
    case 'thisWeek':
      return { from: iso(monday), to: iso(addDays(monday, 6)) };
    case 'lastWeek':
      return { from: iso(addDays(monday, -7)), to: iso(addDays(monday, -1)) };
    case 'thisMonth':
      return {
        from: iso(new Date(today.getFullYear(), today.getMonth(), 1, 12)),
        to: iso(new Date(today.getFullYear(), today.getMonth() + 1, 0, 12)),
      };
    case 'lastMonth':
      return {
        from: iso(new Date(today.getFullYear(), today.getMonth() - 1, 1, 12)),
        to: iso(new Date(today.getFullYear(), today.getMonth(), 0, 12)),
      };
  }
}
