import { and, eq } from 'drizzle-orm';
import { todayIn, type InvoiceSeriesCounters } from '@divan/core';
import type { Db } from '../../../platform/db/database';
import { invoiceCounters } from '../invoices.tables';

/** A seller's counters of this year (Madrid): the settings say the next number from them, not «…-0001». */
export async function seriesCounters(db: Db, sellerKey: string, now = new Date()): Promise<InvoiceSeriesCounters> {
  const year = Number(todayIn('Europe/Madrid', now).slice(0, 4));
  const rows = await db
    .select({ kind: invoiceCounters.kind, prefix: invoiceCounters.prefix, last: invoiceCounters.last })
    .from(invoiceCounters)
    .where(and(eq(invoiceCounters.sellerKey, sellerKey), eq(invoiceCounters.year, year)));
  return { year, counters: rows };
}
