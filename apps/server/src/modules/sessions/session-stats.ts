import type { Db } from '../../platform/db/database';
import { SESSION_CARD_WHERE, sessionStatsQueries, type InstantRange, type SessionCard, type StatsFilter } from './session-stats.queries';
import type { SessionRow } from './sessions.tables';

export type { InstantRange, SessionCard, StatsFilter };

/**
 * The port the statistics read sessions through (issue 28): sums and counts of a range, never a
 * member's scope (the analytics service turned it into `therapistId` before asking).
 */
export class SessionStats {
  constructor(private readonly db: Db) {}

  private get q() {
    return sessionStatsQueries(this.db);
  }

  totals = (f: StatsFilter, r: InstantRange) => this.q.totals(f, r);
  byDayHour = (f: StatsFilter, r: InstantRange, zone: string) => this.q.byDayHour(f, r, zone);
  byTherapist = (f: StatsFilter, r: InstantRange) => this.q.byTherapist(f, r);
  uninvoiced = (f: StatsFilter, r: InstantRange) => this.q.uninvoiced(f, r);
  upcoming = (f: StatsFilter, r: InstantRange) => this.q.upcoming(f, r);
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
