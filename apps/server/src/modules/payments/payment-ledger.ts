import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { invoicePaymentState } from '../invoices/invoice-payment-state';
import type { InvoiceRow } from '../invoices/invoice-payment-state';
import { invoicePayments, paymentRefunds, type InvoicePaymentRow, type PaymentRefundRow } from './payments.tables';

type AttemptStatus = InvoicePaymentRow['status'];
/** An attempt's status only moves forward: a late event of an earlier state changes nothing. */
const RANK: Record<AttemptStatus, number> = { processing: 0, requires_action: 1, failed: 2, canceled: 2, succeeded: 3 };
const RANK_SQL = sql`case ${invoicePayments.status} when 'processing' then 0 when 'requires_action' then 1 when 'succeeded' then 3 else 2 end`;

export type AttemptFact = { status: AttemptStatus; intentId?: string | null; errorCode?: string | null; declineCode?: string | null };

/**
 * The facts of card payments (attempts and refunds, as the provider reports them) and the invoice's
 * payment status derived from them: whatever order events arrive in, the same facts give the same state.
 */
export const paymentLedger = {
  /** Records what the provider said of an attempt (found by our id, else by the PaymentIntent's). */
  async attempt(tx: DbOrTx, where: { attemptId?: string | null; intentId?: string | null }, fact: AttemptFact): Promise<InvoicePaymentRow | undefined> {
    const match = where.attemptId ? eq(invoicePayments.id, where.attemptId) : where.intentId ? eq(invoicePayments.intentId, where.intentId) : undefined;
    if (!match) return undefined;
    const [current] = await tx.select().from(invoicePayments).where(match).for('update');
    if (!current) return undefined;
    const forward = RANK[fact.status] > RANK[current.status];
    const [row] = await tx
      .update(invoicePayments)
      .set({
        intentId: current.intentId ?? fact.intentId ?? null,
        ...(forward ? { status: fact.status, errorCode: fact.errorCode ?? null, declineCode: fact.declineCode ?? null } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(invoicePayments.id, current.id), sql`${RANK_SQL} <= ${RANK[fact.status]}`))
      .returning();
    return row ?? current;
  },

  /** Records a refund the provider reports: ours (by our id in its metadata) or one made in Stripe's dashboard. */
  async refund(tx: DbOrTx, r: { refundRowId?: string | null; refundId: string; amount: number; status: PaymentRefundRow['status']; paymentIntentId: string }): Promise<PaymentRefundRow | undefined> {
    const byOurs = r.refundRowId ? (await tx.select().from(paymentRefunds).where(eq(paymentRefunds.id, r.refundRowId)).for('update'))[0] : undefined;
    const existing = byOurs ?? (await tx.select().from(paymentRefunds).where(eq(paymentRefunds.refundId, r.refundId)).for('update'))[0];
    if (existing) {
      // pending → succeeded/failed/canceled; a final state stays.
      const status = existing.status === 'pending' ? r.status : existing.status;
      const [row] = await tx.update(paymentRefunds).set({ refundId: r.refundId, status, updatedAt: new Date() }).where(eq(paymentRefunds.id, existing.id)).returning();
      return row;
    }
    const [payment] = await tx.select().from(invoicePayments).where(eq(invoicePayments.intentId, r.paymentIntentId));
    if (!payment) return undefined;
    const [row] = await tx
      .insert(paymentRefunds)
      .values({ invoiceId: payment.invoiceId, paymentId: payment.id, refundId: r.refundId, amount: r.amount, status: r.status, reason: 'Devolución hecha desde Stripe' })
      .onConflictDoNothing()
      .returning();
    return row;
  },

  /** Charged and refunded so far (succeeded only), and what is still being refunded. */
  async sums(tx: DbOrTx, invoiceId: string) {
    const [p] = await tx
      .select({ charged: sql<number>`coalesce(sum(${invoicePayments.amount}) filter (where ${invoicePayments.status} = 'succeeded'), 0)::int` })
      .from(invoicePayments)
      .where(eq(invoicePayments.invoiceId, invoiceId));
    const [r] = await tx
      .select({
        refunded: sql<number>`coalesce(sum(${paymentRefunds.amount}) filter (where ${paymentRefunds.status} = 'succeeded'), 0)::int`,
        pending: sql<number>`coalesce(sum(${paymentRefunds.amount}) filter (where ${paymentRefunds.status} = 'pending'), 0)::int`,
      })
      .from(paymentRefunds)
      .where(eq(paymentRefunds.invoiceId, invoiceId));
    return { charged: p!.charged, refunded: r!.refunded, refunding: r!.pending };
  },

  /**
   * The invoice's payment status from the facts: paid once a card payment succeeded, refunded when
   * refunds cover it. Returns the invoice when its status changed (for the `invoice.paid` event).
   */
  async settle(tx: DbOrTx, invoiceId: string): Promise<{ row: InvoiceRow; becamePaid: boolean } | null> {
    const inv = await invoicePaymentState.find(tx, invoiceId, true);
    if (!inv || inv.status === 'draft') return null;
    const { charged, refunded } = await this.sums(tx, invoiceId);
    if (charged <= 0) return null;
    const status = refunded >= charged ? 'refunded' : 'paid';
    if (inv.paymentStatus === status) return null;
    const row = await invoicePaymentState.set(tx, invoiceId, {
      paymentStatus: status,
      // A payment recorded by hand keeps its type; one charged here is Stripe Connect.
      ...(inv.paymentStatus === 'pending' ? { paymentType: 'stripe_connect' as const, paidAt: new Date() } : {}),
    });
    return row ? { row, becamePaid: inv.paymentStatus === 'pending' && status === 'paid' } : null;
  },
};
