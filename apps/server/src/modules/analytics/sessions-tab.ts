import { daysOf, periodDays, previousPeriod, type Period, type SessionTotals, type SessionsStats } from '@divan/core';
import type { StatsFilter } from '../sessions/session-stats';
import type { StatsScope } from './analytics-scope';
import { spanOf, STATS_ZONE, therapistNames, type AnalyticsDeps } from './analytics-context';

const NO_SESSIONS: SessionTotals = {
  scheduled: 0,
  pending: 0,
  completed: 0,
  canceled: 0,
  canceledByReason: { patient: 0, therapist: 0, late: 0, no_show: 0, none: 0 },
  online: 0,
  presential: 0,
  bookedMinutes: 0,
};

/** The longest period whose daily chart lists every day (longer ones list the days that have sessions). */
const DAILY_AXIS_MAX_DAYS = 366;

export const sessionFilter = (s: StatsScope): StatsFilter | null => (s.sessions ? { workspaceId: s.workspaceId, ...s.sessions } : null);

export async function sessionTotals(d: AnalyticsDeps, f: StatsFilter | null, p: Period): Promise<SessionTotals> {
  if (!f) return NO_SESSIONS;
  const t = await d.sessionStats.totals(f, spanOf(p));
  return {
    scheduled: t.scheduled,
    pending: t.pending,
    completed: t.completed,
    canceled: t.canceled,
    canceledByReason: { patient: t.byPatient, therapist: t.byTherapist, late: t.late, no_show: t.noShow, none: t.none },
    online: t.online,
    presential: t.presential,
    bookedMinutes: t.bookedMinutes,
  };
}

/**
 * Sesiones: scheduled, completed, canceled by reason, no-shows, modality, the week's heat map, per
 * therapist, and utilisation: the booked minutes of the therapists whose booking services offer time ÷
 * the minutes those offer in the period (BookingOffer).
 */
export async function sessionsTab(d: AnalyticsDeps, s: StatsScope, period: Period): Promise<SessionsStats> {
  const prev = previousPeriod(period);
  const f = sessionFilter(s);
  const span = spanOf(period);
  const [totals, previous, calendar, sessionRows, offered] = await Promise.all([
    sessionTotals(d, f, period),
    sessionTotals(d, f, prev),
    f ? d.sessionStats.calendar(f, span, STATS_ZONE) : { days: [], cells: [] },
    f ? d.sessionStats.byTherapist(f, span) : [],
    f ? d.bookingOffer.offeredMinutes(s.workspaceId, { fromDay: period.from, toDay: period.to }, f.therapistId) : new Map<string, number>(),
  ]);
  // A therapist whose schedule offers time and who has no session in the period is at 0 %, not left out.
  const byTherapistRows = [...sessionRows];
  for (const [therapistId, minutes] of offered)
    if (minutes > 0 && !sessionRows.some((r) => r.therapistId === therapistId))
      byTherapistRows.push({
        therapistId,
        scheduled: 0,
        completed: 0,
        canceled: 0,
        noShows: 0,
        bookedMinutes: 0,
        feeCents: 0,
        commissionCents: 0,
      });
  const offering = byTherapistRows.filter((r) => (offered.get(r.therapistId) ?? 0) > 0);
  const utilisation: SessionsStats['utilisation'] = offering.length
    ? {
        bookedMinutes: offering.reduce((sum, r) => sum + r.bookedMinutes, 0),
        offeredMinutes: offering.reduce((sum, r) => sum + offered.get(r.therapistId)!, 0),
      }
    : null;
  const days = new Map<string, { day: string; completed: number; pending: number; canceled: number }>();
  if (periodDays(period) <= DAILY_AXIS_MAX_DAYS)
    for (const day of daysOf(period)) days.set(day, { day, completed: 0, pending: 0, canceled: 0 });
  for (const r of calendar.days) days.set(r.day, r);

  const name = await therapistNames(
    d.users,
    byTherapistRows.map((r) => r.therapistId),
  );
  return {
    period,
    previousPeriod: prev,
    totals,
    previous,
    heatmap: calendar.cells,
    byDay: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
    byTherapist: byTherapistRows
      .map((r) => ({
        therapistId: r.therapistId,
        name: name(r.therapistId),
        scheduled: r.scheduled,
        completed: r.completed,
        canceled: r.canceled,
        noShows: r.noShows,
        bookedMinutes: r.bookedMinutes,
        offeredMinutes: offered.get(r.therapistId) ?? null,
      }))
      .sort((a, b) => a.name.localeCompare(b.name, 'es')),
    utilisation,
  };
}
