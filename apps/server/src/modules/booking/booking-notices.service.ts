import type { MailBrand } from '../../platform/mail/layout';
import type { BookedSession } from '../sessions/booked-sessions';
import { nowOf, type BookingFlowDeps } from './booking-deps';
import { addressOf, bookingInvite } from './booking-ics';
import { bookingCanceledMail, bookingConfirmedMail, therapistNoticeMail, type BookedFacts } from './booking-mails';
import type { BookingServiceRow } from './booking.tables';

export type Patient = { firstName: string; fullName: string; email: string | null };
export type ConfirmedNotice = {
  token: string;
  sequence: number;
  patient: Patient;
  moved?: { from: Date };
  newPatient?: boolean;
  message?: string | null;
};

/** The manage link of a booking (the web's page, spec §2 `/v1/reservations/…`). */
export const manageUrl = (publicUrl: string, token: string) => `${publicUrl}/v1/reservations/manage/${token}`;

/**
 * What a booking made, moved or canceled on the public page tells: the patient gets the confirmation with
 * the .ics invitation and the manage link; the therapist gets a mail unless their settings «Avisos para
 * ti» say not (their calendar updates live from the session's own event either way). Sent after the commit: a mail that fails leaves the booking as it is.
 */
export class BookingNotices {
  constructor(private readonly d: BookingFlowDeps) {}

  async facts(service: Pick<BookingServiceRow, 'title' | 'therapistId' | 'workspaceId'>, s: BookedSession) {
    const [therapist, brand] = await Promise.all([this.d.users.findById(s.therapistId), this.d.workspaces.brandOf(s.workspaceId)]);
    const therapistName = [therapist?.firstName, therapist?.lastName].filter(Boolean).join(' ') || brand.name;
    const facts: BookedFacts = {
      serviceTitle: service.title,
      therapistName,
      startsAt: s.startsAt,
      timeZone: s.timeZone,
      modality: s.modality,
      place: s.location,
    };
    const mailBrand: MailBrand = { name: brand.name, logoUrl: brand.logoPath ? `${this.d.publicUrl}${brand.logoPath}` : null };
    return { facts, therapist, brand: mailBrand, workspaceName: brand.name };
  }

  async confirmed(service: BookingServiceRow, s: BookedSession, n: ConfirmedNotice): Promise<void> {
    const { facts, therapist, brand } = await this.facts(service, s);
    if (n.patient.email) {
      const ics = await bookingInvite({
        sessionId: s.id,
        sequence: n.sequence,
        startsAt: s.startsAt,
        endsAt: s.endsAt,
        timeZone: s.timeZone,
        summary: `${service.title} con ${facts.therapistName}`,
        description: `Reserva hecha en ${brand.name}. Para cambiarla o cancelarla: ${manageUrl(this.d.publicUrl, n.token)}`,
        location:
          s.modality === 'online' ? 'Online (videollamada)' : [s.location?.name, s.location?.address].filter(Boolean).join(', ') || null,
        organizer: { name: brand.name, email: addressOf(this.d.mailFrom) },
        attendee: { name: n.patient.fullName, email: n.patient.email },
        now: nowOf(this.d),
      });
      await this.d.mailer.send(
        bookingConfirmedMail(n.patient.email, n.patient.firstName, facts, manageUrl(this.d.publicUrl, n.token), ics, brand, !!n.moved),
        {
          purpose: n.moved ? 'booking_moved' : 'booking_confirmed',
          workspaceId: s.workspaceId,
        },
      );
    }
    if (therapist?.email && (await this.d.therapistWants(s.workspaceId, s.therapistId)).booked) {
      const notice = {
        kind: n.moved ? ('moved' as const) : ('booked' as const),
        patientName: n.patient.fullName,
        newPatient: n.newPatient,
        from: n.moved?.from,
        message: n.message,
      };
      const mail = therapistNoticeMail(therapist.email, therapist.firstName, facts, notice, `${this.d.publicUrl}/calendar`);
      await this.d.mailer.send(mail, { purpose: n.moved ? 'booking_moved_therapist' : 'booking_therapist', workspaceId: s.workspaceId });
    }
  }

  /** `sequence`: the invitation's next (above every one mailed); `refundCents`: what goes back when it was paid at booking. */
  async canceled(
    service: BookingServiceRow,
    s: BookedSession,
    patient: Patient,
    c: { sequence: number; refundCents: number | null },
  ): Promise<void> {
    const { facts, therapist, brand } = await this.facts(service, s);
    if (patient.email) {
      const ics = await bookingInvite({
        sessionId: s.id,
        sequence: c.sequence,
        startsAt: s.startsAt,
        endsAt: s.endsAt,
        timeZone: s.timeZone,
        summary: `${service.title} con ${facts.therapistName}`,
        description: `Reserva cancelada en ${brand.name}.`,
        location: null,
        organizer: { name: brand.name, email: addressOf(this.d.mailFrom) },
        attendee: { name: patient.fullName, email: patient.email },
        now: nowOf(this.d),
        canceled: true,
      });
      await this.d.mailer.send(bookingCanceledMail(patient.email, patient.firstName, facts, ics, brand, c.refundCents), {
        purpose: 'booking_canceled',
        workspaceId: s.workspaceId,
      });
    }
    if (!therapist?.email || !(await this.d.therapistWants(s.workspaceId, s.therapistId)).canceled) return;
    const mail = therapistNoticeMail(
      therapist.email,
      therapist.firstName,
      facts,
      { kind: 'canceled', patientName: patient.fullName },
      `${this.d.publicUrl}/calendar`,
    );
    await this.d.mailer.send(mail, { purpose: 'booking_canceled_therapist', workspaceId: s.workspaceId });
  }
}
