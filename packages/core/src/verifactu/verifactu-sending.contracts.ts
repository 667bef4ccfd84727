import { z } from 'zod';

/**
 * Sending VERI*FACTU records to the AEAT (issue 11): the state of each record's submission, as the
 * invoice screen shows it. The sending itself is off unless the server is configured for it.
 */
export const VERIFACTU_SUBMISSION_STATES = ['pending', 'accepted', 'accepted_with_errors', 'rejected'] as const;
export type VerifactuSubmissionState = (typeof VERIFACTU_SUBMISSION_STATES)[number];

/** What a person reads for each state. */
export const verifactuSubmissionStateLabel: Record<VerifactuSubmissionState, string> = {
  pending: 'Pendiente de envío a la AEAT',
  accepted: 'Aceptado por la AEAT',
  accepted_with_errors: 'Aceptado por la AEAT con errores',
  rejected: 'Rechazado por la AEAT: revísalo',
};

export const verifactuSubmission = z.object({
  kind: z.enum(['registration', 'cancellation']),
  /** The invoice's number and issue date as sent (IDFactura). */
  number: z.string(),
  issueDate: z.string(),
  state: z.enum(VERIFACTU_SUBMISSION_STATES),
  /** The AEAT's secure verification code of the submission that carried the record. */
  csv: z.string().nullable(),
  /** The AEAT's error code (e.g. 1100) or ours (verifactu_…), and its Spanish description. */
  errorCode: z.string().nullable(),
  errorDescription: z.string().nullable(),
  attempts: z.number().int(),
  lastAttemptAt: z.string().nullable(),
  /** While pending: when the next try is due (flow control or backoff after a failure). */
  nextAttemptAt: z.string().nullable(),
});
export type VerifactuSubmission = z.infer<typeof verifactuSubmission>;

export const verifactuStatusResponse = z.object({
  /** False: this server does not send records to the AEAT (not configured). */
  sending: z.boolean(),
  /** The invoice's records (none for a draft), oldest first. */
  records: z.array(verifactuSubmission),
});
export type VerifactuStatus = z.infer<typeof verifactuStatusResponse>;
