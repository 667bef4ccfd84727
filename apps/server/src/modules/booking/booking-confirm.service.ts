import { timingSafeEqual } from 'node:crypto';
import { BOOKING_CODE_ATTEMPTS_MAX, type BookingConfirmResult } from '@divan/core';
import { AppError } from '../../platform/errors';
import type { BookHoldService } from './book-hold.service';
import { nowOf, type BookingFlowDeps, type VisitorData } from './booking-deps';
import type { BookingNotices } from './booking-notices.service';
import type { BookingPaymentService } from './booking-payment.service';
import { holdAad, holdCodeHash } from './booking-secrets';
import type { BookingServicesService } from './booking-services.service';
import { presentBooking } from './booking-presenter';
import { publicBookingRepository } from './public-booking.repository';
import type { BookingHoldRow } from './public-booking.tables';

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The second step: the mailed code proves the email, and only now does the answer depend on it. The
 * patient file of that email in the workspace is the patient (found through the patients module);
 * none, and the service takes no new patients: 403; the patient's upcoming bookings through the service
 * at its limit: 409. Otherwise a paid service sends the visitor to pay first (booking-payment.service.ts), and
 * the others are booked now (book-hold.service.ts: the slot checked again under the therapist's lock, the
 * file created if new, the session, the manage link; then the mails).
 */
export class BookingConfirmService {
  constructor(
    private readonly d: Pick<BookingFlowDeps, 'db' | 'cipher' | 'intake' | 'hash' | 'clock'>,
    private readonly services: BookingServicesService,
    private readonly booking: BookHoldService,
    private readonly payment: BookingPaymentService,
    private readonly notices: BookingNotices,
  ) {}

  async confirm(holdId: string, code: string): Promise<BookingConfirmResult> {
    const now = nowOf(this.d);
    const hold = await this.checkCode(holdId, code, now);
    const ws = hold.workspaceId;
    const service = await this.services.active({ workspaceId: ws, serviceId: hold.serviceId }).catch(async (e: unknown) => {
      await this.booking.release(hold, nowOf(this.d));
      throw e;
    });
    const v = JSON.parse(await this.d.cipher.decryptText(ws, hold.dataEnc, holdAad(hold.id))) as VisitorData;
    const existing = await this.d.intake.findByEmail(this.d.db, ws, v.email);
    if (!existing && !service.allowNewPatients) return this.refuse(hold, 'public_service_not_accepting_new_patients');
    if (existing && (await this.booking.atLimit(service, existing.id, now)))
      return this.refuse(hold, 'public_service_patient_session_limit_reached');

    // A paid service goes through the gateway's checkout first (booking-payment.service.ts); the webhook books it.
    const payment = await this.payment.start(hold, service, v, now);
    if (payment) return payment;
    const session = await this.booking.book(hold, service, v, now);
    if (session === 'already') throw new AppError('challenge_not_found');
    const { facts, workspaceName } = await this.notices.facts(service, session);
    return { status: 'booked', booking: presentBooking(service, session, { therapistName: facts.therapistName, workspaceName }, now) };
  }

  /**
   * Unknown or used: challenge_not_found; past its time: challenge_expired. Every attempt counts before
   * the code is compared; past BOOKING_CODE_ATTEMPTS_MAX the hold is given up (its slot is free again).
   */
  private async checkCode(holdId: string, code: string, now: Date): Promise<BookingHoldRow> {
    const repo = publicBookingRepository(this.d.db);
    const hold = await repo.hold(holdId);
    if (!hold || hold.consumedAt) throw new AppError('challenge_not_found');
    if (hold.expiresAt <= now) throw new AppError('challenge_expired');
    const attempts = await repo.countAttempt(hold.id);
    if (attempts === 0) throw new AppError('challenge_not_found');
    if (attempts > BOOKING_CODE_ATTEMPTS_MAX) {
      await this.booking.release(hold, nowOf(this.d));
      throw new AppError('max_attempts');
    }
    if (!same(holdCodeHash(this.d.hash, hold.id, code), hold.codeHash)) throw new AppError('invalid_code');
    return hold;
  }

  private async refuse(
    hold: BookingHoldRow,
    code: 'public_service_not_accepting_new_patients' | 'public_service_patient_session_limit_reached',
  ): Promise<never> {
    await this.booking.release(hold, nowOf(this.d));
    throw new AppError(code);
  }
}
