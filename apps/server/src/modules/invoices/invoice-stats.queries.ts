import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { invoices, type InvoiceRow } from './invoices.tables';
import type { InvoiceScope } from './invoices.repository';

/** Whose invoices: the member's scope, and one therapist's only when given. */
export type InvoiceStatsFilter = { workspaceId: string; scope: InvoiceScope; therapistId?: string };
/** Calendar days, both included, for issue dates; instants [from, to) for payments. */
export type InvoiceStatsRange = { fromDay: string; toDay: string; from: Date; to: Date };

const int = (e: SQL) => sql<number>`(${e})::int`;

function scoped(f: InvoiceStatsFilter): SQL {
  const s = f.scope;
  const parts: SQL[] = [];
  if (s.therapist.kind === 'all') parts.push(sql`${invoices.sellerType} = 'therapist'`);
  if (s.therapist.kind === 'own') parts.push(sql`(${invoices.sellerType} = 'therapist' and ${invoices.ownerId} = ${s.therapist.ownerId})`);
  if (s.workspace) parts.push(sql`${invoices.sellerType} = 'workspace'`);
  const visible = parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
  return and(eq(invoices.workspaceId, f.workspaceId), visible, f.therapistId ? eq(invoices.ownerId, f.therapistId) : undefined)!;
}

/**
 * What an invoice adds to revenue: its total; a rectifying one by substitution replaces its original,
 * so it adds the difference. (Named in full: in a select list drizzle writes a column without its table.)
 */
const counted = sql`case when "invoices"."kind" = 'rectifying' and "invoices"."rectification_method" = 'substitution'
  then "invoices"."total" - coalesce((select o.total from ${invoices} o where o.id = "invoices"."rectifies_id"), 0)
  else "invoices"."total" end`;

const issuedIn = (r: InvoiceStatsRange) => sql`${invoices.status} = 'issued' and ${invoices.issueDate} between ${r.fromDay} and ${r.toDay}`;
const paidIn = (r: InvoiceStatsRange) =>
  sql`${invoices.status} = 'issued' and ${invoices.paymentStatus} = 'paid' and ${invoices.paidAt} >= ${r.from} and ${invoices.paidAt} < ${r.to}`;
/** Owed now: an ordinary invoice issued, not paid, that no issued rectifying invoice corrects. */
const owed = sql`${invoices.status} = 'issued' and ${invoices.kind} = 'ordinary' and ${invoices.paymentStatus} = 'pending' and ${invoices.total} > 0
  and not exists (select 1 from ${invoices} r where r.rectifies_id = "invoices"."id" and r.status = 'issued')`;

/** The statistics' reads of invoices (issue 28): sums in the database, over the workspace's invoices. */
export function invoiceStatsQueries(db: DbOrTx) {
  return {
    async totals(f: InvoiceStatsFilter, r: InvoiceStatsRange) {
      const [row] = await db
        .select({
          issuedCents: int(sql`coalesce(sum(${counted}) filter (where ${issuedIn(r)}), 0)`),
          issuedCount: int(sql`count(*) filter (where ${issuedIn(r)})`),
          collectedCents: int(sql`coalesce(sum(${invoices.total}) filter (where ${paidIn(r)}), 0)`),
          collectedCount: int(sql`count(*) filter (where ${paidIn(r)})`),
        })
        .from(invoices)
        .where(and(scoped(f), sql`(${issuedIn(r)} or ${paidIn(r)})`));
      return row!;
    },

    /** What is owed today, by whole days since issue (the buckets are core's). */
    owedByAge(f: InvoiceStatsFilter, today: string) {
      return db
        .select({
          days: int(sql`${today}::date - ${invoices.issueDate}`),
          cents: int(sql`sum(${invoices.total})`),
          count: int(sql`count(*)`),
        })
        .from(invoices)
        .where(and(scoped(f), owed))
        .groupBy(sql`1`);
    },

    issuedByMonth(f: InvoiceStatsFilter, r: InvoiceStatsRange) {
      return db
        .select({ month: sql<string>`to_char(${invoices.issueDate}, 'YYYY-MM')`, cents: int(sql`coalesce(sum(${counted}), 0)`) })
        .from(invoices)
        .where(and(scoped(f), issuedIn(r)))
        .groupBy(sql`1`);
    },

    collectedByMonth(f: InvoiceStatsFilter, r: InvoiceStatsRange, zone: string) {
      return db
        .select({
          month: sql<string>`to_char(timezone(${zone}, ${invoices.paidAt}), 'YYYY-MM')`,
          cents: int(sql`coalesce(sum(${invoices.total}), 0)`),
        })
        .from(invoices)
        .where(and(scoped(f), paidIn(r)))
        .groupBy(sql`1`);
    },

    issuedByDay(f: InvoiceStatsFilter, r: InvoiceStatsRange) {
      return db
        .select({ day: sql<string>`to_char(${invoices.issueDate}, 'YYYY-MM-DD')`, cents: int(sql`coalesce(sum(${counted}), 0)`) })
        .from(invoices)
        .where(and(scoped(f), issuedIn(r)))
        .groupBy(sql`1`);
    },

    collectedByPaymentType(f: InvoiceStatsFilter, r: InvoiceStatsRange) {
      return db
        .select({
          key: sql<string>`coalesce(${invoices.paymentType}, 'other')`,
          cents: int(sql`coalesce(sum(${invoices.total}), 0)`),
          count: int(sql`count(*)`),
        })
        .from(invoices)
        .where(and(scoped(f), paidIn(r)))
        .groupBy(sql`1`);
    },

    byOwner(f: InvoiceStatsFilter, r: InvoiceStatsRange) {
      return db
        .select({
          ownerId: invoices.ownerId,
          issuedCents: int(sql`coalesce(sum(${counted}) filter (where ${issuedIn(r)}), 0)`),
          collectedCents: int(sql`coalesce(sum(${invoices.total}) filter (where ${paidIn(r)}), 0)`),
        })
        .from(invoices)
        .where(and(scoped(f), sql`(${issuedIn(r)} or ${paidIn(r)})`))
        .groupBy(invoices.ownerId);
    },

    /** A card's invoices, oldest first, with the amount each adds to the card. */
    async card(f: InvoiceStatsFilter, r: InvoiceStatsRange, card: InvoiceCard, limit: number, today: string) {
      const where = card === 'issued' ? issuedIn(r) : card === 'collected' ? paidIn(r) : owed;
      const amount = card === 'issued' ? counted : sql`"invoices"."total"`;
      void today;
      const rows = await db
        .select({ row: invoices, cents: int(amount) })
        .from(invoices)
        .where(and(scoped(f), where))
        .orderBy(asc(invoices.issueDate), asc(invoices.sequence), asc(invoices.id))
        .limit(limit);
      const [sum] = await db
        .select({ count: int(sql`count(*)`), cents: int(sql`coalesce(sum(${amount}), 0)`) })
        .from(invoices)
        .where(and(scoped(f), where));
      return { rows: rows as { row: InvoiceRow; cents: number }[], total: sum!.count, cents: sum!.cents };
    },
  };
}
export type InvoiceCard = 'issued' | 'collected' | 'outstanding';
