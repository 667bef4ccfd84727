import {
  AGEING_BUCKETS,
  ageingBucket,
  monthsOf,
  presetPeriod,
  previousPeriod,
  shiftDay,
  todayIn,
  type BillingStats,
  type BillingTotals,
  type Period,
} from '@divan/core';
import type { Caller } from '../../platform/auth/caller';
import type { StatsScope } from './analytics-scope';
import { spanOf, STATS_ZONE, therapistNames, type AnalyticsDeps } from './analytics-context';
import { sessionFilter } from './sessions-tab';

export async function billingTotals(d: AnalyticsDeps, c: Caller, s: StatsScope, p: Period, therapistId?: string): Promise<BillingTotals> {
  const span = spanOf(p);
  const f = sessionFilter(s);
  const [inv, uninvoiced] = await Promise.all([
    d.invoiceStats.for(c, therapistId).totals(span),
    f ? d.sessionStats.uninvoiced(f, span) : { count: 0, cents: 0 },
  ]);
  return { ...inv, uninvoicedCents: uninvoiced.cents, uninvoicedCount: uninvoiced.count };
}

/** What is owed today, by the days since each invoice was issued. */
export async function outstanding(d: AnalyticsDeps, c: Caller, therapistId: string | undefined, today: string) {
  const rows = await d.invoiceStats.for(c, therapistId).owedByAge(today);
  const ageing = AGEING_BUCKETS.map((bucket) => ({ bucket, cents: 0, count: 0 }));
  for (const r of rows) {
    const b = ageing.find((a) => a.bucket === ageingBucket(shiftDay(today, -r.days), today))!;
    b.cents += r.cents;
    b.count += r.count;
  }
  return { cents: ageing.reduce((n, a) => n + a.cents, 0), count: ageing.reduce((n, a) => n + a.count, 0), ageing };
}

/** Facturación: issued and collected, what is owed and how old, by month, by payment type, per therapist, the month's projection. */
export async function billingTab(d: AnalyticsDeps, c: Caller, s: StatsScope, period: Period, therapistId?: string): Promise<BillingStats> {
  const today = todayIn(STATS_ZONE, d.clock());
  const prev = previousPeriod(period);
  const span = spanOf(period);
  const inv = d.invoiceStats.for(c, therapistId);
  const f = sessionFilter(s);
  const thisMonth = presetPeriod('this_month', today);
  const isThisMonth = period.from === thisMonth.from && period.to === thisMonth.to;
  const [totals, previous, owed, byMonth, byPaymentType, byOwner, bySessions, upcoming] = await Promise.all([
    billingTotals(d, c, s, period, therapistId),
    billingTotals(d, c, s, prev, therapistId),
    outstanding(d, c, therapistId, today),
    inv.byMonth(span),
    inv.collectedByPaymentType(span),
    inv.byOwner(span),
    f ? d.sessionStats.byTherapist(f, span) : [],
    isThisMonth && f
      ? d.sessionStats.upcoming(f, { from: new Date(Math.max(d.clock().getTime(), span.from.getTime())), to: span.to })
      : null,
  ]);
  const months = new Map(monthsOf(period).map((month) => [month, { month, issuedCents: 0, collectedCents: 0 }]));
  for (const r of byMonth) if (months.has(r.month)) Object.assign(months.get(r.month)!, r);
  const ids = [...new Set([...byOwner.map((r) => r.ownerId), ...bySessions.map((r) => r.therapistId)])];
  const name = await therapistNames(d.users, ids);
  const byTherapist = ids
    .map((id) => {
      const i = byOwner.find((r) => r.ownerId === id);
      const sRow = bySessions.find((r) => r.therapistId === id);
      return {
        therapistId: id,
        name: name(id),
        issuedCents: i?.issuedCents ?? 0,
        collectedCents: i?.collectedCents ?? 0,
        completedSessions: sRow?.completed ?? 0,
        feeCents: sRow?.feeCents ?? 0,
        commissionCents: sRow?.commissionCents ?? 0,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'es'));
  return {
    period,
    previousPeriod: prev,
    totals,
    previous,
    outstanding: owed,
    byMonth: [...months.values()],
    byPaymentType: [...byPaymentType].sort((a, b) => b.cents - a.cents || a.key.localeCompare(b.key)),
    byTherapist,
    projection: upcoming ? { collectedCents: totals.collectedCents, upcomingCents: upcoming.cents, upcomingCount: upcoming.count } : null,
  };
}
