import { usePatientDetail } from '@/features/patients/detail/patient-context';
import { PatientBillingTab } from '@/features/billing/patient/patient-billing-tab';

/** The patient's invoices (billing feature) inside the patient's file (patients feature), composed here. */
export function PatientBillingRoute() {
  const { patient, can } = usePatientDetail();
  const name = [patient.firstName, patient.lastName].filter(Boolean).join(' ');
  return (
    <PatientBillingTab
      key={patient.id}
      patient={{
        id: patient.id,
        name,
        email: patient.email,
        billingInfo: patient.billingInfo,
        sessionPriceCents: patient.treatment?.sessionPrice ?? null,
      }}
      showsBillingInfo={can('read', 'patient_billing')}
      editsBillingInfo={can('update', 'patient_billing')}
    />
  );
}

export { PatientBillingRoute as Component };
