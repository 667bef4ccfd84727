import { usePatientDetail } from '@/features/patients/detail/patient-context';
import { MeasuresTab } from '@/features/measures/components/measures-tab';

/** The patient's outcome measures (measures feature) inside the patient's file (patients feature), composed here. */
export function PatientMeasuresRoute() {
  const { patient, wid, can } = usePatientDetail();
  return (
    <MeasuresTab
      key={patient.id}
      wid={wid}
      patient={{ id: patient.id, name: [patient.firstName, patient.lastName].filter(Boolean).join(' '), hasEmail: !!patient.email }}
      canCreate={can('create', 'patient_histories')}
      canUpdate={can('update', 'patient_histories')}
    />
  );
}

export { PatientMeasuresRoute as Component };
