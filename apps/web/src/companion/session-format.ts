/**
 * A session and a document as the patient reads them: the day (DD/MM/YYYY), the hours (HH:mm) and the
 * length in the session's own zone (the therapist's, Europe/Madrid as a rule), where it happens, a file's
 * size. Pure, with Intl only (the booking pages' helpers).
 */
import type { CompanionSession } from '@divan/core';
import { dayInZone, dayLabel, formatDuration, timeInZone } from '../public-kit/format';

export type SessionWhen = { day: string; dayLabel: string; from: string; to: string; duration: string };

/** 'jueves 03/12/2026', '10:00', '10:50', '50 min' of a session, in its zone. */
export function sessionWhen(s: Pick<CompanionSession, 'startsAt' | 'endsAt' | 'timeZone'>): SessionWhen {
  const day = dayInZone(s.startsAt, s.timeZone);
  const minutes = Math.round((Date.parse(s.endsAt) - Date.parse(s.startsAt)) / 60_000);
  return {
    day,
    dayLabel: dayLabel(day),
    from: timeInZone(s.startsAt, s.timeZone),
    to: timeInZone(s.endsAt, s.timeZone),
    duration: formatDuration(minutes),
  };
}

/** «Online (videollamada)», «Presencial · Consulta Centro, Calle Mayor 1», or «Presencial». */
export function placeOf(s: Pick<CompanionSession, 'modality' | 'location'>): string {
  if (s.modality === 'online') return 'Online (videollamada)';
  if (!s.location) return 'Presencial';
  return `Presencial · ${[s.location.name, s.location.address].filter(Boolean).join(', ')}`;
}

/** The time left to change it: «Puedes cancelarla o cambiarla hasta el 02/12/2026 a las 10:00». */
export function changeableLabel(s: Pick<CompanionSession, 'changeableUntil' | 'timeZone' | 'canCancel' | 'canMove'>): string | null {
  if (!s.changeableUntil || (!s.canCancel && !s.canMove)) return null;
  const [y, m, d] = dayInZone(s.changeableUntil, s.timeZone).split('-');
  const what = s.canCancel && s.canMove ? 'cancelarla o cambiarla' : s.canCancel ? 'cancelarla' : 'cambiarla';
  return `Puedes ${what} desde aquí hasta el ${d}/${m}/${y} a las ${timeInZone(s.changeableUntil, s.timeZone)}.`;
}

/** Another page appended to what was loaded, without repeating an item a change moved between pages. */
export function appendPage<T extends { id: string }>(loaded: readonly T[], page: readonly T[]): T[] {
  const seen = new Set(loaded.map((x) => x.id));
  return [...loaded, ...page.filter((x) => !seen.has(x.id))];
}

const decimal = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });

/** '850 B', '12 KB', '1,4 MB'. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${decimal.format(bytes / (1024 * 1024))} MB`;
}
