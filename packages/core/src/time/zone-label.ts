/**
 * Time zones as people read them: «Ciudad de México (UTC−6)», not «America/Mexico_City». The places
 * Spanish practices work in have their Spanish names here (Intl has no exemplar city of its own to
 * give, and names Madrid's zone «CET»); any other zone takes the city Intl names in its Spanish
 * «hora de …», else the IANA id's last part.
 */
import { utcOffsetLabel } from '../booking/slots-view';
import { isValidTimeZone } from './zoned';

const NAMES: Record<string, string> = {
  'Europe/Madrid': 'Madrid',
  'Atlantic/Canary': 'Canarias',
  'Africa/Ceuta': 'Ceuta',
  'Europe/Lisbon': 'Lisboa',
  'Europe/London': 'Londres',
  'Europe/Paris': 'París',
  'America/Mexico_City': 'Ciudad de México',
  'America/Bogota': 'Bogotá',
  'America/Argentina/Buenos_Aires': 'Buenos Aires',
  'America/New_York': 'Nueva York',
  UTC: 'UTC',
};

/** The zones Spanish practices usually work in, as the setup screens offer them. */
export const COMMON_TIME_ZONES = [
  'Europe/Madrid',
  'Atlantic/Canary',
  'Europe/Lisbon',
  'Europe/London',
  'America/Mexico_City',
  'America/Bogota',
  'America/Argentina/Buenos_Aires',
];

/** 'Madrid', 'Canarias', 'Ciudad de México', 'Nueva York'. */
export function zoneName(timeZone: string): string {
  const known = NAMES[timeZone];
  if (known) return known;
  try {
    const generic =
      new Intl.DateTimeFormat('es-ES', { timeZone, timeZoneName: 'shortGeneric' })
        .formatToParts(new Date())
        .find((p) => p.type === 'timeZoneName')?.value ?? '';
    const city = /^hora de (.+)$/.exec(generic)?.[1];
    if (city) return city;
  } catch {
    // Not a zone this Intl knows: its id is all there is.
  }
  return (timeZone.split('/').pop() ?? timeZone).replace(/_/g, ' ');
}

/** 'Ciudad de México (UTC−6)', 'Madrid (UTC+2)': the name and the offset at `at` (now by default). */
export function zoneLabel(timeZone: string, at: Date = new Date()): string {
  return isValidTimeZone(timeZone) ? `${zoneName(timeZone)} (${utcOffsetLabel(at, timeZone)})` : zoneName(timeZone);
}

/** The choices of a zone select: the common ones, with `current` first when it is another. */
export function timeZoneOptions(current: string, at: Date = new Date()): { value: string; label: string }[] {
  const zones = COMMON_TIME_ZONES.includes(current) ? COMMON_TIME_ZONES : [current, ...COMMON_TIME_ZONES];
  return zones.map((z) => ({ value: z, label: zoneLabel(z, at) }));
}
