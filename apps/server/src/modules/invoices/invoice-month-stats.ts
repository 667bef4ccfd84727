import type { Db } from '../../platform/db/database';
import type { Jobs } from '../../platform/jobs/jobs';
import { MonthSummary } from '../../platform/db/month-summary';
import { INVOICE_STATS_DIRTY, refreshSome } from './invoice-month-stats.queries';

/**
 * The per-month summary of invoices (issue 28, docs/decisions/0027-statistics-summary.md): refreshed by a
 * debounced job after an invoice is issued or paid, and by a cron every ten minutes for what tells no
 * event (voiding, a refund). Exactness does not depend on it: a stale month is read from the rows.
 */
export class InvoiceMonthStats extends MonthSummary {
  constructor(db: Db, jobs: Jobs, clock?: () => Date) {
    super(db, jobs, { queue: 'invoices.month-stats', dirtyTable: INVOICE_STATS_DIRTY, refreshSome }, clock);
  }
}
