import { usePatientDetail } from '@/features/patients/detail/patient-context';
import { Conversation } from '@/features/chat/components/conversation';
import { useAuthStore } from '@/stores/auth-store';

/** The patient's chat (chat feature) inside the patient's file (patients feature), composed here: the same conversation as `/chats/:id`. */
export function PatientChatRoute() {
  const { patient, wid, can } = usePatientDetail();
  const userId = useAuthStore((s) => s.userId) ?? '';
  const name = [patient.firstName, patient.lastName].filter(Boolean).join(' ');
  return (
    <Conversation
      key={patient.id}
      wid={wid}
      pid={patient.id}
      patientName={name}
      userId={userId}
      canWrite={can('create', 'patient_histories')}
      canAttach={can('create', 'patient_documents') && can('update', 'patient_documents')}
      fill
      className="rounded-xl border"
    />
  );
}

export { PatientChatRoute as Component };
