import { z } from 'zod';
import { msg } from '../messages';
import { sessionResponse } from './session.contracts';

/** A patient's sessions, newest first, a page at a time (the patient's `sessions` tab). */
export const PATIENT_SESSIONS_PAGE = 25;
export const patientSessionsQuery = z.object({
  page: z.coerce
    .number({ error: msg.invalid('Página') })
    .int({ error: msg.invalid('Página') })
    .min(1, { error: msg.invalid('Página') })
    .max(10_000, { error: msg.invalid('Página') })
    .default(1),
});

/**
 * Totals over all the patient's sessions the member may read: attended (completed), canceled (with the
 * no-shows and late cancellations apart), upcoming, and pending payment (completed, not paid; canceled
 * late or no-show sessions are not counted as owed here — invoicing decides). Amounts in cents.
 */
export const patientSessionTotals = z.object({
  total: z.number().int(),
  attended: z.number().int(),
  canceled: z.number().int(),
  noShows: z.number().int(),
  lateCancellations: z.number().int(),
  upcoming: z.number().int(),
  pendingPayment: z.number().int(),
  pendingPaymentAmount: z.number().int(),
});
export type PatientSessionTotals = z.infer<typeof patientSessionTotals>;

export const patientSessionsResponse = z.object({
  items: z.array(sessionResponse),
  page: z.number().int(),
  pageSize: z.number().int(),
  totals: patientSessionTotals,
});
export type PatientSessions = z.infer<typeof patientSessionsResponse>;
