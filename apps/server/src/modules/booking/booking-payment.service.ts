import { BOOKING_HOLD_PAYMENT_MINUTES, type BookingConfirmResult } from '@divan/core';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../platform/errors';
import { MIN_CHARGE_CENTS, type BookingCardSaved, type BookingPaid, type BookingPayments } from '../payments/booking-payments.service';
import type { BookHoldService } from './book-hold.service';
import { nowOf, type BookingFlowDeps, type VisitorData } from './booking-deps';
import { bookingNotMadeMail } from './booking-mails';
import { holdAad } from './booking-secrets';
import { bookingRepository } from './booking.repository';
import type { BookingServiceRow } from './booking.tables';
import { publicBookingRepository } from './public-booking.repository';
import type { BookingHoldRow } from './public-booking.tables';

/**
 * A service with payment `pay`: once the code proves the email, the visitor pays the session's price
 * on the gateway's hosted checkout, on the connected account of whoever takes the therapist's money;
 * the slot stays held BOOKING_HOLD_PAYMENT_MINUTES meanwhile. The booking is made when the webhook
 * says the checkout is paid (never on the redirect back), the session marked paid. If it cannot be
 * made by then (the time was taken after the hold ran out, the service paused), the money is refunded
 * and the visitor told. A service whose therapist cannot take card payments yet, or whose price is
 * under the gateway's minimum, is booked without paying (the session's payment stays pending).
 *
 * A service with payment `card`: the same, with a Checkout Session in setup mode on the therapist's
 * account (where patients' cards live); the webhook's "saved" books it and keeps the card on the
 * patient's file (automatic charges as for any saved card). Nothing to refund when it cannot be booked.
 */
export class BookingPaymentService {
  constructor(
    private readonly d: BookingFlowDeps & { log?: FastifyBaseLogger },
    private readonly booking: BookHoldService,
    /** The payments module's port (built before booking); none: every booking is made without paying. */
    private readonly payments?: BookingPayments,
  ) {
    payments?.onPaid((p) => this.paid(p));
    payments?.onCardSaved((c) => this.cardSaved(c));
  }

  /** The checkout to go through before booking, or null when this booking asks for nothing now. */
  async start(hold: BookingHoldRow, service: BookingServiceRow, v: VisitorData, now: Date): Promise<BookingConfirmResult | null> {
    const payments = this.payments;
    if (!payments || service.payment === 'none' || (service.payment === 'pay' && service.priceCents < MIN_CHARGE_CENTS)) return null;
    // Paid: whoever takes the therapist's money; a card: the therapist's own account, where patients' cards live.
    const receiver =
      service.payment === 'pay' ? await this.d.booked.receiverOf(this.d.db, service.workspaceId, service.therapistId) : 'therapist';
    const account = await payments.accountFor(service.workspaceId, service.therapistId, receiver);
    if (!account) {
      this.d.log?.warn(
        { serviceId: service.id },
        'booking service asks for a payment or a card but its receiver cannot take card payments: booked without',
      );
      return null;
    }
    const expiresAt = new Date(now.getTime() + BOOKING_HOLD_PAYMENT_MINUTES * 60_000);
    await publicBookingRepository(this.d.db).extendHold(hold.id, expiresAt);
    const page = `${this.d.publicUrl}/v1/reservations/${service.workspaceId}/${service.therapistId}/${service.id}`;
    const back = { successUrl: `${page}?pago=completado`, cancelUrl: `${page}?pago=cancelado` };
    let checkout;
    if (service.payment === 'pay') {
      checkout = await payments.checkout(account, {
        holdId: hold.id,
        workspaceId: service.workspaceId,
        amount: service.priceCents,
        email: v.email,
        description: service.title,
        ...back,
      });
    } else {
      const known = await this.d.intake.findByEmail(this.d.db, service.workspaceId, v.email);
      const name = [v.firstName, v.lastName].filter(Boolean).join(' ');
      const customerId = await payments.customerFor(account, service.therapistId, service.workspaceId, {
        patientId: known?.id ?? null,
        name,
        email: v.email,
        holdId: hold.id,
      });
      checkout = await payments.cardCheckout(account, { holdId: hold.id, workspaceId: service.workspaceId, customerId, ...back });
    }
    return { status: 'payment_required', checkoutUrl: checkout.url, expiresAt: expiresAt.toISOString() };
  }

  /** The webhook's "card saved": book the hold and keep the card on the patient's file. Idempotent. */
  async cardSaved(c: BookingCardSaved): Promise<void> {
    const now = nowOf(this.d);
    const hold = await publicBookingRepository(this.d.db).hold(c.holdId);
    if (!hold || hold.workspaceId !== c.workspaceId || hold.booked) return;
    const v = JSON.parse(await this.d.cipher.decryptText(hold.workspaceId, hold.dataEnc, holdAad(hold.id))) as VisitorData;
    const service = await bookingRepository(this.d.db).service(hold.workspaceId, hold.serviceId);
    try {
      if (!service || service.status !== 'active') throw new AppError('public_service_not_found');
      if (hold.consumedAt) throw new AppError('challenge_not_found');
      const session = await this.booking.book(hold, service, v, now);
      if (session !== 'already') await this.payments!.adoptCard(c, session.patientId, session.therapistId);
    } catch (err) {
      if (!(err instanceof AppError) || (await publicBookingRepository(this.d.db).hold(hold.id))?.booked) throw err;
      await this.booking.release(hold, now);
      if (service) await this.tellNotBooked(hold, service, v, false);
    }
  }

  /** The webhook's "paid": book the hold, or refund when it can no longer be booked. Idempotent. */
  async paid(p: BookingPaid): Promise<void> {
    const now = nowOf(this.d);
    const hold = await publicBookingRepository(this.d.db).hold(p.holdId);
    if (!hold || hold.workspaceId !== p.workspaceId) {
      this.d.log?.warn({ holdId: p.holdId }, 'paid booking checkout of an unknown hold: refunded');
      return this.payments!.refund(p);
    }
    if (hold.booked) return;
    const v = JSON.parse(await this.d.cipher.decryptText(hold.workspaceId, hold.dataEnc, holdAad(hold.id))) as VisitorData;
    const service = await bookingRepository(this.d.db).service(hold.workspaceId, hold.serviceId);
    try {
      if (!service || service.status !== 'active') throw new AppError('public_service_not_found');
      // The hold may have run out while paying: the slot is checked again, the hold itself aside.
      if (hold.consumedAt) throw new AppError('challenge_not_found');
      await this.booking.book(hold, service, v, now, {
        at: now,
        accountId: p.accountId,
        paymentIntentId: p.paymentIntentId,
        amount: p.amount,
      });
    } catch (err) {
      // Only a booking refused (a failure after the commit, a mail, leaves it booked: never refunded).
      if (!(err instanceof AppError) || (await publicBookingRepository(this.d.db).hold(hold.id))?.booked) throw err;
      await this.booking.release(hold, now);
      await this.payments!.refund(p);
      if (service) await this.tellNotBooked(hold, service, v, true);
    }
  }

  private async tellNotBooked(hold: BookingHoldRow, service: BookingServiceRow, v: VisitorData, refunded: boolean) {
    const [therapist, brand] = await Promise.all([
      this.d.users.findById(service.therapistId),
      this.d.workspaces.brandOf(service.workspaceId),
    ]);
    const facts = {
      serviceTitle: service.title,
      therapistName: [therapist?.firstName, therapist?.lastName].filter(Boolean).join(' ') || brand.name,
      startsAt: hold.startsAt,
      timeZone: service.timeZone,
      modality: service.modality,
      place: null,
    };
    const mailBrand = { name: brand.name, logoUrl: brand.logoPath ? `${this.d.publicUrl}${brand.logoPath}` : null };
    await this.d.mailer.send(bookingNotMadeMail(v.email, v.firstName, facts, mailBrand, refunded), {
      purpose: 'booking_not_made',
      workspaceId: service.workspaceId,
      key: `booking-not-made:${hold.id}`,
    });
  }
}
