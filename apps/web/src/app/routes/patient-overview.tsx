import { OverviewTab } from '@/features/patients/detail/overview-tab';
import { usePatientDetail } from '@/features/patients/detail/patient-context';
import { TasksCard } from '@/features/tasks/components/tasks-card';

/** The patient's overview with the member's own tasks about them (two features, composed here). */
export function PatientOverviewRoute() {
  const { patient, wid } = usePatientDetail();
  const name = [patient.firstName, patient.lastName].filter(Boolean).join(' ');
  return <OverviewTab tasks={<TasksCard key={patient.id} workspaceId={wid} patient={{ id: patient.id, name }} />} />;
}

export { PatientOverviewRoute as Component };
