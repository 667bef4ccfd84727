import { z } from 'zod';
import { measureAdministrationResponse } from '../measures/measure.contracts';
import { documentResponse } from './document.contracts';
import { patientResponse } from './patient.contracts';

/**
 * A patient's full file as the caller may read it: sections the caller has no permission for are
 * null. Private history entries are never exported, not even the caller's own.
 */
export const patientExportResponse = z.object({
  generatedAt: z.string(),
  patient: patientResponse.omit({ billingInfo: true, treatment: true, counts: true }),
  billingInfo: patientResponse.shape.billingInfo.unwrap().nullable(),
  treatment: patientResponse.shape.treatment.unwrap().nullable(),
  history: z
    .array(
      z.object({
        id: z.uuid(),
        date: z.string(),
        title: z.string(),
        /** Rich text (HTML) as stored; `text` is the same as plain paragraphs. */
        body: z.string(),
        text: z.string(),
        author: z.object({ id: z.uuid(), name: z.string() }),
        createdAt: z.string(),
        updatedAt: z.string(),
      }),
    )
    .nullable(),
  documents: z.array(documentResponse.omit({ patientId: true })).nullable(),
  /** The completed outcome measures with their answers and scores (the clinical history's permission). */
  measures: z.array(measureAdministrationResponse).nullable(),
});
export type PatientExport = z.infer<typeof patientExportResponse>;
