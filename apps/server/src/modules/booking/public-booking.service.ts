import { addTimespan, freeSlots, monthRange, presentSlots, publicSlotsResponse, todayIn, type PublicSlots, type PublicSlotsQuery } from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { BusyTimes } from '../sessions/busy-times';
import { bookingRepository } from './booking.repository';
import { PublicSlotsCache } from './public-slots-cache';

const notFound = () => new AppError('public_service_not_found');

/**
 * What the public booking page reads, without an account (spec §2 `/v1/reservations/…`): a month of a
 * service's free slots. Every session of the therapist takes its time (booked online or not), widened by
 * the service's gap; blocked days and ranges offer nothing; notice counts from now. A paused service, or
 * one whose path does not match (workspace, therapist), is not found: nothing is learnt of others.
 */
export class PublicBookingService {
  readonly cache = new PublicSlotsCache<string>();

  constructor(private readonly d: { db: Db; busy: BusyTimes; clock?: () => Date }) {}

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
    const now = this.d.clock?.() ?? new Date();
    const tz = service.timeZone;
    const month = monthRange(`${q.month}-01`, tz);
    // Nothing before now nor after the maximum notice (freeSlots applies the notices): past months and
    // those beyond the notice read no sessions.
    const from = new Date(Math.max(month.start.getTime(), now.getTime()));
    const to = new Date(Math.min(month.end.getTime(), addTimespan(now, service.maxNotice, tz).getTime() + 1));
    const days: PublicSlots['days'] = [];
    if (from < to) {
      const gap = service.gapMinutes * 60_000;
      const [busy, overrides] = await Promise.all([
        this.d.busy.between(ids.workspaceId, service.therapistId, new Date(from.getTime() - gap), new Date(to.getTime() + gap)),
        bookingRepository(this.d.db).overrides(ids.workspaceId, { kind: 'all' }, todayIn(tz, from), service.therapistId),
      ]);
      const slots = freeSlots({
        schedule: service.schedule,
        timeZone: tz,
        durationMinutes: service.durationMinutes,
        gapMinutes: service.gapMinutes,
        minNotice: service.minNotice,
        maxNotice: service.maxNotice,
        overrides: overrides.map((o) => ({ day: o.day, allDay: o.allDay, from: o.fromTime, to: o.toTime })),
        busy,
        from,
        to,
        now,
      });
      const presented = presentSlots(slots, tz, q.timeZone ?? tz);
      slots.forEach((slot, i) => {
        const last = days[days.length - 1];
        if (last?.day === slot.day) last.slots.push(presented[i]!);
        else days.push({ day: slot.day, slots: [presented[i]!] });
      });
    }
    return { month: q.month, timeZone: tz, durationMinutes: service.durationMinutes, days };
  }
}
