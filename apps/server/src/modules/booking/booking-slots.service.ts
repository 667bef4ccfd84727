import { freeSlots, todayIn, type Slot } from '@divan/core';
import type { Db, DbOrTx } from '../../platform/db/database';
import type { ReadRouting } from '../../platform/db/read-routing';
import type { ExternalBusy } from '../google-calendar/google-calendar.module';
import type { BookedSessions } from '../sessions/booked-sessions';
import { bookingRepository } from './booking.repository';
import type { BookingServiceRow } from './booking.tables';
import { publicBookingRepository } from './public-booking.repository';

export type SlotsOptions = {
  /** Read inside this transaction (the booking's, under the therapist's lock). */
  tx?: DbOrTx;
  /** A hold being confirmed does not take its own time. */
  exceptHoldId?: string;
  /** A session being moved does not take its own time. */
  exceptSessionId?: string;
};

/**
 * A service's free slots in [from, to), one computation for the public month and for every booking
 * write: core's `freeSlots` over the therapist's sessions not canceled, the holds active now (a visitor
 * proving their email keeps the time for a few minutes), the busy times of the therapist's own calendars
 * (Google Calendar), the blocked days, the notice and the gap.
 */
export class BookingSlots {
  /** `reads`: outside a booking's transaction (the public month), the read replica once it has caught up (platform/db/read-routing.ts). */
  constructor(
    private readonly d: { db: Db; booked: BookedSessions; external?: Pick<ExternalBusy, 'busyOf'>; reads?: Pick<ReadRouting, 'reader'> },
  ) {}

  async free(service: BookingServiceRow, from: Date, to: Date, now: Date, o: SlotsOptions = {}): Promise<Slot[]> {
    const db = o.tx ?? (this.d.reads ? await this.d.reads.reader() : this.d.db);
    const gap = service.gapMinutes * 60_000;
    const [wideFrom, wideTo] = [new Date(from.getTime() - gap), new Date(to.getTime() + service.durationMinutes * 60_000 + gap)];
    // One after the other: a transaction (PGlite's, pg's) runs one statement at a time anyway.
    const sessions = await this.d.booked.busyOf(db, service.workspaceId, service.therapistId, wideFrom, wideTo, o.exceptSessionId);
    const holds = await publicBookingRepository(db).activeHolds(service.therapistId, wideFrom, wideTo, now, o.exceptHoldId);
    // The therapist's busy times in their own calendars (Google), read in the same transaction.
    const outside = (await this.d.external?.busyOf(db, service.workspaceId, service.therapistId, wideFrom, wideTo)) ?? [];
    const overrides = await bookingRepository(db).overrides(
      service.workspaceId,
      { kind: 'all' },
      todayIn(service.timeZone, from),
      service.therapistId,
    );
    return freeSlots({
      schedule: service.schedule,
      timeZone: service.timeZone,
      durationMinutes: service.durationMinutes,
      gapMinutes: service.gapMinutes,
      minNotice: service.minNotice,
      maxNotice: service.maxNotice,
      overrides: overrides.map((v) => ({ day: v.day, allDay: v.allDay, from: v.fromTime, to: v.toTime })),
      busy: [...sessions, ...holds, ...outside].sort((a, b) => a.start.getTime() - b.start.getTime()),
      from,
      to,
      now,
    });
  }

  /** The free slot starting exactly at `startsAt`, if there is one now. */
  async slotAt(service: BookingServiceRow, startsAt: Date, now: Date, o: SlotsOptions = {}): Promise<Slot | undefined> {
    const [slot] = await this.free(service, startsAt, new Date(startsAt.getTime() + 1), now, o);
    return slot && slot.start.getTime() === startsAt.getTime() ? slot : undefined;
  }
}
