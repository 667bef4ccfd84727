import type { Caller } from '../../platform/auth/caller';
import { dbOf, type DbSource } from '../../platform/db/read-routing';
import { invoiceScope } from './invoice-access';
import { invoiceStatsQueries, type InvoiceCard, type InvoiceStatsRange } from './invoice-stats.queries';

export type { InvoiceCard, InvoiceStatsRange };

/**
 * The port the statistics read invoices through (issue 28): what the caller reads of them (their
 * `invoices` scope and `workspace_invoices`), one therapist's when given, summed in the database —
 * whole months through the summary of months (invoice-month-stats.ts).
 */
export class InvoiceStats {
  /** `reads`: the statistics' queries go where the enclosing `onReplica` chose (platform/db/read-routing.ts). */
  constructor(private readonly reads: DbSource) {}

  private get db() {
    return dbOf(this.reads);
  }

  /** Whether the caller reads any invoice at all (else billing's cards are null). */
  readsAny(c: Caller): boolean {
    const s = invoiceScope(c);
    return s.workspace || s.therapist.kind !== 'none';
  }

  /** What of the invoices the caller reads, as a key (a cached answer is the same for the same key). */
  scopeKey(c: Caller): string {
    return JSON.stringify(invoiceScope(c));
  }

  /** Bound to the caller's scope and an optional therapist. */
  for(c: Caller, therapistId?: string) {
    const f = { workspaceId: c.member.workspaceId, scope: invoiceScope(c), therapistId };
    // Read at each query, not here: the database is the one of the `onReplica` the query runs in.
    const q = () => invoiceStatsQueries(this.db);
    return {
      totals: (r: InvoiceStatsRange) => q().totals(f, r),
      owedByAge: (today: string) => q().owedByAge(f, today),
      byMonth: (r: InvoiceStatsRange) => q().byMonth(f, r),
      issuedByDay: (r: InvoiceStatsRange) => q().issuedByDay(f, r),
      collectedByPaymentType: (r: InvoiceStatsRange) => q().collectedByPaymentType(f, r),
      byOwner: (r: InvoiceStatsRange) => q().byOwner(f, r),
      card: (r: InvoiceStatsRange, card: InvoiceCard, limit: number, today: string) => q().card(f, r, card, limit, today),
    };
  }
}
