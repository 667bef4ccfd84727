import { and, asc, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import {
  countedOf,
  issuedOn,
  paidIn as paidBetween,
  scopedTo,
  type InvoiceStatsFilter,
  type InvoiceStatsRange,
} from './invoice-counting.queries';
import { invoiceSumsSql, type InvoiceSumsBy } from './invoice-month-stats.queries';
import { invoices, type InvoiceRow } from './invoices.tables';

export type { InvoiceStatsFilter, InvoiceStatsRange };

const int = (e: SQL) => sql<number>`(${e})::int`;
const scoped = (f: InvoiceStatsFilter) => scopedTo(f, 'invoices');
const counted = countedOf('invoices');
const issuedIn = (r: InvoiceStatsRange) => issuedOn('invoices', r.fromDay, r.toDay);

type Sums = { key: string | null; issued_cents: number; issued_count: number; collected_cents: number; collected_count: number };

/** Owed now: an ordinary invoice issued, not paid, that no issued rectifying invoice corrects. */
const owed = sql`${invoices.status} = 'issued' and ${invoices.kind} = 'ordinary' and ${invoices.paymentStatus} = 'pending' and ${invoices.total} > 0
  and not exists (select 1 from ${invoices} r where r.rectifies_id = "invoices"."id" and r.status = 'issued')`;

/** The statistics' reads of invoices (issue 28): sums in the database, over the workspace's invoices. */
export function invoiceStatsQueries(db: DbOrTx) {
  const sums = async (f: InvoiceStatsFilter, r: InvoiceStatsRange, by: InvoiceSumsBy) =>
    ((await db.execute(invoiceSumsSql(f, r, by))) as unknown as { rows: Sums[] }).rows;
  return {
    /** Issued and collected in the period (whole months through the summary), in total. */
    async totals(f: InvoiceStatsFilter, r: InvoiceStatsRange) {
      const [row] = await sums(f, r, 'none');
      return {
        issuedCents: row?.issued_cents ?? 0,
        issuedCount: row?.issued_count ?? 0,
        collectedCents: row?.collected_cents ?? 0,
        collectedCount: row?.collected_count ?? 0,
      };
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

    /** Issued (by issue date) and collected (by the local month paid) per month, 'YYYY-MM'. */
    async byMonth(f: InvoiceStatsFilter, r: InvoiceStatsRange) {
      return (await sums(f, r, 'month')).map((x) => ({ month: x.key!, issuedCents: x.issued_cents, collectedCents: x.collected_cents }));
    },

    issuedByDay(f: InvoiceStatsFilter, r: InvoiceStatsRange) {
      return db
        .select({ day: sql<string>`to_char(${invoices.issueDate}, 'YYYY-MM-DD')`, cents: int(sql`coalesce(sum(${counted}), 0)`) })
        .from(invoices)
        .where(and(scoped(f), issuedIn(r)))
        .groupBy(sql`1`);
    },

    async collectedByPaymentType(f: InvoiceStatsFilter, r: InvoiceStatsRange) {
      return (await sums(f, r, 'paymentType'))
        .filter((x) => x.collected_count > 0)
        .map((x) => ({ key: x.key!, cents: x.collected_cents, count: x.collected_count }));
    },

    async byOwner(f: InvoiceStatsFilter, r: InvoiceStatsRange) {
      return (await sums(f, r, 'owner'))
        .filter((x) => x.issued_count > 0 || x.collected_count > 0)
        .map((x) => ({ ownerId: x.key!, issuedCents: x.issued_cents, collectedCents: x.collected_cents }));
    },

    /** A card's invoices, oldest first, with the amount each adds to the card. */
    async card(f: InvoiceStatsFilter, r: InvoiceStatsRange, card: InvoiceCard, limit: number, today: string) {
      const where = card === 'issued' ? issuedIn(r) : card === 'collected' ? paidBetween('invoices', r.from, r.to) : owed;
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
