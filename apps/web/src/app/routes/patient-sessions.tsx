import { usePatientDetail } from '@/features/patients/detail/patient-context';
import { PatientSessionsTab } from '@/features/agenda/components/patient-sessions-tab';
import { useAbility } from '@/lib/ability';
import { useAuthStore } from '@/stores/auth-store';

/** The patient's sessions (agenda feature) inside the patient's file (patients feature), composed here. */
export function PatientSessionsRoute() {
  const { patient, wid } = usePatientDetail();
  const ability = useAbility();
  const userId = useAuthStore((s) => s.userId) ?? '';
  const name = [patient.firstName, patient.lastName].filter(Boolean).join(' ');
  return (
    <PatientSessionsTab
      key={patient.id}
      workspaceId={wid}
      userId={userId}
      patient={{ id: patient.id, name, active: !patient.status || patient.status === 'active' }}
      canCreate={ability.can('create', 'sessions')}
      canWriteNotes={ability.can('create', 'patient_histories')}
    />
  );
}

export { PatientSessionsRoute as Component };
