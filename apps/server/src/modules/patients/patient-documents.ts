import type { ErasureStep } from './patient-erasure';

/**
 * What the patients module asks of the module that keeps documents per patient (documents): how many
 * a file has (the file shows it, answered now) and how to erase them with the patient, in the erasure's
 * transaction. A port, not an event: both answer inside the patients module's own work. The documents
 * module is built after patients (it checks access through it), so patients reads this port at use.
 */
export type PatientDocuments = {
  count: (patientId: string) => Promise<number>;
  eraseWithPatient: ErasureStep;
};

/** No documents module: no documents to count or erase. */
export const NO_PATIENT_DOCUMENTS: PatientDocuments = { count: async () => 0, eraseWithPatient: async () => {} };
