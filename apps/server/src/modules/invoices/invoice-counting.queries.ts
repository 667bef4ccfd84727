import { sql, type SQL } from 'drizzle-orm';
import type { InvoiceScope } from './invoices.repository';

/**
 * What the statistics count of invoices (issue 28), as SQL over a table alias: the rows of `invoices`
 * and the summary's (`invoice_month_stats` names its columns the same) are filtered alike.
 */

/** Whose invoices: the member's scope, and one therapist's only when given. */
export type InvoiceStatsFilter = { workspaceId: string; scope: InvoiceScope; therapistId?: string };
/** Calendar days, both included, for issue dates; instants [from, to) for payments. */
export type InvoiceStatsRange = { fromDay: string; toDay: string; from: Date; to: Date };

export const col = (alias: string, name: string) => sql.raw(`"${alias}"."${name}"`);

/** The invoices (or summary rows) of `alias` the filter reads. */
export function scopedTo(f: InvoiceStatsFilter, alias: string): SQL {
  const s = f.scope;
  const seller = col(alias, 'seller_type');
  const owner = col(alias, 'owner_id');
  const parts: SQL[] = [];
  if (s.therapist.kind === 'all') parts.push(sql`${seller} = 'therapist'`);
  if (s.therapist.kind === 'own') parts.push(sql`(${seller} = 'therapist' and ${owner} = ${s.therapist.ownerId})`);
  if (s.workspace) parts.push(sql`${seller} = 'workspace'`);
  const visible = parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
  return sql`${col(alias, 'workspace_id')} = ${f.workspaceId} and ${visible}${f.therapistId ? sql` and ${owner} = ${f.therapistId}` : sql``}`;
}

/**
 * What an invoice adds to revenue: its total; a rectifying one by substitution replaces its original,
 * so it adds the difference (an issued original's total never changes).
 */
export const countedOf = (a: string) =>
  sql`case when ${col(a, 'kind')} = 'rectifying' and ${col(a, 'rectification_method')} = 'substitution'
  then ${col(a, 'total')} - coalesce((select o.total from invoices o where o.id = ${col(a, 'rectifies_id')}), 0)
  else ${col(a, 'total')} end`;

/** Issued on the days [fromDay, toDay]. */
export const issuedOn = (a: string, fromDay: string, toDay: string) =>
  sql`${col(a, 'status')} = 'issued' and ${col(a, 'issue_date')} between ${fromDay} and ${toDay}`;

/** Paid in the instants [from, to). */
export const paidIn = (a: string, from: Date | SQL, to: Date | SQL) =>
  sql`${col(a, 'status')} = 'issued' and ${col(a, 'payment_status')} = 'paid' and ${col(a, 'paid_at')} >= ${from} and ${col(a, 'paid_at')} < ${to}`;

/** How the tab groups payment types: an invoice without one counts as `other`. */
export const paymentKeyOf = (a: string) => sql`coalesce(${col(a, 'payment_type')}, 'other')`;
