import type { QueryClient } from '@tanstack/react-query';
import { patientKeys } from './keys';

const GONE = new Set(['patient.blocked', 'patient.erased']);

const within = (key: readonly unknown[], prefix: readonly unknown[]) => prefix.every((part, i) => key[i] === part);

/**
 * A patient event heard live (another member's change, or this member's own): the patients' queries
 * refetch, except those of a patient just blocked or erased — they are only marked stale. Asking for it
 * again would answer 404 to the member who deleted it, still on its screen behind «Paciente bloqueado»;
 * whoever else has it open finds it gone at their next read.
 */
export function onPatientEvent(qc: QueryClient, workspaceId: string, name: string, patientId: string | null | undefined): void {
  const all = patientKeys.all(workspaceId);
  if (!GONE.has(name) || !patientId) {
    void qc.invalidateQueries({ queryKey: all });
    return;
  }
  const gone = patientKeys.detail(workspaceId, patientId);
  void qc.invalidateQueries({ queryKey: all, predicate: (q) => !within(q.queryKey, gone) });
  void qc.invalidateQueries({ queryKey: gone, refetchType: 'none' });
}
