import { usePatientDetail } from '@/features/patients/detail/patient-context';
import { PatientConsentsTab } from '@/features/consents/sent/patient-consents-tab';

/** The consents sent to a patient (consents feature) inside the patient's file (patients feature), composed here. */
export function PatientConsentsRoute() {
  const { patient } = usePatientDetail();
  return (
    <PatientConsentsTab
      key={patient.id}
      patient={{ id: patient.id, name: [patient.firstName, patient.lastName].filter(Boolean).join(' ') }}
    />
  );
}

export { PatientConsentsRoute as Component };
