// The companion's sessions and shared documents (/api/v1/patient/files/:patientFileId/…).
import { z } from 'zod';
import { bookingPayment } from '../booking/public-booking.contracts';

const fileId = z.uuid({ error: 'Ficha inválida' });

export const COMPANION_SESSIONS_WHEN = ['upcoming', 'past'] as const;
export const COMPANION_SESSIONS_PAGE_MAX = 50;

/** `upcoming`: not ended yet (an online session in progress included), soonest first; `past`: ended, latest first. */
export const companionSessionsQuery = z.object({
  when: z.enum(COMPANION_SESSIONS_WHEN).default('upcoming'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(COMPANION_SESSIONS_PAGE_MAX).default(20),
});
export type CompanionSessionsQuery = z.output<typeof companionSessionsQuery>;

export const companionSessionParams = z.object({ patientFileId: fileId, sessionId: z.uuid({ error: 'Sesión inválida' }) });

/**
 * A session as its patient reads it: when, how, where, with whom; no price, no clinical field.
 * `canCancel`/`canMove` only for a session booked from a public booking service, until `changeableUntil`
 * (the service's minimum notice before the start); `canMove` also needs the service still active.
 */
export const companionSession = z.object({
  id: z.uuid(),
  startsAt: z.iso.datetime(),
  endsAt: z.iso.datetime(),
  timeZone: z.string(),
  status: z.enum(['pending', 'completed', 'canceled']),
  modality: z.enum(['presential', 'online']),
  location: z.object({ name: z.string(), address: z.string().nullable() }).nullable(),
  therapistName: z.string(),
  /** The video room's link of an online session held in Diván (null otherwise). */
  videoLink: z.string().nullable(),
  /** The public booking service it was booked through (null when the therapist booked it). */
  service: z.object({ id: z.uuid(), title: z.string() }).nullable(),
  canCancel: z.boolean(),
  canMove: z.boolean(),
  changeableUntil: z.iso.datetime().nullable(),
  /** Paid when it was booked (null: nothing was); a cancellation gives it back (see `bookingPayment`). */
  payment: bookingPayment.nullable(),
});
export type CompanionSession = z.infer<typeof companionSession>;

export const companionSessionsResponse = z.object({
  items: z.array(companionSession),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type CompanionSessions = z.infer<typeof companionSessionsResponse>;
export const companionSessionResponse = z.object({ session: companionSession });

export const companionDocumentParams = z.object({ patientFileId: fileId, documentId: z.uuid({ error: 'Documento inválido' }) });

/** A document the therapist shared with the patient. */
export const companionDocument = z.object({
  id: z.uuid(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type CompanionDocument = z.infer<typeof companionDocument>;
export const companionDocumentsResponse = z.object({ items: z.array(companionDocument) });
export const companionDownloadQuery = z.object({ disposition: z.enum(['attachment', 'inline']).default('attachment') });
