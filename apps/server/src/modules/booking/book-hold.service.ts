import { randomToken } from '../../platform/auth/tokens';
import type { DbOrTx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { BookedSession } from '../sessions/booked-sessions';
import type { BookingFlowDeps, VisitorData } from './booking-deps';
import type { BookingNotices } from './booking-notices.service';
import { manageTokenHash } from './booking-secrets';
import type { BookingServiceRow } from './booking.tables';
import { publicBookingRepository } from './public-booking.repository';
import type { BookingHoldRow } from './public-booking.tables';

/** A booking paid on the checkout: when, on which connected account, the PaymentIntent and the amount (cents), kept to refund it if the patient cancels. */
export type BookingPayment = { at: Date; accountId: string; paymentIntentId: string | null; amount: number };

/** Booking a hold: the transaction that turns it into a session and a manage link, the per-patient limit, and giving a hold up. */
export class BookHoldService {
  constructor(
    private readonly d: Pick<BookingFlowDeps, 'db' | 'events' | 'booked' | 'intake' | 'slots' | 'changed' | 'hash'>,
    private readonly notices: BookingNotices,
  ) {}

  /** The patient's upcoming sessions booked through the service are at its limit (none: no limit). */
  async atLimit(service: BookingServiceRow, patientId: string, now: Date, tx: DbOrTx = this.d.db) {
    const limit = service.bookingLimitPerPatient;
    return limit !== null && (await this.d.booked.countUpcoming(tx, service.workspaceId, patientId, service.id, now)) >= limit;
  }

  /**
   * Makes the booking of a hold whose email is proven (and, for a paid service, whose checkout is paid):
   * in one transaction under the therapist's lock, the slot checked again (the hold itself aside), the
   * patient file found or created (patients module), the per-patient limit again, the session (pending,
   * the service's terms, flagged with it; paid when `paid`, whose trace the booking keeps), the hold consumed as booked and the manage
   * link's token stored hashed. Then the mails. 'already' when this hold was booked before (a webhook again).
   */
  async book(
    hold: BookingHoldRow,
    service: BookingServiceRow,
    v: VisitorData,
    now: Date,
    paid?: BookingPayment,
  ): Promise<BookedSession | 'already'> {
    const ws = hold.workspaceId;
    const token = randomToken();
    const out = await this.d.events.transaction(this.d.db, async (tx, emit) => {
      const repo = publicBookingRepository(tx);
      await repo.lockTherapist(service.therapistId);
      const live = await repo.hold(hold.id, true);
      if (live?.booked) return 'already' as const;
      if (!live || live.consumedAt) throw new AppError('challenge_not_found');
      if (!(await this.d.slots.slotAt(service, live.startsAt, now, { tx, exceptHoldId: live.id })))
        throw new AppError('public_service_slot_not_available');
      const patient = await this.d.intake.admit(tx, emit, ws, service.therapistId, v, now);
      // Again under the lock: two confirmations of the same patient at once.
      if (!patient.created && (await this.atLimit(service, patient.id, now, tx)))
        throw new AppError('public_service_patient_session_limit_reached');
      const sessionId = await this.d.booked.create(tx, emit, {
        workspaceId: ws,
        patientId: patient.id,
        therapistId: service.therapistId,
        serviceId: service.id,
        startsAt: live.startsAt,
        endsAt: live.endsAt,
        timeZone: service.timeZone,
        priceCents: service.priceCents,
        modality: service.modality,
        locationId: service.locationId,
        reminders: service.reminders,
        paidAt: paid?.at,
      });
      await repo.consumeHold(live.id, now, true);
      const booking = await repo.insertBooking({
        workspaceId: ws,
        sessionId,
        serviceId: service.id,
        tokenHash: manageTokenHash(this.d.hash, token),
        ...(paid?.paymentIntentId
          ? { paymentAccountId: paid.accountId, paymentIntentId: paid.paymentIntentId, paidAmount: paid.amount }
          : {}),
      });
      emit('booking.requested', { workspaceId: ws, bookingId: booking.id, sessionId, therapistId: service.therapistId });
      return { sessionId, newPatient: patient.created };
    });
    if (out === 'already') return out;
    this.d.changed(ws);
    const session = (await this.d.booked.find(this.d.db, ws, out.sessionId))!;
    const fullName = [v.firstName, v.lastName].filter(Boolean).join(' ');
    await this.notices.confirmed(service, session, {
      token,
      sequence: 0,
      patient: { firstName: v.firstName, fullName, email: v.email },
      newPatient: out.newPatient,
      message: v.message,
    });
    return session;
  }

  /** A hold that can no longer be booked frees its slot at once. */
  async release(hold: Pick<BookingHoldRow, 'id' | 'workspaceId'>, now: Date) {
    if (await publicBookingRepository(this.d.db).consumeHold(hold.id, now)) this.d.changed(hold.workspaceId);
  }
}
