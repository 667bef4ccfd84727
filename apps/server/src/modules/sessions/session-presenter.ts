import { SESSION_FIELDS, readableView, toLocal, type AppAbility, type Session, type SessionConflict } from '@divan/core';
import type { SessionWithLocation } from './sessions.repository';
import type { SessionRow } from './sessions.tables';

/** A session with the names it is shown with. */
export type SessionView = SessionWithLocation & { patientName: string; therapistName: string };

/** A session as the member reads it: fields of SESSION_FIELDS they may not read are left out. */
export function presentSession(ability: AppAbility, s: SessionView): Session {
  const start = toLocal(s.startsAt, s.timeZone);
  const full: Session = {
    id: s.id,
    patient: { id: s.patientId, name: s.patientName },
    therapist: { id: s.therapistId, name: s.therapistName },
    day: start.day,
    from: start.time,
    to: toLocal(s.endsAt, s.timeZone).time,
    timeZone: s.timeZone,
    startsAt: s.startsAt.toISOString(),
    endsAt: s.endsAt.toISOString(),
    status: s.status,
    cancellationReason: s.cancellationReason,
    canceledAt: s.canceledAt?.toISOString() ?? null,
    completedAt: s.completedAt?.toISOString() ?? null,
    price: s.price,
    fee: s.fee,
    paymentsReceiver: s.paymentsReceiver,
    paymentStatus: s.paymentStatus,
    paymentType: s.paymentType,
    paidAt: s.paidAt?.toISOString() ?? null,
    modality: s.modality,
    location: s.locationId ? { id: s.locationId, name: s.locationName ?? '' } : null,
    reminders: s.reminders,
    invoiced: s.invoiced,
    chargeDate: s.chargeDate,
    videoConference: s.videoConference,
    // Notes are written from sessions in a later slice; the field is guarded already.
    noteId: null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
  return readableView(ability, SESSION_FIELDS, { ownerId: s.therapistId }, full);
}

/** Overlaps as warnings: by therapist first, else by location. */
export function presentConflicts(s: Pick<SessionRow, 'therapistId' | 'locationId'>, others: SessionRow[]): SessionConflict[] {
  return others.map((o) => ({
    id: o.id,
    kind: o.therapistId === s.therapistId ? 'therapist' : 'location',
    therapistId: o.therapistId,
    locationId: o.locationId,
    startsAt: o.startsAt.toISOString(),
    endsAt: o.endsAt.toISOString(),
  }));
}
