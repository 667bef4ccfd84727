import { z } from 'zod';
import { TREATMENT_STATUS, type TreatmentStatus } from './patients/patient.constants';
import { CANCELLATION_REASON, type CancellationReason } from './sessions/session.constants';

/**
 * Domain events: what one module tells the others once a change has committed. Payloads carry ids
 * and small facts only, never clinical or personal text: they may cross server processes through
 * Redis, and a handler that needs more reads it through the owning service.
 *
 * Producers today: patients, users, sessions. The rest are declared now so that the issues that build
 * sessions, invoices, consents and booking only add the producer and the handlers.
 */
const id = z.uuid();
const instant = z.iso.datetime({ offset: true });
const treatmentStatus = z.enum(TREATMENT_STATUS.values as [TreatmentStatus, ...TreatmentStatus[]]);
const cents = z.number().int();

export const domainEventSchemas = {
  'patient.created': z.strictObject({ workspaceId: id, patientId: id, assignedTherapistId: id.nullable() }),
  /** Which parts of the file changed, not their values. */
  'patient.updated': z.strictObject({
    workspaceId: id,
    patientId: id,
    parts: z.array(z.enum(['personal', 'billing', 'treatment'])),
    treatmentStatus,
  }),
  'patient.assigned': z.strictObject({ workspaceId: id, patientId: id, therapistId: id.nullable(), previousTherapistId: id.nullable() }),
  /** Deleted inside the legal retention period: hidden and locked, erasable from `retainedUntil` (a day). */
  'patient.blocked': z.strictObject({ workspaceId: id, patientId: id, retainedUntil: z.iso.date() }),
  /** Erased for good, with everything kept per patient (documents' rows in the same transaction). */
  'patient.erased': z.strictObject({ workspaceId: id, patientId: id }),
  /** An Excel import committed `created` patients in one transaction (no event per row). */
  'patients.imported': z.strictObject({ workspaceId: id, importId: id, created: z.number().int().nonnegative() }),

  /** Which profile fields changed (names only), e.g. lists that show the therapist's name. */
  'user.profile_updated': z.strictObject({
    userId: id,
    fields: z.array(z.enum(['firstName', 'lastName', 'phone', 'biography', 'birthdate', 'registrationNumber', 'picture', 'logo'])),
  }),
  /** Members, their roles or the roles' permissions changed. */
  'workspace.access_changed': z.strictObject({ workspaceId: id }),

  // Declared for the coming issues (sessions, invoices, consents, booking).
  'session.created': z.strictObject({
    workspaceId: id,
    sessionId: id,
    patientId: id.nullable(),
    therapistId: id,
    startsAt: instant,
    endsAt: instant,
  }),
  'session.updated': z.strictObject({
    workspaceId: id,
    sessionId: id,
    patientId: id.nullable(),
    therapistId: id,
    startsAt: instant,
    endsAt: instant,
    /** Its time moved: reminders are planned again. */
    rescheduled: z.boolean(),
  }),
  'session.canceled': z.strictObject({
    workspaceId: id,
    sessionId: id,
    patientId: id.nullable(),
    therapistId: id,
    startsAt: instant,
    canceledBy: z.enum(['therapist', 'patient']),
    /** Why (no-shows and late cancellations count apart in analytics and invoicing). */
    reason: z.enum(CANCELLATION_REASON.values as [CancellationReason, ...CancellationReason[]]),
  }),
  'session.completed': z.strictObject({ workspaceId: id, sessionId: id, patientId: id.nullable(), therapistId: id }),
  /** A series edit deleted a future occurrence no longer in its pattern (never a paid, invoiced or noted one). */
  'session.deleted': z.strictObject({ workspaceId: id, sessionId: id, patientId: id.nullable(), therapistId: id, startsAt: instant }),
  'invoice.issued': z.strictObject({
    workspaceId: id,
    invoiceId: id,
    patientId: id.nullable(),
    number: z.string().max(40),
    totalCents: cents,
  }),
  'invoice.paid': z.strictObject({ workspaceId: id, invoiceId: id, amountCents: cents }),
  'consent.signed': z.strictObject({ workspaceId: id, consentId: id, patientId: id }),
  /** A patient booked from the public page: the session exists (see `session.created`). */
  'booking.requested': z.strictObject({ workspaceId: id, bookingId: id, sessionId: id, therapistId: id }),
} as const;

export type DomainEvents = { [N in keyof typeof domainEventSchemas]: z.infer<(typeof domainEventSchemas)[N]> };
export type DomainEventName = keyof DomainEvents;
export type DomainEvent<N extends DomainEventName = DomainEventName> = { [K in N]: { name: K; payload: DomainEvents[K] } }[N];

export const isDomainEventName = (name: unknown): name is DomainEventName =>
  typeof name === 'string' && Object.hasOwn(domainEventSchemas, name);
