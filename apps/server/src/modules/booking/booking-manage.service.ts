import type { PaidAtBooking, PublicBooking, PublicSlots, PublicSlotsQuery } from '@divan/core';
import { randomToken } from '../../platform/auth/tokens';
import { AppError } from '../../platform/errors';
import type { PatientsService } from '../patients/patients.service';
import type { BookedSession } from '../sessions/booked-sessions';
import { nowOf, type BookingFlowDeps } from './booking-deps';
import type { BookingNotices, Patient } from './booking-notices.service';
import type { BookingRefundsService } from './booking-refunds.service';
import { manageTokenHash } from './booking-secrets';
import { changeableUntil, paymentOf, presentBooking } from './booking-presenter';
import { bookingRepository } from './booking.repository';
import type { BookingServiceRow } from './booking.tables';
import { publicBookingRepository } from './public-booking.repository';
import { monthOfSlots } from './public-booking.service';
import type { PublicBookingRow } from './public-booking.tables';

type Found = { row: PublicBookingRow; session: BookedSession; service: BookingServiceRow };
const notFound = () => new AppError('public_booking_not_found');
/** A session booked from a public service, as the patient's own account reads it. */
export type SessionBooking = {
  service: { id: string; title: string };
  changeableUntil: Date | null;
  canCancel: boolean;
  canMove: boolean;
  payment: PaidAtBooking | null;
};

/**
 * The mailed manage link (`/v1/reservations/manage/<token>`): the visitor reads their booking, cancels
 * it or moves it to another free slot of the same service, until the service's minimum notice before
 * its start (`public_booking_change_closed` after). The token is the whole proof; it is stored hashed.
 * The patient's own account (the companion) does the same keyed by the session, once it proved the file.
 */
export class BookingManageService {
  constructor(
    private readonly d: BookingFlowDeps & { patients: PatientsService },
    private readonly notices: BookingNotices,
    private readonly refunds?: BookingRefundsService,
  ) {}

  async get(token: string): Promise<PublicBooking> {
    const f = await this.find(token);
    return this.present(f, nowOf(this.d));
  }

  async cancel(token: string): Promise<PublicBooking> {
    const now = nowOf(this.d);
    const f = await this.find(token);
    return this.present(await this.cancelFound(f, now), now);
  }

  async move(token: string, startsAtText: string): Promise<PublicBooking> {
    const now = nowOf(this.d);
    const f = await this.find(token);
    return this.present(await this.moveFound(f, new Date(startsAtText), now, token), now);
  }

  // --- the patient's own account (the companion), keyed by the session ---------------------------

  /** A session booked from a public service: the service and until when it may be changed; null for any other session. */
  async ofSession(workspaceId: string, sessionId: string): Promise<SessionBooking | null> {
    const f = await this.findBySession(workspaceId, sessionId);
    if (!f) return null;
    const until = changeableUntil(f.service, f.session, nowOf(this.d));
    return {
      service: { id: f.service.id, title: f.service.title },
      changeableUntil: until,
      canCancel: !!until,
      canMove: !!until && f.service.status === 'active',
      payment: paymentOf(f.session, f.row),
    };
  }

  /** The month's free slots of the session's service, the session's own time not taken; only while it may be moved. */
  async slotsForSession(workspaceId: string, sessionId: string, q: PublicSlotsQuery): Promise<PublicSlots> {
    const now = nowOf(this.d);
    const f = await this.findBySession(workspaceId, sessionId);
    if (!f) throw new AppError('public_booking_change_closed');
    if (f.service.status !== 'active') throw new AppError('public_service_not_found');
    if (!changeableUntil(f.service, f.session, now)) throw new AppError('public_booking_change_closed');
    return monthOfSlots(this.d.slots, f.service, q, now, { exceptSessionId: f.session.id });
  }

  /** As from the mailed link (a session not booked from a service: `public_booking_change_closed`). */
  async cancelSession(workspaceId: string, sessionId: string): Promise<void> {
    const f = await this.findBySession(workspaceId, sessionId);
    if (!f) throw new AppError('public_booking_change_closed');
    await this.cancelFound(f, nowOf(this.d));
  }

  /** As from the mailed link; the mail of the move carries a new manage link (the older one stops working). */
  async moveSession(workspaceId: string, sessionId: string, startsAtText: string): Promise<void> {
    const f = await this.findBySession(workspaceId, sessionId);
    if (!f) throw new AppError('public_booking_change_closed');
    await this.moveFound(f, new Date(startsAtText), nowOf(this.d), null);
  }

  // --- both ----------------------------------------------------------------------------------

  private async cancelFound(f: Found, now: Date): Promise<Found> {
    const { sequence, refunding } = await this.d.events.transaction(this.d.db, async (tx, emit) => {
      const repo = publicBookingRepository(tx);
      await repo.lockTherapist(f.session.therapistId);
      const s = await this.d.booked.find(tx, f.row.workspaceId, f.row.sessionId);
      if (!s || !changeableUntil(f.service, s, now)) throw new AppError('public_booking_change_closed');
      await this.d.booked.cancel(tx, emit, s, now);
      // Paid at booking: the money goes back (a job, queued only if this cancel commits).
      return { sequence: await repo.bumpSequence(f.row.id), refunding: (await this.refunds?.queue(tx, f.row)) ?? false };
    });
    this.d.changed(f.row.workspaceId);
    const canceled = (await this.d.booked.find(this.d.db, f.row.workspaceId, f.row.sessionId))!;
    // The patient's confirmation carries the invitation's cancellation (a sequence above the last one mailed).
    await this.notices.canceled(f.service, canceled, await this.patientOf(canceled), {
      sequence,
      refundCents: refunding ? f.row.paidAmount : null,
    });
    return { ...f, session: canceled };
  }

  /** `token` null: a new manage link is made for the mail, in the move's transaction. */
  private async moveFound(f: Found, startsAt: Date, now: Date, token: string | null): Promise<Found> {
    if (f.service.status !== 'active') throw new AppError('public_service_not_found');
    const link = token ?? randomToken();
    const sequence = await this.d.events.transaction(this.d.db, async (tx, emit) => {
      const repo = publicBookingRepository(tx);
      await repo.lockTherapist(f.session.therapistId);
      const s = await this.d.booked.find(tx, f.row.workspaceId, f.row.sessionId);
      if (!s || !changeableUntil(f.service, s, now)) throw new AppError('public_booking_change_closed');
      if (s.startsAt.getTime() === startsAt.getTime()) return null;
      const slot = await this.d.slots.slotAt(f.service, startsAt, now, { tx, exceptSessionId: s.id });
      if (!slot) throw new AppError('public_service_slot_not_available');
      await this.d.booked.move(tx, emit, s, slot.start, slot.end);
      if (!token) await repo.rotateToken(f.row.id, manageTokenHash(this.d.hash, link));
      return repo.bumpSequence(f.row.id);
    });
    const moved = (await this.d.booked.find(this.d.db, f.row.workspaceId, f.row.sessionId))!;
    if (sequence !== null) {
      this.d.changed(f.row.workspaceId);
      await this.notices.confirmed(f.service, moved, {
        token: link,
        sequence,
        patient: await this.patientOf(moved),
        moved: { from: f.session.startsAt },
      });
    }
    return { ...f, session: moved };
  }

  private async findBySession(workspaceId: string, sessionId: string): Promise<Found | null> {
    const row = await publicBookingRepository(this.d.db).bookingBySession(workspaceId, sessionId);
    if (!row) return null;
    const [session, service] = [
      await this.d.booked.find(this.d.db, row.workspaceId, row.sessionId),
      await bookingRepository(this.d.db).service(row.workspaceId, row.serviceId),
    ];
    return session && service ? { row, session, service } : null;
  }

  private async find(token: string): Promise<Found> {
    const row = await publicBookingRepository(this.d.db).bookingByToken(manageTokenHash(this.d.hash, token));
    if (!row) throw notFound();
    const [session, service] = [
      await this.d.booked.find(this.d.db, row.workspaceId, row.sessionId),
      await bookingRepository(this.d.db).service(row.workspaceId, row.serviceId),
    ];
    if (!session || !service) throw notFound();
    return { row, session, service };
  }

  private async present(f: Found, now: Date): Promise<PublicBooking> {
    const { facts, workspaceName } = await this.notices.facts(f.service, f.session);
    return presentBooking(f.service, f.session, { therapistName: facts.therapistName, workspaceName }, now, f.row);
  }

  private async patientOf(s: BookedSession): Promise<Patient> {
    const [contact, names] = await Promise.all([
      this.d.patients.contactOf(s.workspaceId, s.patientId),
      this.d.patients.namesOf(s.workspaceId, [s.patientId]),
    ]);
    return {
      firstName: contact?.firstName ?? '',
      fullName: names.get(s.patientId) ?? contact?.firstName ?? 'Paciente',
      email: contact?.email ?? null,
    };
  }
}
