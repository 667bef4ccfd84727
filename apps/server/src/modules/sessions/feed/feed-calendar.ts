import { loadIcal } from '../../../platform/documents/ical';
import { MODALITY } from '@divan/core';
import type { FeedSession } from './feed.repository';

/** "Ana María Pérez" → "A. M. P.": who the session is with, without the name on a phone's lock screen. */
export function initialsOf(name: string): string {
  const parts = name.trim().split(/\s+/u).filter(Boolean);
  return parts.length ? parts.map((p) => `${[...p][0]!.toLocaleUpperCase('es')}.`).join(' ') : '—';
}

export type FeedInput = {
  calendarName: string;
  sessions: FeedSession[];
  patientName: (id: string) => string;
  showFullNames: boolean;
  /** The session in the app, for the event's link. */
  appLink: (sessionId: string) => string;
};

/**
 * The iCal text of a therapist's sessions. Each event is fed as a zoned date-time (luxon, in the
 * session's own zone) and written as DTSTART;TZID=<zone>:<local time>, with a VTIMEZONE per zone used:
 * a native Date would come out in the server's zone. Canceled sessions stay, marked CANCELLED, so
 * subscribed calendars drop them instead of keeping a stale copy.
 */
export async function feedCalendar(f: FeedInput): Promise<string> {
  const { ical, generator, getVtimezoneComponent, DateTime } = await loadIcal();
  const { ICalCalendarMethod, ICalEventStatus } = generator;
  const cal = ical({ name: f.calendarName, prodId: { company: 'Diván', product: 'Agenda', language: 'ES' }, ttl: 60 * 60 });
  cal.method(ICalCalendarMethod.PUBLISH);
  cal.timezone({ name: null, generator: getVtimezoneComponent });
  for (const s of f.sessions) {
    const full = f.patientName(s.patientId);
    const who = f.showFullNames ? full || 'Paciente' : initialsOf(full);
    const canceled = s.status === 'canceled';
    const where =
      s.modality === 'online' ? 'Online (videollamada)' : [s.locationName, s.locationAddress].filter(Boolean).join(', ') || null;
    cal.createEvent({
      id: `${s.id}@divan`,
      start: DateTime.fromJSDate(s.startsAt, { zone: s.timeZone }),
      end: DateTime.fromJSDate(s.endsAt, { zone: s.timeZone }),
      timezone: s.timeZone,
      stamp: DateTime.fromJSDate(s.updatedAt, { zone: 'utc' }),
      created: DateTime.fromJSDate(s.createdAt, { zone: 'utc' }),
      lastModified: DateTime.fromJSDate(s.updatedAt, { zone: 'utc' }),
      summary: `${canceled ? 'Cancelada: ' : ''}Sesión · ${who}`,
      description: `${MODALITY.labels[s.modality]}. Ábrela en Diván: ${f.appLink(s.id)}`,
      location: where,
      url: f.appLink(s.id),
      status: canceled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  return cal.toString();
}
