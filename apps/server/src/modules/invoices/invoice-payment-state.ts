import type { DbOrTx } from '../../platform/db/database';
import { invoicesRepository } from './invoices.repository';
import type { InvoiceLineRow, InvoiceRow } from './invoices.tables';

/**
 * What the payments module may read and change of an invoice without a member's caller (webhooks,
 * jobs): the invoice, its lines, and its payment fields, which are the only ones an issued invoice
 * lets change (the migration's trigger refuses the rest).
 */
export const invoicePaymentState = {
  find(db: DbOrTx, id: string, lock = false): Promise<InvoiceRow | undefined> {
    return invoicesRepository(db).byId(id, lock);
  },
  lines(db: DbOrTx, id: string): Promise<InvoiceLineRow[]> {
    return invoicesRepository(db).lines(id);
  },
  set(
    db: DbOrTx,
    id: string,
    values: { paymentStatus: InvoiceRow['paymentStatus']; paymentType?: InvoiceRow['paymentType']; paidAt?: Date | null },
  ): Promise<InvoiceRow | undefined> {
    return invoicesRepository(db).setPayment(id, values);
  },
};
export type { InvoiceRow, InvoiceLineRow };
