import { loadIcal } from '../../platform/documents/ical';

export type BookingInvite = {
  sessionId: string;
  /** Raised at every move: a calendar replaces its copy only with a higher SEQUENCE. */
  sequence: number;
  startsAt: Date;
  endsAt: Date;
  /** The therapist's (the service's) zone: the times are written in it, with its VTIMEZONE. */
  timeZone: string;
  summary: string;
  description: string;
  location: string | null;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
  canceled?: boolean;
  now: Date;
};

/** The UID of a booked session's invitation: the same across moves, so the calendar updates its event. */
export const inviteUid = (sessionId: string) => `booking-${sessionId}@divan`;

/**
 * The .ics invitation sent with a booking's confirmation (METHOD:REQUEST; CANCEL once canceled): one
 * event, DTSTART;TZID=<the therapist's zone> as a zoned date-time (a native Date would come out in the
 * server's zone), the patient as the attendee. The organizer is the sending address, not the therapist's.
 */
export async function bookingInvite(b: BookingInvite): Promise<string> {
  const { ical, generator, getVtimezoneComponent, DateTime } = await loadIcal();
  const { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } = generator;
  const cal = ical({ prodId: { company: 'Diván', product: 'Reservas', language: 'ES' } });
  cal.method(b.canceled ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST);
  cal.timezone({ name: null, generator: getVtimezoneComponent });
  cal.createEvent({
    id: inviteUid(b.sessionId),
    sequence: b.sequence,
    start: DateTime.fromJSDate(b.startsAt, { zone: b.timeZone }),
    end: DateTime.fromJSDate(b.endsAt, { zone: b.timeZone }),
    timezone: b.timeZone,
    stamp: DateTime.fromJSDate(b.now, { zone: 'utc' }),
    summary: b.summary,
    description: b.description,
    location: b.location,
    organizer: b.organizer,
    attendees: [{ name: b.attendee.name, email: b.attendee.email, role: ICalAttendeeRole.REQ, status: ICalAttendeeStatus.ACCEPTED }],
    status: b.canceled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return cal.toString();
}

/** 'Diván <no-reply@divan.es>' → its address (the invitation's organizer). */
export function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}
