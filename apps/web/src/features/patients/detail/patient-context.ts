import { useOutletContext } from 'react-router';
import { canOn, type Action, type Patient, type Subject } from '@divan/core';
import { useWorkspaceScope } from '../api/workspace';

export type PatientOutlet = { patient: Patient };

/** The patient the detail layout loaded, and what the member may do with it. */
export function usePatientDetail() {
  const { patient } = useOutletContext<PatientOutlet>();
  const { workspace, ability } = useWorkspaceScope();
  const can = (action: Action, subject: Subject) => canOn(ability, action, subject, { ownerId: patient.assignedTherapist?.id ?? null });
  return { patient, wid: workspace.id, can };
}
