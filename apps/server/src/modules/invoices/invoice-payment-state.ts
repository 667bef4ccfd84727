import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { invoiceLines, invoices, type InvoiceLineRow, type InvoiceRow } from './invoices.tables';

/**
 * What the payments module may read and change of an invoice without a member's caller (webhooks,
 * jobs): the invoice, its lines, and its payment fields, which are the only ones an issued invoice
 * lets change (the migration's trigger refuses the rest).
 */
export const invoicePaymentState = {
  async find(db: DbOrTx, id: string, lock = false): Promise<InvoiceRow | undefined> {
    const q = db.select().from(invoices).where(eq(invoices.id, id));
    const [row] = lock ? await q.for('update') : await q;
    return row;
  },
  lines(db: DbOrTx, id: string): Promise<InvoiceLineRow[]> {
    return db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, id)).orderBy(invoiceLines.position);
  },
  async set(
    db: DbOrTx,
    id: string,
    values: { paymentStatus: InvoiceRow['paymentStatus']; paymentType?: InvoiceRow['paymentType']; paidAt?: Date | null },
  ): Promise<InvoiceRow | undefined> {
    const [row] = await db
      .update(invoices)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(invoices.id, id)))
      .returning();
    return row;
  },
};
export type { InvoiceRow, InvoiceLineRow };
