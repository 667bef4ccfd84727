import { dbOf, type DbSource } from '../../platform/db/read-routing';
import {
  SESSION_CARD_WHERE,
  sessionStatsQueries,
  type InstantRange,
  type SessionCard,
  type StatsFilter,
  type StatsSpan,
} from './session-stats.queries';
import type { SessionRow } from './sessions.tables';

export type { InstantRange, SessionCard, StatsFilter, StatsSpan };

/**
 * The port the statistics read sessions through (issue 28): sums and counts of a range, never a
 * member's scope (the analytics service turned it into `therapistId` before asking).
 */
export class SessionStats {
  /** `reads`: the statistics' queries go where the enclosing `onReplica` chose (platform/db/read-routing.ts). */
  constructor(private readonly reads: DbSource) {}

  private get q() {
    return sessionStatsQueries(dbOf(this.reads));
  }

  /** The range's sums; given its days too, its whole months come from the summary (session-month-stats.ts). */
  totals = (f: StatsFilter, r: StatsSpan) => this.q.totals(f, r);
  calendar = (f: StatsFilter, r: StatsSpan, zone: string) => this.q.calendar(f, r, zone);
  byTherapist = (f: StatsFilter, r: StatsSpan) => this.q.byTherapist(f, r);
  /** Completed sessions not invoiced yet: money left on the table. */
  uninvoiced = async (f: StatsFilter, r: StatsSpan) => {
    const t = await this.q.totals(f, r);
    return { count: t.uninvoiced, cents: t.uninvoicedCents };
  };
  /** Sessions still to happen (pending) in the range: the month's projection. */
  upcoming = async (f: StatsFilter, r: StatsSpan) => {
    const t = await this.q.totals(f, r);
    return { count: t.pending, cents: t.pendingCents };
  };
  seenPatientIds = (f: StatsFilter, r: InstantRange) => this.q.seenPatientIds(f, r);
  rebooked = (f: StatsFilter, r: InstantRange) => this.q.rebooked(f, r);
  completedPerPatient = (workspaceId: string, spans: { patientId: string; from: Date | null; to: Date }[]) =>
    this.q.completedPerPatient(workspaceId, spans);

  /** A card's rows (at most `limit`, by start) and what it counts: how many, and their prices added up. */
  async card(
    f: StatsFilter,
    r: InstantRange,
    card: SessionCard,
    limit: number,
  ): Promise<{ rows: SessionRow[]; total: number; cents: number }> {
    const where = SESSION_CARD_WHERE[card];
    const [rows, sum] = await Promise.all([this.q.rows(f, r, where, limit), this.q.count(f, r, where)]);
    return { rows, total: sum.count, cents: sum.cents };
  }
}
