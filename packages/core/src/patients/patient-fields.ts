import { defineFieldMap } from '../workspaces/field-access';

/**
 * Which permission guards each field of a patient (see workspaces/field-access.ts). The same paths
 * name the fields of the payloads (`Patient`, `PatientSummary`), of the inputs (create, update, the
 * treatment body under `treatment`) and of the list's filters and sorts (`status`, `motive`,
 * `sessionType`, sort `treatmentStartDate`; search by `taxId`).
 *
 * - Fichas (`patient_files`, the base): name, contact, birthdate, gender, assigned therapist, dates
 *   of the record. Recepción reads these.
 * - Tratamiento (`patient_treatment`): all of `treatment`, and in the list its status, motive,
 *   session type and start date. Clinical data: Recepción reads none of it, and neither filters,
 *   sorts nor counts by it (the list's counts per status follow `status`).
 * - Facturación del paciente (`patient_billing`): all of `billingInfo`, and the list's `taxId`.
 * - The file's counts follow what they count: historia clínica and documentos.
 */
export const PATIENT_FIELDS = defineFieldMap('patient_files', {
  patient_treatment: ['treatment', 'status', 'motive', 'sessionType', 'treatmentStartDate'],
  patient_billing: ['billingInfo', 'taxId'],
  patient_histories: ['counts.historyEntries'],
  patient_documents: ['counts.documents'],
});
