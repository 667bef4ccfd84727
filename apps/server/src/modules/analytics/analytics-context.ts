import { DEFAULT_TIME_ZONE, shiftDay, startOfLocalDay, type Period } from '@divan/core';
import type { BookingOffer } from '../booking/booking-offer';
import type { InvoiceStats, InvoiceStatsRange } from '../invoices/invoice-stats';
import type { PatientStats } from '../patients/patient-stats';
import type { InstantRange, SessionStats } from '../sessions/session-stats';
import type { UsersService } from '../users/users.service';

/** The other modules' ports the statistics read through (never their tables). */
export type AnalyticsDeps = {
  sessionStats: SessionStats;
  invoiceStats: InvoiceStats;
  patientStats: PatientStats;
  bookingOffer: BookingOffer;
  users: UsersService;
  clock: () => Date;
};

/** The zone days and hours are counted in: the workspace's (Madrid until a workspace can set its own). */
export const STATS_ZONE = DEFAULT_TIME_ZONE;

/** A period of days as what each table is read by: instants [from, to) and the days themselves. */
export type Span = InstantRange & InvoiceStatsRange;

export function spanOf(p: Period, zone = STATS_ZONE): Span {
  return { from: startOfLocalDay(p.from, zone), to: startOfLocalDay(shiftDay(p.to, 1), zone), fromDay: p.from, toDay: p.to };
}

/** Therapists' names by id («Usuario eliminado» for one gone). */
export async function therapistNames(users: UsersService, ids: string[]): Promise<(id: string) => string> {
  const list = await users.namesByIds(ids);
  const names = new Map(list.map((u) => [u.id, [u.firstName, u.lastName].filter(Boolean).join(' ') || 'Sin nombre']));
  return (id) => names.get(id) ?? 'Usuario eliminado';
}
