import { InfoForm } from './info-form';
import { TreatmentForm } from './treatment-form';
import { usePatientDetail } from './patient-context';

/** Sections the member may not read (treatment null) are simply not there. */
export function InfoTab() {
  const { patient } = usePatientDetail();
  return (
    <div className="grid gap-6">
      <InfoForm />
      {patient.treatment ? <TreatmentForm treatment={patient.treatment} /> : null}
    </div>
  );
}

export { InfoTab as Component };
