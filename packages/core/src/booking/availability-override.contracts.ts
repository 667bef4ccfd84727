/**
 * Availability overrides (spec §3, "blocked days" on the screens, subject `availability_restrictions`):
 * a whole day or a time range of a day when the therapist takes no booking, in the therapist's time
 * zone. They block public booking only; sessions the therapist puts in the calendar are not refused.
 * Several dates go in one request; the rules (no repeated day, no past day, no inverted range) are in
 * availability-override.rules.ts. A day already blocked is refused by the server
 * (`availability_restriction_exists`): one override per day, so a day reads as one thing.
 */
import { z } from 'zod';
import { dayField } from '../fields';
import { msg } from '../messages';
import { hhmmSchema } from '../time/time.contracts';
import { workspaceIdParams } from '../workspaces/workspace.contracts';
import { AVAILABILITY_OVERRIDES_PER_REQUEST_MAX, bookingMessages } from './booking.constants';

/** What the slot computation reads: a blocked whole day, or from–to (local 'HH:mm', end exclusive) of it. */
export type AvailabilityOverride =
  { day: string; allDay: true; from?: null; to?: null } | { day: string; allDay: false; from: string; to: string };

/** One blocked date: all day (the times are dropped), or a range that needs both times. */
export const availabilityOverrideEntry = z
  .object({
    day: dayField('fecha'),
    allDay: z.boolean({ error: msg.invalid('Día completo') }).default(true),
    from: hhmmSchema.nullish(),
    to: hhmmSchema.nullish(),
  })
  .refine((o) => o.allDay || (o.from && o.to), { error: bookingMessages.overrideTimesRequired(), path: ['from'] })
  .transform((o): AvailabilityOverride =>
    o.allDay ? { day: o.day, allDay: true } : { day: o.day, allDay: false, from: o.from!, to: o.to! },
  );
export type AvailabilityOverrideInput = z.input<typeof availabilityOverrideEntry>;

export const createAvailabilityOverridesBody = z.object({
  /** The therapist the dates block (default: the caller). */
  therapistId: z.uuid({ error: msg.invalid('Terapeuta') }).optional(),
  dates: z
    .array(availabilityOverrideEntry, { error: msg.invalid('Fechas') })
    .min(1, { error: msg.required('fechas') })
    .max(AVAILABILITY_OVERRIDES_PER_REQUEST_MAX, { error: msg.arrayMax(AVAILABILITY_OVERRIDES_PER_REQUEST_MAX) }),
});
export type CreateAvailabilityOverridesBody = z.input<typeof createAvailabilityOverridesBody>;

/** Changing one: its day, all day or its times, as a whole. */
export const updateAvailabilityOverrideBody = availabilityOverrideEntry;

export const availabilityOverrideIdParams = workspaceIdParams.extend({ overrideId: z.uuid({ error: 'Bloqueo inválido' }) });

export const availabilityOverrideResponse = z.object({
  id: z.uuid(),
  therapistId: z.uuid(),
  day: z.string(),
  allDay: z.boolean(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  createdAt: z.string(),
});
export type AvailabilityOverrideRecord = z.infer<typeof availabilityOverrideResponse>;
export const availabilityOverrideListResponse = z.object({ items: z.array(availabilityOverrideResponse) });
