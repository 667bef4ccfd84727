import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../../platform/db/database';
import type { Jobs, QueueDefinition } from '../../platform/jobs/jobs';
import type { BookingPayments } from '../payments/booking-payments.service';
import type { PatientsService } from '../patients/patients.service';
import type { BookingFlowDeps } from './booking-deps';
import { bookingRefundedMail } from './booking-mails';
import type { BookingNotices } from './booking-notices.service';
import { bookingRepository } from './booking.repository';
import { publicBookingRepository } from './public-booking.repository';
import type { PublicBookingRow } from './public-booking.tables';

const QUEUE = 'booking.refund';
type Job = { bookingId: string };

/**
 * A booking paid on the checkout and then cancelled by the patient (the mailed link or their account,
 * within the service's window) gives the money back, all of it: queued in the cancel's transaction
 * (nothing is queued if the cancel rolls back), done by a job that retries while the gateway fails, with
 * the booking's idempotency key (a retry never refunds twice). Then the session reads «refunded» and the
 * patient is told by mail.
 */
export class BookingRefundsService {
  constructor(
    private readonly d: BookingFlowDeps & { jobs: Jobs; patients: PatientsService; log?: FastifyBaseLogger },
    /** The payments module's port (built before booking). */
    private readonly payments: BookingPayments | undefined,
    private readonly notices: BookingNotices,
  ) {}

  /** The refund's queue (defined by the booking module's entry). */
  readonly job: QueueDefinition<Job> = {
    name: QUEUE,
    work: (j) => this.work(j.bookingId),
    retryLimit: 12,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 120,
  };

  /** In the cancel's transaction: a paid booking's refund is queued (once per booking). */
  async queue(tx: Tx, row: PublicBookingRow): Promise<boolean> {
    if (!row.paymentIntentId || row.refundedAt) return false;
    await this.d.jobs.send<Job>(QUEUE, { bookingId: row.id }, { tx, key: row.id });
    return true;
  }

  async work(bookingId: string): Promise<void> {
    const row = await publicBookingRepository(this.d.db).booking(bookingId);
    if (!row || row.refundedAt || !row.paymentIntentId || !row.paymentAccountId || !row.paidAmount) return;
    if (!this.payments) throw new Error('booking refunds: payments not wired');
    await this.payments.refundBooking({
      bookingId: row.id,
      accountId: row.paymentAccountId,
      paymentIntentId: row.paymentIntentId,
      amount: row.paidAmount,
    });
    const refunded = await this.d.events.transaction(this.d.db, async (tx, emit) => {
      const done = await publicBookingRepository(tx).markRefunded(row.id);
      await this.d.booked.markRefunded(tx, emit, row.workspaceId, row.sessionId);
      return done;
    });
    if (refunded) await this.tell(row);
  }

  /** The patient's mail: how much went back, for which session. */
  private async tell(row: PublicBookingRow) {
    const session = await this.d.booked.find(this.d.db, row.workspaceId, row.sessionId);
    if (!session) return;
    const [service, contact] = await Promise.all([
      bookingRepository(this.d.db).service(row.workspaceId, row.serviceId),
      this.d.patients.contactOf(row.workspaceId, session.patientId),
    ]);
    if (!service || !contact?.email) return;
    const { facts, brand } = await this.notices.facts(service, session);
    await this.d.mailer.send(bookingRefundedMail(contact.email, contact.firstName, facts, brand, row.paidAmount!), {
      purpose: 'booking_refunded',
      workspaceId: row.workspaceId,
      key: `booking-refunded:${row.id}`,
    });
  }
}
