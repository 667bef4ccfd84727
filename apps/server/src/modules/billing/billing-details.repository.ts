import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import {
  billingDetails,
  billingInvoices,
  billingVatChecks,
  type BillingDetailsRow,
  type BillingInvoiceRow,
  type BillingVatCheckRow,
} from './billing.tables';

/** The billing data with the provider's VIES check of their VAT id (null: none yet, or of another value). */
export type BillingDetailsChecked = BillingDetailsRow & { vatCheck: BillingVatCheckRow | null };

/** Ajustes › Pagos' rows: the billing data of a workspace, and Diván's invoices to it. */
export const billingDetailsRepository = (db: DbOrTx) => ({
  async detailsOf(workspaceId: string): Promise<BillingDetailsChecked | null> {
    const [row] = await db
      .select({ details: billingDetails, check: billingVatChecks })
      .from(billingDetails)
      .leftJoin(billingVatChecks, eq(billingVatChecks.workspaceId, billingDetails.workspaceId))
      .where(eq(billingDetails.workspaceId, workspaceId));
    if (!row) return null;
    const check = row.check && row.check.value === row.details.vatId ? row.check : null;
    return { ...row.details, vatCheck: check };
  },
  /** Keeps the provider's latest verdict on a VAT id (the one it gave last replaces the one before). */
  async saveVatCheck(check: BillingVatCheckRow): Promise<void> {
    const { workspaceId: _key, ...rest } = check;
    await db.insert(billingVatChecks).values(check).onConflictDoUpdate({ target: billingVatChecks.workspaceId, set: rest });
  },
  async saveDetails(row: Omit<BillingDetailsRow, 'updatedAt'>): Promise<BillingDetailsRow> {
    const values = { ...row, updatedAt: new Date() };
    const [saved] = await db
      .insert(billingDetails)
      .values(values)
      .onConflictDoUpdate({ target: billingDetails.workspaceId, set: values })
      .returning();
    return saved!;
  },
  /**
   * Takes a provider invoice for this transaction (an advisory lock on its id) and says whether Diván's
   * invoice for it exists: a replayed or concurrent `invoice.paid` waits here, then finds it and stops.
   */
  async takeInvoice(providerInvoiceId: string): Promise<boolean> {
    await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`divan:billing_invoice:${providerInvoiceId}`}))`);
    return !(await this.hasInvoice(providerInvoiceId));
  },
  /** Whether Diván's invoice for this provider invoice exists. */
  async hasInvoice(providerInvoiceId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: billingInvoices.providerInvoiceId })
      .from(billingInvoices)
      .where(eq(billingInvoices.providerInvoiceId, providerInvoiceId));
    return !!row;
  },
  /** Diván's invoice for one provider payment (an invoice, a Checkout, a PaymentIntent), or null. */
  async invoiceByKey(providerInvoiceId: string): Promise<BillingInvoiceRow | null> {
    const [row] = await db.select().from(billingInvoices).where(eq(billingInvoices.providerInvoiceId, providerInvoiceId));
    return row ?? null;
  },
  async insertInvoice(row: Omit<BillingInvoiceRow, 'createdAt'>): Promise<void> {
    await db.insert(billingInvoices).values(row);
  },
  async invoiceOf(workspaceId: string, invoiceId: string): Promise<BillingInvoiceRow | null> {
    const [row] = await db
      .select()
      .from(billingInvoices)
      .where(and(eq(billingInvoices.workspaceId, workspaceId), eq(billingInvoices.invoiceId, invoiceId)));
    return row ?? null;
  },
  invoicesOf(workspaceId: string, limit = 200): Promise<BillingInvoiceRow[]> {
    return db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.workspaceId, workspaceId))
      .orderBy(desc(billingInvoices.createdAt), desc(billingInvoices.number))
      .limit(limit);
  },
});
