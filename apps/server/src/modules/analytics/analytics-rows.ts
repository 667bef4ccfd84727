import {
  ANALYTICS_CARDS,
  ANALYTICS_ROWS_MAX,
  ENDING_REASON,
  todayIn,
  type AnalyticsRow,
  type AnalyticsRowsResponse,
  type AnalyticsTab,
  type EndingReason,
  type Period,
} from '@divan/core';
import type { Caller } from '../../platform/auth/caller';
import { AppError } from '../../platform/errors';
import type { SessionCard } from '../sessions/session-stats';
import type { StatsScope } from './analytics-scope';
import { spanOf, STATS_ZONE, therapistNames, type AnalyticsDeps } from './analytics-context';
import { endedTreatments, seenPatients } from './patients-tab';
import { sessionFilter } from './sessions-tab';

const reasonLabel = (r: string | null) => (r ? (ENDING_REASON.labels[r as EndingReason] ?? r) : null);

/** The rows a card counts (at most ANALYTICS_ROWS_MAX), how many it counts, and the amounts they add up to. */
export async function cardRows(
  d: AnalyticsDeps,
  c: Caller,
  s: StatsScope,
  tab: AnalyticsTab,
  card: string,
  p: Period,
  therapistId?: string,
): Promise<AnalyticsRowsResponse> {
  if (!(ANALYTICS_CARDS[tab] as readonly string[]).includes(card))
    throw new AppError('invalid_argument', [{ path: 'card', message: 'Esa tarjeta no es de esta pestaña' }]);
  const span = spanOf(p);
  if (tab === 'sessions' || card === 'uninvoiced')
    return sessionRows(d, s, card === 'uninvoiced' ? 'uninvoiced' : (card as SessionCard), p);
  if (tab === 'billing') {
    const today = todayIn(STATS_ZONE, d.clock());
    const r = await d.invoiceStats
      .for(c, therapistId)
      .card(span, card as 'issued' | 'collected' | 'outstanding', ANALYTICS_ROWS_MAX, today);
    return {
      total: r.total,
      sumCents: r.cents,
      items: r.rows.map(({ row, cents }) => ({
        kind: 'invoice',
        id: row.id,
        number: row.number,
        issueDate: row.issueDate,
        paidAt: row.paidAt?.toISOString() ?? null,
        buyerName: row.buyer?.fullName ?? '',
        totalCents: cents,
        paymentStatus: row.paymentStatus,
      })),
    };
  }
  const files = s.patients ? { workspaceId: s.workspaceId, ...s.patients } : null;
  if (!files) throw new AppError('access_denied');
  if (tab === 'patients' && card !== 'discharged') {
    const which = card === 'added' ? { added: { from: span.from, to: span.to } } : { ids: await seenPatients(d, s, p) };
    const filter = card === 'added' ? files : { workspaceId: s.workspaceId, ...(s.patientsReadable ?? {}) };
    const r = await d.patientStats.card(filter, which, ANALYTICS_ROWS_MAX);
    return {
      total: r.total,
      sumCents: null,
      items: r.rows.map((x) => ({
        kind: 'patient',
        id: x.id,
        name: x.name,
        day: card === 'added' ? todayIn(STATS_ZONE, x.createdAt) : null,
        detail: null,
      })),
    };
  }
  // Discharged, ended, abandoned, early drop-outs: treatments ended in the period.
  const ended = (await endedTreatments(d, s, p)).filter((t) =>
    card === 'abandoned' ? t.abandoned : card === 'early_dropouts' ? t.early : true,
  );
  const names = ended.length ? (await d.patientStats.card(files, { ids: ended.map((t) => t.id) }, ANALYTICS_ROWS_MAX)).rows : [];
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  const items: AnalyticsRow[] = ended
    .map((t) => ({
      kind: 'patient' as const,
      id: t.id,
      name: nameOf.get(t.id) ?? '',
      day: t.endDay,
      detail: [reasonLabel(t.reason), `${t.sessions} ${t.sessions === 1 ? 'sesión' : 'sesiones'}`].filter(Boolean).join(' · '),
    }))
    .sort((a, b) => (a.day ?? '').localeCompare(b.day ?? '') || a.name.localeCompare(b.name, 'es'));
  return { total: items.length, sumCents: null, items: items.slice(0, ANALYTICS_ROWS_MAX) };
}

async function sessionRows(d: AnalyticsDeps, s: StatsScope, card: SessionCard, p: Period): Promise<AnalyticsRowsResponse> {
  const f = sessionFilter(s);
  if (!f) throw new AppError('access_denied');
  const r = await d.sessionStats.card(f, spanOf(p), card, ANALYTICS_ROWS_MAX);
  const [patients, therapist] = await Promise.all([
    d.patientStats.names(
      s.workspaceId,
      r.rows.map((x) => x.patientId),
    ),
    therapistNames(
      d.users,
      r.rows.map((x) => x.therapistId),
    ),
  ]);
  return {
    total: r.total,
    sumCents: card === 'uninvoiced' ? r.cents : null,
    items: r.rows.map((x) => ({
      kind: 'session',
      id: x.id,
      startsAt: x.startsAt.toISOString(),
      patient: { id: x.patientId, name: patients.get(x.patientId) ?? '' },
      therapistName: therapist(x.therapistId),
      status: x.status,
      cancellationReason: x.cancellationReason,
      modality: x.modality,
      minutes: Math.round((x.endsAt.getTime() - x.startsAt.getTime()) / 60_000),
      priceCents: x.price,
    })),
  };
}
