import { SESSION_RANGE_MAX_DAYS, type CancellationReason, type Session } from '@divan/core';

const DAY = 86_400_000;

/** How far back «Sesiones por cerrar» looks: the longest range the sessions API reads, up to now. */
export function pastRange(now = new Date()): { from: string; to: string } {
  return { from: new Date(now.getTime() - SESSION_RANGE_MAX_DAYS * DAY).toISOString(), to: now.toISOString() };
}

/** Sessions already over and still «Pendiente»: nobody said whether they took place. Oldest first. */
export function sessionsToClose<S extends Pick<Session, 'status' | 'endsAt'>>(sessions: readonly S[], now = new Date()): S[] {
  return sessions
    .filter((s) => s.status === 'pending' && Date.parse(s.endsAt) <= now.getTime())
    .sort((a, b) => a.endsAt.localeCompare(b.endsAt));
}

/** How a past session is closed from the dashboard: it took place, the patient did not come, or it was canceled (and why). */
export type Outcome = { kind: 'completed' } | { kind: 'canceled'; reason: CancellationReason };

export const CANCEL_CHOICES: { reason: CancellationReason; label: string }[] = [
  { reason: 'patient', label: 'Por el paciente' },
  { reason: 'therapist', label: 'Por el terapeuta' },
  { reason: 'late', label: 'Tardía' },
];

/** What the toast says once closed. */
export function closedText(outcome: Outcome, patient: string): string {
  if (outcome.kind === 'completed') return `Sesión con ${patient} completada`;
  return outcome.reason === 'no_show' ? `${patient} no asistió: sesión cerrada` : `Sesión con ${patient} cancelada`;
}
