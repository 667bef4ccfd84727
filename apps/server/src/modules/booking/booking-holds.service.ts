import { randomInt, randomUUID } from 'node:crypto';
import { BOOKING_HOLD_MINUTES, type BookingHold, type createBookingHoldBody, msg, normalizePhone } from '@divan/core';
import type { z } from 'zod';
import { AppError } from '../../platform/errors';
import type { DbOrTx } from '../../platform/db/database';
import { nowOf, type BookingFlowDeps, type VisitorData } from './booking-deps';
import { emailHash, holdAad, holdCodeHash } from './booking-secrets';
import type { BookingServicesService } from './booking-services.service';
import { emailHint, holdCodeMail } from './booking-mails';
import { publicBookingRepository } from './public-booking.repository';

type HoldBody = z.output<typeof createBookingHoldBody>;
type ServicePath = { workspaceId: string; therapistId: string; serviceId: string };

/** Holds asked for by one email address in an hour, at most (429 past it). */
export const HOLDS_PER_EMAIL_PER_HOUR = 5;
const HOUR = 3_600_000;

/**
 * The first step of a booking on the public page: the visitor asks for one of the service's free slots
 * with their name, email and phone. The slot is held for BOOKING_HOLD_MINUTES (it leaves the public month
 * at once) and a six-digit code goes to the email; nothing else happens until the code comes back
 * (booking-confirm.service.ts). The answer never depends on whether the email belongs to a patient.
 * Two visitors asking for the same time are serialised by the therapist's lock: one gets it, the other
 * `public_service_slot_not_available`. One email's holds are serialised by the email's lock (taken
 * first), so HOLDS_PER_EMAIL_PER_HOUR holds under races too.
 */
export class BookingHoldsService {
  constructor(
    private readonly d: BookingFlowDeps,
    private readonly services: BookingServicesService,
  ) {}

  async hold(path: ServicePath, body: HoldBody): Promise<BookingHold> {
    const now = nowOf(this.d);
    const service = await this.services.active(path);
    const startsAt = new Date(body.startsAt);
    const expiresAt = new Date(now.getTime() + BOOKING_HOLD_MINUTES * 60_000);
    // The honeypot: a robot filled the field no person sees. It is told what a person would be, and nothing happens.
    if (body.website?.trim()) return { holdId: randomUUID(), expiresAt: expiresAt.toISOString(), emailHint: emailHint(body.email ?? '') };
    const visitor = this.visitor(body, service.timeZone);

    const emailKey = emailHash(this.d.hash, visitor.email);
    const tooMany = async (db: DbOrTx) =>
      (await publicBookingRepository(db).holdsOfEmailSince(emailKey, new Date(now.getTime() - HOUR))) >= HOLDS_PER_EMAIL_PER_HOUR;
    // Cheap refusal before any work; counted again under the email's lock below, where it holds under races.
    if (await tooMany(this.d.db)) throw new AppError('too_many_requests');
    // Cheap refusal before the lock: a time that is not a slot of the service (taken, past, off the grid).
    if (!(await this.d.slots.slotAt(service, startsAt, now))) throw new AppError('public_service_slot_not_available');

    const id = randomUUID();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    // Encrypted before the transaction: a workspace's key is loaded on the pool, never on PGlite's one connection held by a transaction.
    const dataEnc = await this.d.cipher.encryptText(service.workspaceId, JSON.stringify(visitor), holdAad(id));
    await this.d.db.transaction(async (tx) => {
      const repo = publicBookingRepository(tx);
      await repo.lockEmail(emailKey);
      if (await tooMany(tx)) throw new AppError('too_many_requests');
      await repo.lockTherapist(service.therapistId);
      const slot = await this.d.slots.slotAt(service, startsAt, now, { tx });
      if (!slot) throw new AppError('public_service_slot_not_available');
      await repo.insertHold({
        id,
        workspaceId: service.workspaceId,
        therapistId: service.therapistId,
        serviceId: service.id,
        startsAt: slot.start,
        endsAt: slot.end,
        emailHash: emailKey,
        dataEnc,
        codeHash: holdCodeHash(this.d.hash, id, code),
        expiresAt,
      });
    });
    this.d.changed(service.workspaceId);

    const [therapist, brand] = await Promise.all([
      this.d.users.findById(service.therapistId),
      this.d.workspaces.brandOf(service.workspaceId),
    ]);
    const facts = {
      serviceTitle: service.title,
      therapistName: [therapist?.firstName, therapist?.lastName].filter(Boolean).join(' ') || brand.name,
      startsAt,
      timeZone: service.timeZone,
      modality: service.modality,
      place: null,
    };
    await this.d.mailer.send(
      holdCodeMail(visitor.email, visitor.firstName, code, facts, visitor.timeZone, {
        name: brand.name,
        logoUrl: brand.logoPath ? `${this.d.publicUrl}${brand.logoPath}` : null,
      }),
      {
        purpose: 'booking_code',
        workspaceId: service.workspaceId,
      },
    );
    return { holdId: id, expiresAt: expiresAt.toISOString(), emailHint: emailHint(visitor.email) };
  }

  /** Name, email and phone are all needed (one answer for any missing); a phone that is no phone is a field error. */
  private visitor(body: HoldBody, serviceZone: string): VisitorData {
    const firstName = body.firstName?.trim() ?? '';
    const email = body.email?.trim().toLowerCase() ?? '';
    const typedPhone = body.phone?.trim() ?? '';
    if (!firstName || !email || !typedPhone) throw new AppError('public_service_patient_data_missing');
    const phone = normalizePhone(typedPhone);
    if (!phone) throw new AppError('invalid_argument', [{ path: 'phone', message: msg.invalid('Teléfono') }], msg.invalid('Teléfono'));
    return {
      firstName,
      lastName: body.lastName?.trim() || null,
      email,
      phone,
      message: body.message?.trim() || null,
      timeZone: body.timeZone ?? serviceZone,
    };
  }

  /** Holds of more than a day ago, used or not (the hourly sweep): the per-email count needs only the last hour. */
  sweep = async () => {
    let n = 0;
    const before = new Date(nowOf(this.d).getTime() - 24 * HOUR);
    for (let batch = 500; batch === 500; n += batch) batch = await publicBookingRepository(this.d.db).deleteOldHolds(before, 500);
    return n;
  };
}
