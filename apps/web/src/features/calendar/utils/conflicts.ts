import { DEFAULT_TIME_ZONE } from '@divan/core';
import type { SessionConflict } from '@divan/core';
import type { GridSession } from '../api/types';

type Slot = { id?: string; therapistId: string; locationId: string; day: string; from: string; to: string };

/**
 * Sessions already on screen that overlap the one being written (same therapist or same room): shown
 * as a warning while typing. The server answers the full list on save; this is a preview.
 */
export function overlapping(slot: Slot, sessions: GridSession[]): { session: GridSession; kind: 'therapist' | 'location' }[] {
  if (!slot.day || !slot.from || !slot.to || slot.from >= slot.to) return [];
  const out: { session: GridSession; kind: 'therapist' | 'location' }[] = [];
  for (const s of sessions) {
    if (s.id === slot.id || s.status === 'canceled' || s.day !== slot.day) continue;
    if (!(s.from < slot.to && slot.from < s.to)) continue;
    if (slot.therapistId && s.therapist.id === slot.therapistId) out.push({ session: s, kind: 'therapist' });
    else if (slot.locationId && s.location?.id === slot.locationId) out.push({ session: s, kind: 'location' });
  }
  return out;
}

const hm = new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: DEFAULT_TIME_ZONE });
const dm = new Intl.DateTimeFormat('es-ES', { day: 'numeric', month: 'short', timeZone: DEFAULT_TIME_ZONE });

/** "Se solapa con 2 sesiones: 24 nov 10:00 (mismo terapeuta), …" for the toast after a save. */
export function describeConflicts(conflicts: SessionConflict[]): string {
  const shown = conflicts.slice(0, 3).map((c) => {
    const start = new Date(c.startsAt);
    return `${dm.format(start)} ${hm.format(start)} (${c.kind === 'therapist' ? 'mismo terapeuta' : 'misma ubicación'})`;
  });
  const more = conflicts.length > 3 ? ` y ${conflicts.length - 3} más` : '';
  return `${conflicts.length === 1 ? 'Se solapa con otra sesión' : `Se solapa con ${conflicts.length} sesiones`}: ${shown.join(', ')}${more}.`;
}
