import { addTimespan, type PaidAtBooking, type PublicBooking } from '@divan/core';
import type { BookedSession } from '../sessions/booked-sessions';
import type { BookingServiceRow } from './booking.tables';
import type { PublicBookingRow } from './public-booking.tables';

/**
 * Until when the visitor may cancel or move the booking themselves: the service's minimum notice before
 * its start (the same notice a new booking needs). Null once that moment has passed or the session is
 * no longer pending (canceled, completed).
 */
export function changeableUntil(
  service: Pick<BookingServiceRow, 'minNotice'>,
  s: Pick<BookedSession, 'startsAt' | 'timeZone' | 'status'>,
  now: Date,
): Date | null {
  if (s.status !== 'pending') return null;
  const until = addTimespan(s.startsAt, { amount: -service.minNotice.amount, unit: service.minNotice.unit }, s.timeZone);
  return now < until ? until : null;
}

const STATUS: Record<BookedSession['status'], PublicBooking['status']> = {
  pending: 'confirmed',
  completed: 'completed',
  canceled: 'canceled',
};

/** A booked session as the visitor reads it: times, who, where, and what was paid at booking (its refund once cancelled); no clinical field. */
export function presentBooking(
  service: Pick<BookingServiceRow, 'id' | 'title' | 'minNotice'>,
  s: BookedSession,
  names: { therapistName: string; workspaceName: string },
  now: Date,
  paid?: Pick<PublicBookingRow, 'paymentIntentId' | 'paidAmount' | 'refundedAt'>,
): PublicBooking {
  const until = changeableUntil(service, s, now);
  return {
    status: STATUS[s.status],
    startsAt: s.startsAt.toISOString(),
    endsAt: s.endsAt.toISOString(),
    timeZone: s.timeZone,
    therapist: { id: s.therapistId, name: names.therapistName },
    workspace: { id: s.workspaceId, name: names.workspaceName },
    service: { id: service.id, title: service.title },
    modality: s.modality,
    location: s.modality === 'presential' ? s.location : null,
    changeableUntil: until ? until.toISOString() : null,
    payment: paymentOf(s, paid),
  };
}

/** What was paid at booking and where its refund is (`bookingPayment`); null when nothing was paid. */
export function paymentOf(
  s: Pick<BookedSession, 'status'>,
  paid?: Pick<PublicBookingRow, 'paymentIntentId' | 'paidAmount' | 'refundedAt'>,
): PaidAtBooking | null {
  if (!paid?.paymentIntentId || !paid.paidAmount) return null;
  return { amountCents: paid.paidAmount, refund: paid.refundedAt ? 'done' : s.status === 'canceled' ? 'pending' : 'none' };
}
