import type { Db } from '../../platform/db/database';
import type { Jobs } from '../../platform/jobs/jobs';
import { MonthSummary } from '../../platform/db/month-summary';
import { refreshSome, SESSION_STATS_DIRTY } from './session-month-stats.queries';

/**
 * The per-month summary of sessions (issue 28, docs/decisions/0027-statistics-summary.md): refreshed by a
 * debounced job after writes and by a cron that catches whatever no event announced (a restore, a
 * migration). Exactness does not depend on it: a stale month is read from the rows.
 */
export class SessionMonthStats extends MonthSummary {
  constructor(db: Db, jobs: Jobs, clock?: () => Date) {
    super(db, jobs, { queue: 'sessions.month-stats', dirtyTable: SESSION_STATS_DIRTY, refreshSome }, clock);
  }
}
