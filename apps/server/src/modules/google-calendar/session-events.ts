import type { GoogleTitleFormat } from '@divan/core';
import type { CalendarSession } from '../sessions/calendar-sync.queries';
import type { GoogleEventInput } from './google-api';

/** The patient as the title may show them: the therapist's choice, never more. */
export type TitleParts = { firstName: string; fullName: string } | null;

/** «A. G.» from «Ana García López»: the first letter of the first name and of the first surname. */
export function initialsOf(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const picked = words.length > 1 ? [words[0]!, words[1]!] : words;
  return picked.map((w) => `${w[0]!.toLocaleUpperCase('es')}.`).join(' ');
}

/** The event's title by the therapist's privacy choice (initials by default). Never the motive, never a note. */
export function titleOf(format: GoogleTitleFormat, patient: TitleParts): string {
  if (!patient || format === 'generic') return 'Sesión';
  if (format === 'full_name') return `Sesión · ${patient.fullName}`;
  if (format === 'first_name') return `Sesión · ${patient.firstName}`;
  const initials = initialsOf(patient.fullName);
  return initials ? `Sesión · ${initials}` : 'Sesión';
}

/** Google's event ids are base32hex (0-9, a-v), 5–1024 characters: a session's own id, so a retried insert never doubles it. */
export const eventIdOf = (sessionId: string) => `dv${sessionId.replaceAll('-', '')}`;

/** Meet for an online session whose video conference is Google Meet. */
export const wantsMeet = (s: CalendarSession) => s.modality === 'online' && s.videoConference === 'google_meet';

/**
 * The event of a session: its time in its zone, a neutral description (no clinical data), the place
 * (a room's name) for presential sessions, private and without Google's own reminders (Diván sends them).
 */
export function eventOf(
  s: CalendarSession,
  title: string,
  opts: { publicUrl: string; addMeet: boolean; dropMeet: boolean },
): GoogleEventInput {
  const description =
    s.modality === 'online'
      ? 'Sesión online de Diván. Los detalles de la sesión están en Diván.'
      : 'Sesión de Diván. Los detalles de la sesión están en Diván.';
  return {
    summary: title,
    description: `${description}\n${opts.publicUrl}`,
    start: { dateTime: s.startsAt.toISOString(), timeZone: s.timeZone },
    end: { dateTime: s.endsAt.toISOString(), timeZone: s.timeZone },
    ...(s.modality === 'presential' && s.locationName ? { location: s.locationName } : {}),
    status: 'confirmed',
    transparency: 'opaque',
    visibility: 'private',
    reminders: { useDefault: false },
    extendedProperties: { private: { divanSessionId: s.id } },
    ...(opts.addMeet
      ? { conferenceData: { createRequest: { requestId: s.id, conferenceSolutionKey: { type: 'hangoutsMeet' as const } } } }
      : opts.dropMeet
        ? { conferenceData: null }
        : {}),
  };
}
