/** The Zod schemas on zoned.ts's checks (the one calendar-checked day, instant, HH:mm and zone), for contracts and forms. */
import { z } from 'zod';
import { msg } from '../messages';
import { isHHmm, isIsoDay, isIsoInstant, isValidTimeZone } from './zoned';

export const isoDaySchema = z.string().refine(isIsoDay, { error: msg.invalidDate() });
/** An instant a client sends (a `before` cursor): `z.iso.datetime` (so OpenAPI says `date-time`) checked by `isIsoInstant`. */
export const instantSchema = z.iso
  .datetime({ offset: true, error: msg.invalidInstant() })
  .refine(isIsoInstant, { error: msg.invalidInstant() });
// msg.invalid() agrees in the masculine ("… inválido"); these two nouns are feminine.
export const hhmmSchema = z.string().refine(isHHmm, { error: 'Hora inválida' });
export const timeZoneSchema = z.string().refine(isValidTimeZone, { error: 'Zona horaria inválida' });
