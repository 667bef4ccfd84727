import { offeredMinutes } from '@divan/core';
import type { Db } from '../../platform/db/database';
import { bookingRepository } from './booking.repository';

/**
 * The port the statistics read the booking schedules through (issue 28, utilisation): the minutes each
 * therapist's active services offer over a period of days, blocked dates out (core's `offeredMinutes`:
 * the union of their services' ranges, wall-clock minutes, today's schedules for the whole period).
 */
export class BookingOffer {
  private readonly listeners: ((workspaceId: string) => void)[] = [];
  constructor(private readonly db: Db) {}

  /** Told after a committed change of a workspace's services or blocked days (the statistics' cached answers). */
  onChange(fn: (workspaceId: string) => void) {
    this.listeners.push(fn);
  }
  changed(workspaceId: string) {
    for (const fn of this.listeners) fn(workspaceId);
  }

  /** By therapist, those with an active service only (one therapist's, when given). */
  async offeredMinutes(workspaceId: string, days: { fromDay: string; toDay: string }, therapistId?: string): Promise<Map<string, number>> {
    const repo = bookingRepository(this.db);
    const [services, blocked] = await Promise.all([
      repo.activeServices(workspaceId, therapistId),
      repo.blockedBetween(workspaceId, days.fromDay, days.toDay, therapistId),
    ]);
    const byTherapist = new Map<string, { schedules: (typeof services)[number]['schedule'][]; blocked: typeof blocked }>();
    for (const s of services) {
      const t = byTherapist.get(s.therapistId) ?? { schedules: [], blocked: [] };
      t.schedules.push(s.schedule);
      byTherapist.set(s.therapistId, t);
    }
    for (const b of blocked) byTherapist.get(b.therapistId)?.blocked.push(b);
    const out = new Map<string, number>();
    for (const [id, t] of byTherapist) out.set(id, offeredMinutes({ ...t, from: days.fromDay, to: days.toDay }));
    return out;
  }
}
