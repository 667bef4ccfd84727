import { addTimespan, monthRange, presentSlots, publicSlotsResponse, type PublicSlots, type PublicSlotsQuery } from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { BookingSlots, SlotsOptions } from './booking-slots.service';
import type { BookingServiceRow } from './booking.tables';
import { bookingRepository } from './booking.repository';
import { PublicSlotsCache } from './public-slots-cache';

const notFound = () => new AppError('public_service_not_found');

/**
 * What the public booking page reads, without an account (spec §2 `/v1/reservations/…`): a month of a
 * service's free slots (booking-slots.service.ts). Every session of the therapist takes its time (booked online or
 * not), and so does every active hold, widened by the service's gap; blocked days and ranges offer
 * nothing; notice counts from now. A paused service, or one whose path does not match (workspace,
 * therapist), is not found: nothing is learnt of others.
 */
export class PublicBookingService {
  readonly cache = new PublicSlotsCache<string>();

  constructor(private readonly d: { db: Db; slots: BookingSlots; clock?: () => Date }) {}

  /** The month's answer as JSON (kept serialised: a month of slots is read far more often than it changes). */
  slotsJson(ids: { workspaceId: string; therapistId: string; serviceId: string }, q: PublicSlotsQuery): Promise<string> {
    const make = async () => JSON.stringify(publicSlotsResponse.parse(await this.compute(ids, q)));
    // A test clock reads what it is told, uncached.
    if (this.d.clock) return make();
    return this.cache.read(ids.workspaceId, `${ids.therapistId}|${ids.serviceId}|${q.month}|${q.timeZone ?? ''}`, make);
  }

  private async compute(ids: { workspaceId: string; therapistId: string; serviceId: string }, q: PublicSlotsQuery): Promise<PublicSlots> {
    const service = await bookingRepository(this.d.db).service(ids.workspaceId, ids.serviceId);
    if (!service || service.therapistId !== ids.therapistId || service.status !== 'active') throw notFound();
    return monthOfSlots(this.d.slots, service, q, this.d.clock?.() ?? new Date());
  }
}

/**
 * A month of a service's free slots, in the service's zone and the visitor's: nothing before now nor after
 * the maximum notice (freeSlots applies the notices), so past months and those beyond it read no sessions.
 * `o.exceptSessionId`: a session being moved does not take its own time.
 */
export async function monthOfSlots(
  slots: BookingSlots,
  service: BookingServiceRow,
  q: PublicSlotsQuery,
  now: Date,
  o: SlotsOptions = {},
): Promise<PublicSlots> {
  const tz = service.timeZone;
  const month = monthRange(`${q.month}-01`, tz);
  const from = new Date(Math.max(month.start.getTime(), now.getTime()));
  const to = new Date(Math.min(month.end.getTime(), addTimespan(now, service.maxNotice, tz).getTime() + 1));
  const days: PublicSlots['days'] = [];
  if (from < to) {
    const free = await slots.free(service, from, to, now, o);
    const presented = presentSlots(free, tz, q.timeZone ?? tz);
    free.forEach((slot, i) => {
      const last = days[days.length - 1];
      if (last?.day === slot.day) last.slots.push(presented[i]!);
      else days.push({ day: slot.day, slots: [presented[i]!] });
    });
  }
  return { month: q.month, timeZone: tz, durationMinutes: service.durationMinutes, days };
}
