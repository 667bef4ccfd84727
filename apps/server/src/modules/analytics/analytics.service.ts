import {
  analyticsResponse,
  daysOf,
  presetPeriod,
  scopeFor,
  shiftDay,
  todayIn,
  type AnalyticsQuery,
  type AnalyticsResponse,
  type AnalyticsRowsResponse,
  type AnalyticsTab,
  type DashboardStats,
  type Features,
  type Period,
} from '@divan/core';
import type { Caller } from '../../platform/auth/caller';
import { inTurns } from '../../platform/db/statement-turns';
import { AppError } from '../../platform/errors';
import { spanOf, STATS_ZONE, therapistNames, type AnalyticsDeps } from './analytics-context';
import type { AnalyticsCache } from './analytics-cache';
import { cardRows } from './analytics-rows';
import { statsScope, type StatsScope } from './analytics-scope';
import { billingTab, outstanding } from './billing-tab';
import { patientsTab, treatmentsTab } from './patients-tab';
import type { StatsFilter } from '../sessions/session-stats';
import { sessionsTab } from './sessions-tab';

export type AnalyticsServiceDeps = AnalyticsDeps & {
  /** The plan's features of a workspace (whether the four tabs are included). */
  featuresOf: (workspaceId: string) => Promise<Features>;
  /** The workspace's members' user ids (whose figures a workspace-wide member may pick). */
  memberUserIds: (workspaceId: string) => Promise<string[]>;
  /** The tabs' answers until the workspace's data changes (off with 0 entries). */
  cache: AnalyticsCache;
  /** Runs a computation's reads on the read replica when it has caught up (platform/db/read-routing.ts); default: where they are. */
  onReplica?: <T>(fn: () => Promise<T>) => Promise<T>;
};

/** The same days of the month before (1–15 March against 1–15 February; 31 March against 28/29 February). */
function sameDaysOfLastMonth(monthToDate: Period): Period {
  const lastMonth = presetPeriod('last_month', monthToDate.from);
  const day = Number(monthToDate.to.slice(8, 10));
  const lastDay = Number(lastMonth.to.slice(8, 10));
  return { from: lastMonth.from, to: shiftDay(lastMonth.from, Math.min(day, lastDay) - 1) };
}

/**
 * The statistics (issue 28): the dashboard's figures for every plan, the four tabs of /analytics with the
 * plan's advanced statistics, the rows behind each card. Everything counted is what the caller may read.
 */
export class AnalyticsService {
  constructor(private readonly d: AnalyticsServiceDeps) {}

  private async requireAdvanced(c: Caller) {
    if (!(await this.d.featuresOf(c.member.workspaceId)).advancedStatistics) throw new AppError('analytics_not_in_plan');
  }

  /**
   * A value of the workspace's data, from the cache until that data changes (`key` names everything
   * else the value depends on: the caller's scope, the period, today); one read per key at a time.
   */
  /** `read` computed once per question (CachedReads), its statements in turns (PGlite: others pass between). */
  private remember<T>(wid: string, key: (string | undefined)[], read: () => Promise<T>): Promise<T> {
    return this.d.cache.read(wid, key.map((x) => x ?? '').join('|'), () => this.onReplica(() => inTurns(read))) as Promise<T>;
  }

  private onReplica<T>(fn: () => Promise<T>): Promise<T> {
    return this.d.onReplica ? this.d.onReplica(fn) : fn();
  }

  /** Each kept answer's JSON, written once by its contract (a hit then costs no validation or stringifying). */
  private readonly sent = new WeakMap<AnalyticsResponse, Buffer>();

  /** `tab` as the bytes the route sends: a kept answer is the same object, so its JSON is written once. */
  async tabJson(c: Caller, tab: AnalyticsTab, q: AnalyticsQuery): Promise<Buffer> {
    const answer = await this.tab(c, tab, q);
    let json = this.sent.get(answer);
    if (!json) {
      json = Buffer.from(JSON.stringify(analyticsResponse.parse(answer)));
      this.sent.set(answer, json);
    }
    return json;
  }

  async tab(c: Caller, tab: AnalyticsTab, q: AnalyticsQuery): Promise<AnalyticsResponse> {
    await this.requireAdvanced(c);
    const s = statsScope(c, tab, q.therapistId);
    const today = todayIn(STATS_ZONE, this.d.clock());
    const key = [tab, JSON.stringify(s), this.d.invoiceStats.scopeKey(c), q.therapistId, q.from, q.to, today];
    return this.remember(c.member.workspaceId, key, () => this.answer(c, tab, s, q));
  }

  private async answer(c: Caller, tab: AnalyticsTab, s: StatsScope, q: AnalyticsQuery): Promise<AnalyticsResponse> {
    const period = { from: q.from, to: q.to };
    switch (tab) {
      case 'sessions':
        return { tab, stats: await sessionsTab(this.d, s, period) };
      case 'billing':
        return { tab, stats: await billingTab(this.d, c, s, period, q.therapistId) };
      case 'patients':
        return { tab, stats: await patientsTab(this.d, s, period) };
      case 'treatments':
        return { tab, stats: await treatmentsTab(this.d, s, period) };
    }
  }

  async rows(c: Caller, tab: AnalyticsTab, q: AnalyticsQuery & { card: string }): Promise<AnalyticsRowsResponse> {
    await this.requireAdvanced(c);
    const s = statsScope(c, tab, q.therapistId);
    return this.onReplica(() => inTurns(() => cardRows(this.d, c, s, tab, q.card, { from: q.from, to: q.to }, q.therapistId)));
  }

  /** The dashboard's figures: this month against the same days of the last, the 30 days' chart, what is owed. */
  async dashboard(c: Caller): Promise<DashboardStats> {
    const wid = c.member.workspaceId;
    const today = todayIn(STATS_ZONE, this.d.clock());
    const month = presetPeriod('this_month', today);
    const monthToDate = { from: month.from, to: today };
    const last30 = presetPeriod('last_30_days', today);
    const a = c.member.ability;
    const sessionsScope = scopeFor(a, 'read', 'sessions', c.userId);
    const readsInvoices = this.d.invoiceStats.readsAny(c);
    const inv = this.d.invoiceStats.for(c);
    const f: StatsFilter | null =
      sessionsScope.kind === 'none' ? null : { workspaceId: wid, ...(sessionsScope.kind === 'own' ? { therapistId: c.userId } : {}) };
    // The figures are remembered until the workspace's data changes; the plan is read each time.
    const figures = () =>
      Promise.all([
        readsInvoices ? inv.totals(spanOf(monthToDate)) : null,
        readsInvoices ? inv.totals(spanOf(sameDaysOfLastMonth(monthToDate))) : null,
        readsInvoices ? inv.issuedByDay(spanOf(last30)) : [],
        readsInvoices ? outstanding(this.d, c, undefined, today) : null,
        f ? this.d.sessionStats.totals(f, spanOf(month)) : null,
      ]);
    // The members a workspace-wide reader may pick and their names: dropped with the rest when the
    // workspace's access changes (a member added, removed or given another role) or a name does.
    const therapists = async () => {
      const ids = sessionsScope.kind === 'all' ? await this.d.memberUserIds(wid) : [c.userId];
      const name = await therapistNames(this.d.users, ids);
      return ids.map((id) => ({ therapistId: id, name: name(id) })).sort((x, y) => x.name.localeCompare(y.name, 'es'));
    };
    const [features, [now, before, byDay, due, sessions], scopeTherapists] = await Promise.all([
      this.d.featuresOf(wid),
      this.remember(wid, ['dashboard', JSON.stringify(f), this.d.invoiceStats.scopeKey(c), today], figures),
      this.remember(wid, ['dashboard-therapists', sessionsScope.kind === 'all' ? '' : c.userId], therapists),
    ]);
    const perDay = new Map(byDay.map((r) => [r.day, r.cents]));
    return {
      today,
      month,
      revenue:
        now && before && due
          ? {
              monthIssuedCents: now.issuedCents,
              previousMonthIssuedCents: before.issuedCents,
              monthCollectedCents: now.collectedCents,
              last30Days: daysOf(last30).map((day) => ({ day, cents: perDay.get(day) ?? 0 })),
              dueCents: due.cents,
              dueCount: due.count,
            }
          : null,
      sessions: sessions ? { completed: sessions.completed, pending: sessions.pending, canceled: sessions.canceled } : null,
      advanced: features.advancedStatistics,
      scope: {
        workspace: sessionsScope.kind === 'all',
        therapists: scopeTherapists,
      },
    };
  }
}
