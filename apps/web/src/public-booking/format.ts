/**
 * Money and a session's line as a visitor reads them (euro; DD/MM/YYYY, HH:mm), with the browser's Intl only:
 * no date library on the public pages. Days and times in a zone are the public kit's (public-kit/format.ts).
 */
import { formatCents } from '@divan/core/rules';
import { dayInZone, dayLabel, timeInZone } from '../public-kit/format';

/** 'jueves 03/12/2026, de 10:00 a 10:50' of a session in `timeZone`. */
export function sessionLabel(startsAt: string, endsAt: string, timeZone: string): string {
  return `${dayLabel(dayInZone(startsAt, timeZone))}, de ${timeInZone(startsAt, timeZone)} a ${timeInZone(endsAt, timeZone)}`;
}

/** '60,00 €', '1.234,56 €' (core's formatCents, as every screen writes euros); 'Gratuita' for 0. */
export function formatPrice(cents: number): string {
  return cents ? formatCents(cents) : 'Gratuita';
}
