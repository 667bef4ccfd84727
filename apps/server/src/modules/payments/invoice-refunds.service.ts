import { refundLinesOfStored, refundProblemOf, type InvoiceItemKind } from '@divan/core';
import type { z } from 'zod';
import type { refundInvoiceBody } from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import { GatewayCardError, GatewayUnavailableError } from '../../platform/payments/gateway';
import { invoicePaymentState } from '../invoices/invoice-payment-state';
import type { InvoiceIssuing } from '../invoices/issuing/invoice-issuing.service';
import type { InvoicesService } from '../invoices/invoices.service';
import type { Caller } from '../../platform/auth/caller';
import type { PaymentAccounts } from './payment-accounts.service';
import { paymentLedgerRepository } from './payment-ledger.repository';

export type RefundDeps = {
  db: Db;
  accounts: PaymentAccounts;
  invoices: InvoicesService;
  issuing: InvoiceIssuing;
  onSettled: (workspaceId: string, invoiceId: string) => Promise<void>;
};

/**
 * Refunds of an invoice paid by card here, whole or partial. The amount is returned through the
 * provider, then a rectifying invoice by difference for exactly that amount is issued (its lines scaled
 * from the original, `refundLinesOf`), so the books say what the bank did.
 */
export class InvoiceRefunds {
  constructor(private readonly d: RefundDeps) {}

  async refund(c: Caller, id: string, b: z.output<typeof refundInvoiceBody>) {
    const inv = await this.d.invoices.accessible(c, id, 'update');
    if (inv.status !== 'issued' || inv.kind !== 'ordinary') throw new AppError('refund_not_allowed');
    const payment = await paymentLedgerRepository(this.d.db).lastSucceeded(inv.id);
    if (!payment?.intentId) throw new AppError('refund_not_allowed');
    const sums = await paymentLedgerRepository(this.d.db).sums(inv.id);
    const left = sums.charged - sums.refunded - sums.refunding;
    const wanted = b.amountCents ?? left;
    const problem = refundProblemOf(sums.charged, sums.refunded + sums.refunding, wanted);
    if (problem) throw new AppError(problem);
    const lines = await invoicePaymentState.lines(this.d.db, inv.id);
    const plan = refundLinesOfStored(lines, wanted);
    // What is returned is what the rectifying invoice says (the same, but for a cent a tax rounding cannot reach).
    const amount = Math.min(-plan.totalCents, left);
    const row = await paymentLedgerRepository(this.d.db).insertRefund({
      workspaceId: payment.workspaceId,
      invoiceId: inv.id,
      paymentId: payment.id,
      amount,
      status: 'pending',
      reason: b.reason,
      createdBy: c.userId,
    });
    let refund;
    try {
      refund = await this.d.accounts.gateway.refund(payment.accountId, {
        paymentIntentId: payment.intentId,
        amount,
        metadata: { refundRowId: row.id, invoiceId: inv.id },
        idempotencyKey: `refund-${row.id}`,
      });
    } catch (err) {
      await paymentLedgerRepository(this.d.db).updateRefund(row.id, { status: 'failed' });
      if (err instanceof GatewayUnavailableError || err instanceof GatewayCardError) throw new AppError('payment_provider_error');
      throw err;
    }
    const recorded = await this.d.db.transaction(async (tx) => {
      // The provider's answer to our own request: on the payment's account, in its currency.
      const r = (
        await paymentLedgerRepository(tx).refund({
          account: payment.accountId,
          refundRowId: row.id,
          refundId: refund.id,
          amount: refund.amount,
          currency: payment.currency,
          status: refund.status,
          paymentIntentId: payment.intentId!,
        })
      ).row;
      await paymentLedgerRepository(tx).settle(inv.id);
      return r;
    });
    // The money is back whatever happens next: a rectifying invoice that cannot be issued now (the
    // seller's billing data changed since) leaves the refund recorded without one, to issue by hand.
    const rectifying = await this.rectify(c, inv.id, lines, plan.lines, b.reason).catch((err: unknown) => {
      if (err instanceof AppError) return null;
      throw err;
    });
    if (rectifying)
      await this.d.db.transaction(async (tx) => {
        await paymentLedgerRepository(tx).updateRefund(row.id, { rectifyingInvoiceId: rectifying.id });
        // The rectifying invoice is settled by the refund itself.
        await invoicePaymentState.set(tx, rectifying.id, { paymentStatus: 'refunded', paymentType: 'stripe_connect', paidAt: new Date() });
      });
    await this.d.onSettled(inv.workspaceId, inv.id);
    return {
      status: recorded?.status ?? refund.status,
      amountCents: amount,
      rectifying: rectifying ? { id: rectifying.id, number: rectifying.number } : null,
    };
  }

  private rectify(
    c: Caller,
    invoiceId: string,
    original: { description: string; itemKind: string }[],
    lines: ReturnType<typeof refundLinesOfStored>['lines'],
    reason: string,
  ) {
    const kinds = new Map(original.map((l) => [l.description, l.itemKind as InvoiceItemKind]));
    return this.d.issuing.rectify(c, invoiceId, {
      method: 'difference',
      reason: `Devolución con tarjeta: ${reason}`.slice(0, 300),
      lines: lines.map((l) => ({
        description: l.description,
        itemKind: kinds.get(l.description.replace(/^Devolución: /, '')) ?? 'therapy',
        unitPriceCents: l.unitPriceCents,
        quantity: l.quantity,
        vatRate: l.vatRate as 0 | 4 | 10 | 21,
        withholdingRate: l.withholdingRate as 0 | 7 | 15 | 19,
        exemption: l.exemption,
        sessionId: null,
      })),
    });
  }
}
