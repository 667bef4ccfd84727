import {
  AGE_BANDS,
  ageBand,
  EARLY_DROPOUT_MAX_SESSIONS,
  daysBetween,
  median,
  previousPeriod,
  shiftDay,
  startOfLocalDay,
  type Period,
  type PatientTotals,
  type PatientsStats,
  type TreatmentTotals,
  type TreatmentsStats,
} from '@divan/core';
import { AppError } from '../../platform/errors';
import type { PatientStatsFilter } from '../patients/patient-stats';
import type { StatsScope } from './analytics-scope';
import { spanOf, STATS_ZONE, type AnalyticsDeps } from './analytics-context';
import { sessionFilter } from './sessions-tab';

const patientFilter = (s: StatsScope): PatientStatsFilter | null => (s.patients ? { workspaceId: s.workspaceId, ...s.patients } : null);
const byCount = (a: { key: string; count: number }, b: { key: string; count: number }) => b.count - a.count || a.key.localeCompare(b.key);

/** The patients the period's sessions saw, that the member reads the files of. */
export async function seenPatients(d: AnalyticsDeps, s: StatsScope, p: Period): Promise<string[]> {
  const f = sessionFilter(s);
  return f ? d.sessionStats.seenPatientIds(f, spanOf(p)) : [];
}

async function patientTotals(d: AnalyticsDeps, s: StatsScope, p: Period): Promise<PatientTotals & { seenIds: string[] }> {
  const f = patientFilter(s)!;
  const span = spanOf(p);
  const [added, discharged, seenIds] = await Promise.all([
    d.patientStats.added(f, span.from, span.to),
    s.treatment ? d.patientStats.dischargedByReason(f, p.from, p.to) : null,
    seenPatients(d, s, p),
  ]);
  return { added, discharged: discharged ? discharged.reduce((n, r) => n + r.count, 0) : null, seen: seenIds.length, seenIds };
}

/** Pacientes: status now, new and discharged, and who the period's caseload is (by motive, referral, type, age, gender). */
export async function patientsTab(d: AnalyticsDeps, s: StatsScope, period: Period): Promise<PatientsStats> {
  const f = patientFilter(s);
  if (!f) throw new AppError('access_denied');
  const prev = previousPeriod(period);
  const [{ seenIds, ...totals }, { seenIds: _prevIds, ...previous }, status, discharged] = await Promise.all([
    patientTotals(d, s, period),
    patientTotals(d, s, prev),
    s.treatment ? d.patientStats.statusNow(f) : null,
    s.treatment ? d.patientStats.dischargedByReason(f, period.from, period.to) : null,
  ]);
  void _prevIds;
  const readable = { workspaceId: s.workspaceId, ...(s.patientsReadable ?? {}) };
  const breakdown = (column: 'motive' | 'referralSource' | 'sessionType' | 'gender' | 'birthdate') =>
    d.patientStats.breakdown(readable, seenIds, column);
  const [motive, referral, sessionType, gender, birthdates] = await Promise.all([
    s.treatment ? breakdown('motive') : null,
    s.treatment ? breakdown('referralSource') : null,
    s.treatment ? breakdown('sessionType') : null,
    breakdown('gender'),
    breakdown('birthdate'),
  ]);
  const bands = new Map(AGE_BANDS.map((key) => [key, 0]));
  for (const r of birthdates) {
    const band = ageBand(r.key === 'none' ? null : r.key, period.to);
    bands.set(band, bands.get(band)! + r.count);
  }
  const statusNow = status ? { active: 0, paused: 0, inactive: 0 } : null;
  for (const r of status ?? []) statusNow![r.status] = r.count;
  return {
    period,
    previousPeriod: prev,
    totals,
    previous,
    statusNow,
    dischargedByReason: discharged ? [...discharged].sort(byCount) : null,
    byMotive: motive ? [...motive].sort(byCount) : null,
    byReferralSource: referral ? [...referral].sort(byCount) : null,
    bySessionType: sessionType ? [...sessionType].sort(byCount) : null,
    byAgeBand: AGE_BANDS.map((key) => ({ key, count: bands.get(key)! })),
    byGender: [...gender].sort(byCount),
  };
}

/** Ended treatments of a period with their length in days and in completed sessions. */
export async function endedTreatments(d: AnalyticsDeps, s: StatsScope, p: Period) {
  const f = patientFilter(s);
  if (!f || !s.treatment) throw new AppError('access_denied');
  const ended = await d.patientStats.ended(f, p.from, p.to);
  const sessions = await d.sessionStats.completedPerPatient(
    s.workspaceId,
    ended.map((t) => ({
      patientId: t.id,
      from: t.startDay ? startOfLocalDay(t.startDay, STATS_ZONE) : null,
      to: startOfLocalDay(shiftDay(t.endDay!, 1), STATS_ZONE),
    })),
  );
  return ended.map((t) => {
    const completed = sessions.get(t.id) ?? 0;
    const abandoned = t.reason === 'abandoned';
    return {
      ...t,
      days: t.startDay ? daysBetween(t.startDay, t.endDay!) : null,
      sessions: completed,
      abandoned,
      early: abandoned && completed <= EARLY_DROPOUT_MAX_SESSIONS,
    };
  });
}

async function treatmentTotals(
  d: AnalyticsDeps,
  s: StatsScope,
  p: Period,
): Promise<TreatmentTotals & { ended_: Awaited<ReturnType<typeof endedTreatments>> }> {
  const f = sessionFilter(s);
  const [ended, rebook] = await Promise.all([
    endedTreatments(d, s, p),
    f ? d.sessionStats.rebooked(f, spanOf(p)) : { completed: 0, rebooked: 0 },
  ]);
  return {
    ended: ended.length,
    abandoned: ended.filter((t) => t.abandoned).length,
    earlyDropouts: ended.filter((t) => t.early).length,
    medianDays: median(ended.flatMap((t) => (t.days === null ? [] : [t.days]))),
    medianSessions: median(ended.map((t) => t.sessions)),
    completedSessions: rebook.completed,
    rebooked: rebook.rebooked,
    ended_: ended,
  };
}

/** Tratamientos: length of ended treatments, drop-out (overall, early, by motive), rebook rate. */
export async function treatmentsTab(d: AnalyticsDeps, s: StatsScope, period: Period): Promise<TreatmentsStats> {
  const prev = previousPeriod(period);
  const [{ ended_, ...totals }, { ended_: _prev, ...previous }] = await Promise.all([
    treatmentTotals(d, s, period),
    treatmentTotals(d, s, prev),
  ]);
  void _prev;
  const motives = new Map<string, { key: string; ended: number; abandoned: number }>();
  for (const t of ended_) {
    const key = t.motive ?? 'none';
    const m = motives.get(key) ?? motives.set(key, { key, ended: 0, abandoned: 0 }).get(key)!;
    m.ended += 1;
    if (t.abandoned) m.abandoned += 1;
  }
  return {
    period,
    previousPeriod: prev,
    totals,
    previous,
    byMotive: [...motives.values()].sort((a, b) => b.ended - a.ended || a.key.localeCompare(b.key)),
  };
}
