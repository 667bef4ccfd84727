/**
 * The public booking page's reads (spec §2 `/v1/reservations/{workspaceId}/:therapistId/:serviceId`):
 * a month of a service's free slots, by the therapist's local day. No account: the ids in the path are
 * the whole address, and a paused or unknown service is `public_service_not_found`.
 */
import { z } from 'zod';
import { msg } from '../messages';
import { timeZoneSchema } from '../time/zoned';

export const publicServiceParams = z.object({
  workspaceId: z.uuid({ error: 'Espacio inválido' }),
  therapistId: z.uuid({ error: 'Terapeuta inválido' }),
  serviceId: z.uuid({ error: 'Servicio inválido' }),
});

export const publicSlotsQuery = z.object({
  /** 'YYYY-MM', the month of the calendar shown. */
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: msg.invalid('Mes') }),
  /** The visitor's zone, to show each slot in it beside the therapist's; default the therapist's. */
  timeZone: timeZoneSchema.optional(),
});
export type PublicSlotsQuery = z.infer<typeof publicSlotsQuery>;

const localTime = z.object({ day: z.string(), from: z.string(), to: z.string(), offset: z.string() });
export const publicSlotsResponse = z.object({
  month: z.string(),
  timeZone: z.string(),
  durationMinutes: z.number().int(),
  days: z.array(
    z.object({
      day: z.string(),
      slots: z.array(z.object({ startsAt: z.string(), endsAt: z.string(), therapist: localTime, visitor: localTime, sameLocalTime: z.boolean() })),
    }),
  ),
});
export type PublicSlots = z.infer<typeof publicSlotsResponse>;
