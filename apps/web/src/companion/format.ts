/** Dates as Spain writes them (DD/MM/YYYY, HH:mm), in the browser's zone, with Intl only. */
const time = new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const day = new Intl.DateTimeFormat('es-ES', { day: '2-digit', month: '2-digit', year: 'numeric' });

export const formatTime = (iso: string) => time.format(new Date(iso));
export const formatDate = (iso: string) => day.format(new Date(iso));

/** «14:05» today, «Ayer 14:05», else «03/11/2026 14:05». */
export function formatWhen(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const today = day.format(now);
  if (day.format(d) === today) return time.format(d);
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (day.format(d) === day.format(yesterday)) return `Ayer ${time.format(d)}`;
  return `${day.format(d)} ${time.format(d)}`;
}
