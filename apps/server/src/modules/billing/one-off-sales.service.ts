import type { FastifyBaseLogger } from 'fastify';
import type { DivanTax } from '@divan/core';
import type { Membership } from '../../platform/auth/access';
import type { Metadata } from '../../platform/payments/gateway';
import type { PlatformBilling } from '../../platform/billing/platform-billing';
import type { Db, Tx } from '../../platform/db/database';
import type { Operator, OperatorInvoice } from '../invoices/operator/operator-invoicing.service';
import { AppError } from '../../platform/errors';
import { billingDetailsRepository } from './billing-details.repository';
import { taxOfDetails, type BillingDetailsService } from './billing-details.service';
import { canManageBilling } from './billing.service';

/** What one sale charged and the invoice Diván issued for it. */
export type SalePaid = {
  status: 'paid';
  /** What Diván's invoice is keyed by: the PaymentIntent of a saved-card charge, the session of a Checkout. */
  key: string;
  /** The PaymentIntent that took the money (what a refund names); null when the provider did not say. */
  paymentIntentId: string | null;
  subtotal: number;
  vat: number;
  total: number;
  invoiceId: string | null;
  invoiceNumber: string | null;
};
export type SaleOutcome =
  | SalePaid
  /** The bank asks the buyer to authenticate, or no card is saved: the provider's page takes the payment. */
  | { status: 'authenticate'; url: string; sessionId: string }
  | { status: 'declined'; declineCode: string | null };

/** Who takes a paid payment-mode Checkout that is not a gift: the metadata key it looks for, and its handler. */
type CheckoutTaker = { metadataKey: string; paid: (sessionId: string, metadata: Metadata) => Promise<string> };

/**
 * One thing sold once by Diván to a workspace, on top of its plan (issue 29: a video of the training
 * library): the workspace's saved card charged without the buyer present, taxed by its billing data,
 * and Diván's invoice issued for it (keyed by the payment: never twice); when the bank asks for
 * authentication, or no card is saved, the provider's hosted Checkout takes it instead, and its webhook
 * hands the session to whoever sold it (`takeCheckouts`).
 */
export class OneOffSales {
  private readonly takers: CheckoutTaker[] = [];

  constructor(
    private readonly d: {
      db: Db;
      billing: PlatformBilling | null;
      details: BillingDetailsService;
      customerFor: (workspaceId: string) => Promise<string>;
      log: FastifyBaseLogger;
      clock: () => Date;
    },
  ) {}

  /** The workspace's tax on `subtotal` (cents) as its billing data says (IVA 21 %, or none for an EU business). */
  async taxOf(
    workspaceId: string,
    subtotal: number,
  ): Promise<{ vat: number; total: number; vatRate: number } & Pick<DivanTax, 'case' | 'legend'>> {
    const details = await billingDetailsRepository(this.d.db).detailsOf(workspaceId);
    if (!details) throw new AppError('billing_details_missing');
    const tax = taxOfDetails(details);
    const vat = Math.floor((subtotal * tax.vatRate + 50) / 100);
    return { vat, total: subtotal + vat, vatRate: tax.vatRate, case: tax.case, legend: tax.legend };
  }

  async sell(
    m: Membership,
    sale: { key: string; description: string; subtotal: number; metadata: Metadata; successUrl: string; cancelUrl: string },
  ): Promise<SaleOutcome> {
    const billing = this.d.billing;
    if (!billing) throw new AppError('billing_unavailable');
    if (!canManageBilling(m)) throw new AppError('access_denied');
    const wid = m.workspaceId;
    const { vat, total } = await this.taxOf(wid, sale.subtotal);
    const customerId = await this.d.customerFor(wid);
    const charged = await billing.chargeSaved({
      customerId,
      amount: total,
      description: sale.description,
      metadata: sale.metadata,
      idempotencyKey: `divan-sale:${sale.key}`,
    });
    if (charged.status === 'succeeded') {
      const invoice = await this.invoice(wid, charged.paymentIntentId, sale.description, sale.subtotal, charged.amount);
      return {
        status: 'paid',
        key: charged.paymentIntentId,
        paymentIntentId: charged.paymentIntentId,
        subtotal: sale.subtotal,
        vat,
        total,
        ...invoice,
      };
    }
    if (charged.status === 'declined') return { status: 'declined', declineCode: charged.declineCode };
    const session = await billing.checkoutPayment({
      customerId,
      description: sale.description,
      amount: sale.subtotal,
      taxRateIds: await this.d.details.taxRateIdsOf(wid),
      successUrl: sale.successUrl,
      cancelUrl: sale.cancelUrl,
      metadata: { ...sale.metadata, divan_workspace: wid, divan_subtotal: String(sale.subtotal) },
      idempotencyKey: `divan-sale-checkout:${sale.key}`,
    });
    return { status: 'authenticate', url: session.url, sessionId: session.id };
  }

  /**
   * A sale's Checkout paid (its webhook): read again from the provider, invoiced once by the session.
   * Null when the provider does not say it is paid.
   */
  async checkoutPaid(sessionId: string, description: string): Promise<SalePaid | null> {
    const billing = this.d.billing;
    if (!billing) return null;
    const fact = await billing.retrieveCheckout(sessionId);
    const wid = fact.metadata.divan_workspace;
    if (fact.mode !== 'payment' || !fact.paid || !wid) return null;
    const subtotal = Number(fact.metadata.divan_subtotal);
    if (!Number.isInteger(subtotal) || subtotal <= 0) return null;
    const made = await this.invoice(wid, sessionId, description, subtotal, fact.amountTotal ?? subtotal);
    const row = await this.invoiceRow(sessionId);
    const total = row?.total ?? fact.amountTotal ?? subtotal;
    return {
      status: 'paid',
      key: sessionId,
      paymentIntentId: fact.paymentIntentId,
      subtotal,
      vat: total - subtotal,
      total,
      ...made,
    };
  }

  /** The PaymentIntent of a sale paid on the provider's page, read from its Checkout (null when it has none). */
  async paymentOfCheckout(sessionId: string): Promise<string | null> {
    const billing = this.d.billing;
    if (!billing) throw new AppError('billing_unavailable');
    const fact = await billing.retrieveCheckout(sessionId);
    return fact.mode === 'payment' && fact.paid ? fact.paymentIntentId : null;
  }

  /** Refunds a sale's payment in full (the operator's path); its invoice is rectified by `rectifyIn`. */
  async refund(paymentKey: string): Promise<{ amount: number }> {
    const billing = this.d.billing;
    if (!billing) throw new AppError('billing_unavailable');
    const done = await billing.refundCharge({ paymentIntentId: paymentKey, idempotencyKey: `divan-sale-refund:${paymentKey}` });
    return { amount: done.amount };
  }

  /** Diván's own workspace, resolved before `rectifyIn`'s transaction. */
  operator(): Promise<Operator> {
    return this.d.details.operator();
  }

  /**
   * A sale refunded in full: Diván's invoice for it rectified by a rectifying invoice of the whole amount,
   * negative, inside the caller's transaction (once: null when it was already). `afterRectify` after the commit.
   */
  rectifyIn(
    tx: Tx,
    op: Operator,
    sale: { workspaceId: string | null; invoiceId: string; reason: string },
  ): Promise<OperatorInvoice | null> {
    return this.d.details.rectifyChargeIn(tx, op, sale);
  }

  afterRectify(row: OperatorInvoice, workspaceId: string | null): Promise<void> {
    return this.d.details.afterRectify(row, workspaceId);
  }

  /** Another module takes the paid payment-mode Checkouts whose metadata has `metadataKey`. */
  takeCheckouts(metadataKey: string, paid: CheckoutTaker['paid']): void {
    this.takers.push({ metadataKey, paid });
  }

  /** The webhook's payment-mode Checkout that no gift claimed: to the module that sold it, or a reason. */
  async paymentCheckoutPaid(sessionId: string): Promise<string> {
    if (!this.d.billing || this.takers.length === 0) return 'not a sale';
    const fact = await this.d.billing.retrieveCheckout(sessionId);
    const taker = this.takers.find((t) => fact.metadata[t.metadataKey]);
    return taker ? taker.paid(sessionId, fact.metadata) : 'not a sale';
  }

  private async invoice(workspaceId: string, key: string, description: string, subtotal: number, providerTotal: number) {
    const outcome = await this.d.details.issueCharge({
      key,
      workspaceId,
      lines: [{ description, amountCents: subtotal }],
      paidAt: this.d.clock(),
      providerTotal,
    });
    if (outcome !== 'issued' && outcome !== 'duplicate')
      this.d.log.warn({ key, reason: outcome }, 'billing: no Diván invoice for this sale');
    const row = await this.invoiceRow(key);
    return { invoiceId: row?.invoiceId ?? null, invoiceNumber: row?.number ?? null };
  }

  private async invoiceRow(key: string) {
    return billingDetailsRepository(this.d.db).invoiceByKey(key);
  }
}
