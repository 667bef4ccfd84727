import type { QueryClient } from '@tanstack/react-query';
import { patientKeys } from './keys';

const GONE = new Set(['patient.blocked', 'patient.erased']);

const within = (key: readonly unknown[], prefix: readonly unknown[]) => prefix.every((part, i) => key[i] === part);

/**
 * Forgets a patient that is gone (blocked or erased): its queries nobody is showing are dropped; one on a
 * screen still open is left as it is, never asked for again from here (that would be a 404), and goes
 * with the screen.
 */
export function forgetPatient(qc: QueryClient, workspaceId: string, patientId: string): void {
  const gone = patientKeys.detail(workspaceId, patientId);
  for (const q of qc.getQueryCache().findAll({ queryKey: gone })) if (!q.getObserversCount()) qc.getQueryCache().remove(q);
}

/**
 * A patient event heard live (another member's change, or this member's own): the patients' queries
 * refetch, except those of a patient just blocked or erased, which are forgotten (forgetPatient). Asking
 * for it again answered 404 to the member who deleted it, still on its screen behind «Paciente
 * bloqueado»; whoever else has it open finds it gone at their next read.
 */
export function onPatientEvent(qc: QueryClient, workspaceId: string, name: string, patientId: string | null | undefined): void {
  const all = patientKeys.all(workspaceId);
  if (!GONE.has(name) || !patientId) {
    void qc.invalidateQueries({ queryKey: all });
    return;
  }
  const gone = patientKeys.detail(workspaceId, patientId);
  void qc.invalidateQueries({ queryKey: all, predicate: (q) => !within(q.queryKey, gone) });
  forgetPatient(qc, workspaceId, patientId);
}
