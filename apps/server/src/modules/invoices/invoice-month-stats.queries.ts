import { param, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { dayEdges, monthEnd, monthPlan, monthStart, staleMarks, staleMonths, SUMMARY_ZONE } from '../../platform/db/month-summary';
import {
  countedOf,
  issuedOn,
  paidIn,
  paymentKeyOf,
  scopedTo,
  type InvoiceStatsFilter,
  type InvoiceStatsRange,
} from './invoice-counting.queries';

/** The table of the invoices' stale months (migration 0052's triggers append to it). */
export const INVOICE_STATS_DIRTY = 'invoice_stats_dirty';

/** What a summary row or a branch of rows holds, in this order. */
const SUMS = ['issued_cents', 'issued_count', 'collected_cents', 'collected_count'] as const;

/** An invoice as issued in its issue date's month, one row each. */
const asIssued = sql`date_trunc('month', "i"."issue_date")::date as month, "i"."seller_type", "i"."owner_id", ${paymentKeyOf('i')} as payment_type,
  ${countedOf('i')} as issued_cents, 1 as issued_count, 0 as collected_cents, 0 as collected_count`;
/** An invoice as collected in the local month of the instant it was paid. */
const asCollected = sql`date_trunc('month', timezone(${SUMMARY_ZONE}, "i"."paid_at"))::date as month, "i"."seller_type", "i"."owner_id",
  ${paymentKeyOf('i')} as payment_type, 0 as issued_cents, 0 as issued_count, "i"."total" as collected_cents, 1 as collected_count`;

/** Issued (by date) and collected (by instant) in the months of `months` (a relation with a `month` column). */
function rowsOfMonths(months: SQL, where: SQL): SQL {
  return sql`select ${asIssued} from ${months} join invoices "i" on ${where} and "i"."status" = 'issued'
      and "i"."issue_date" >= mm.month and "i"."issue_date" < (mm.month + interval '1 month')
    union all
    select ${asCollected} from ${months} join invoices "i" on ${where}
      and ${paidIn('i', monthStart(sql`mm.month`), monthEnd(sql`mm.month`))}`;
}

export type InvoiceSumsBy = 'none' | 'month' | 'paymentType' | 'owner';
const KEY: Record<InvoiceSumsBy, SQL> = {
  none: sql`null`,
  month: sql`to_char(month, 'YYYY-MM')`,
  paymentType: sql`payment_type`,
  owner: sql`owner_id::text`,
};

/**
 * Issued and collected in a period, added up by `by`, in one statement (one snapshot): its whole months
 * from the summary unless a write left them stale, the rest — the days around them, the stale months —
 * from the rows, each over the (workspace, date) and (workspace, paid) indexes. Equal to the rows, always.
 */
export function invoiceSumsSql(f: InvoiceStatsFilter, r: InvoiceStatsRange, by: InvoiceSumsBy): SQL {
  const plan = monthPlan(r, SUMMARY_ZONE);
  const scope = scopedTo(f, 'i');
  const branches: SQL[] = [
    ...dayEdges(r.fromDay, r.toDay, plan.months).map(
      (d) => sql`select ${asIssued} from invoices "i" where ${scope} and ${issuedOn('i', d.fromDay, d.toDay)}`,
    ),
    ...plan.edges.map((e) => sql`select ${asCollected} from invoices "i" where ${scope} and ${paidIn('i', e.from, e.to)}`),
  ];
  if (plan.months.length) {
    branches.push(rowsOfMonths(sql`stale mm`, scope));
    branches.push(
      sql`select month, seller_type, owner_id, payment_type, ${sql.raw(SUMS.join(', '))} from invoice_month_stats "s"
          where ${scopedTo(f, 's')} and month = any(${param(plan.months)}::date[]) and month not in (select month from stale)`,
    );
  }
  const stale = plan.months.length ? sql`with stale as (${staleMonths(INVOICE_STATS_DIRTY, f.workspaceId, plan.months)}) ` : sql``;
  const sums = sql.raw(SUMS.map((n) => `coalesce(sum(${n}), 0)::int as ${n}`).join(', '));
  return sql`${stale}select ${KEY[by]} as key, ${sums} from (${sql.join(branches, sql` union all `)}) x${by === 'none' ? sql`` : sql` group by 1`}`;
}

/**
 * One transaction: the stale marks seen, those months' summary rows replaced by one statement over
 * their invoices, the marks seen deleted (session-month-stats.queries.ts does the same for sessions).
 */
export async function refreshSome(tx: DbOrTx, workspaceId: string): Promise<number> {
  const { months, done } = await staleMarks(tx, INVOICE_STATS_DIRTY, workspaceId);
  if (!months.length) return 0;
  await tx.execute(sql`delete from invoice_month_stats where workspace_id = ${workspaceId} and month = any(${param(months)}::date[])`);
  const names = sql.raw(SUMS.join(', '));
  const summed = sql.raw(SUMS.map((n) => `sum(${n})::int`).join(', '));
  await tx.execute(sql`
    insert into invoice_month_stats (workspace_id, month, seller_type, owner_id, payment_type, ${names})
    select ${workspaceId}, month, seller_type, owner_id, payment_type, ${summed}
    from (${rowsOfMonths(sql`unnest(${param(months)}::date[]) as mm(month)`, sql`"i"."workspace_id" = ${workspaceId}`)}) x
    group by month, seller_type, owner_id, payment_type`);
  await done();
  return months.length;
}
