import { chargeBlockOf, errorMessage, type ChargeFacts, type InvoicePayments, type PayLinkBlock } from '@divan/core';
import type { Db, Tx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import { GatewayCardError, GatewayUnavailableError, type GatewayPaymentIntent } from '../../platform/payments/gateway';
import { invoicePaymentState } from '../invoices/invoice-payment-state';
import type { InvoiceRow } from '../invoices/invoice-payment-state';
import type { InvoicesService } from '../invoices/invoices.service';
import type { Caller } from '../../platform/auth/caller';
import type { PaymentAccounts } from './payment-accounts.service';
import { paymentLedgerRepository, type AttemptFact } from './payment-ledger.repository';
import type { PatientCards } from './patient-cards.service';
import type { InvoicePaymentRow } from './payments.tables';

export type ChargeOutcome = { status: InvoicePaymentRow['status']; message: string };
export type ChargingDeps = {
  db: Db;
  accounts: PaymentAccounts;
  cards: PatientCards;
  invoices: InvoicesService;
  onSettled: (workspaceId: string, invoiceId: string, amountCents: number) => Promise<void>;
};

/** What the patient's bank answered, in Spanish, for the attempts list and the answer of «Cobrar». */
export function attemptMessage(a: Pick<InvoicePaymentRow, 'status' | 'errorCode'>): string | null {
  if (a.errorCode === 'authentication_required')
    return 'El banco pide que el paciente confirme el pago: se le ha enviado un enlace para completarlo.';
  if (a.status === 'failed')
    return a.errorCode === 'card_declined' || !a.errorCode ? errorMessage('card_declined') : `El cobro no se completó (${a.errorCode}).`;
  return null;
}

const OUTCOME: Record<InvoicePaymentRow['status'], string> = {
  succeeded: 'Cobro realizado: la factura se marcará como pagada en cuanto Stripe lo confirme.',
  processing: 'El cobro está en curso: la factura se marcará como pagada en cuanto Stripe lo confirme.',
  requires_action: 'El banco del paciente pide que confirme el pago: le hemos enviado por email un enlace para completarlo.',
  failed: errorMessage('card_declined'),
  canceled: 'El cobro se ha cancelado.',
};

export const intentFact = (pi: Pick<GatewayPaymentIntent, 'id' | 'status' | 'errorCode' | 'declineCode'>): AttemptFact => ({
  status: pi.status === 'requires_payment_method' ? 'failed' : pi.status,
  intentId: pi.id,
  errorCode: pi.errorCode,
  declineCode: pi.declineCode,
});

/**
 * Charging a pending invoice with the patient's saved card, off-session. The six reasons of §5 are
 * checked as the button shows them (`chargeBlockOf`); the attempt is numbered in the database, and its
 * idempotency key (`invoice-<id>-charge-<n>`) makes a double click, or two processes, one charge.
 */
export class InvoiceCharging {
  /** Set by the module entry (payments.module.ts): mail the patient a pay link when their bank asks for authentication. */
  askToAuthenticate: (inv: InvoiceRow) => Promise<void> = async () => {};

  constructor(private readonly d: ChargingDeps) {}

  async facts(inv: InvoiceRow): Promise<ChargeFacts> {
    const [account, card] = await Promise.all([
      this.d.accounts.chargeable(inv.sellerKey),
      inv.patientId && inv.sellerType === 'therapist' ? this.d.cards.row(inv.patientId, inv.sellerKey) : undefined,
    ]);
    return {
      status: inv.status,
      paymentStatus: inv.paymentStatus,
      totalCents: inv.total,
      sellerType: inv.sellerType,
      hasPatient: !!inv.patientId,
      therapistCanCharge: !!account,
      patientHasCard: !!card?.paymentMethodId,
      autoCharge: card?.autoCharge ?? false,
    };
  }

  /** The invoice screen's payment panel: why «Cobrar» is disabled, what was charged and refunded. */
  async payments(
    c: Caller,
    id: string,
    links: { blockOf: (inv: InvoiceRow) => Promise<PayLinkBlock | null>; recipientOf: (inv: InvoiceRow) => Promise<string | null> },
  ): Promise<InvoicePayments> {
    const inv = await this.d.invoices.accessible(c, id, 'read');
    const [facts, attempts, refunds, sums, linkBlock, linkTo] = await Promise.all([
      this.facts(inv),
      paymentLedgerRepository(this.d.db).attemptsOf(inv.id),
      paymentLedgerRepository(this.d.db).refundsOf(inv.id),
      paymentLedgerRepository(this.d.db).sums(inv.id),
      links.blockOf(inv),
      links.recipientOf(inv),
    ]);
    const rectIds = refunds.map((r) => r.rectifyingInvoiceId).filter((x): x is string => !!x);
    const numbers = new Map(
      (await Promise.all(rectIds.map((rid) => invoicePaymentState.find(this.d.db, rid))))
        .filter((r): r is InvoiceRow => !!r)
        .map((r) => [r.id, r.number]),
    );
    return {
      mode: this.d.accounts.gateway.mode,
      chargeBlock: chargeBlockOf(facts),
      payLinkBlock: linkBlock,
      payLinkTo: linkTo,
      chargedCents: sums.charged,
      refundedCents: sums.refunded,
      refundableCents: Math.max(0, sums.charged - sums.refunded - sums.refunding),
      attempts: attempts.map((a) => ({
        id: a.id,
        kind: a.kind,
        status: a.status,
        amountCents: a.amount,
        error: attemptMessage(a),
        createdAt: a.createdAt.toISOString(),
      })),
      refunds: refunds.map((r) => ({
        id: r.id,
        amountCents: r.amount,
        status: r.status,
        reason: r.reason,
        rectifying: r.rectifyingInvoiceId ? { id: r.rectifyingInvoiceId, number: numbers.get(r.rectifyingInvoiceId) ?? null } : null,
        createdAt: r.createdAt.toISOString(),
      })),
    };
  }

  async charge(c: Caller, id: string): Promise<ChargeOutcome> {
    const inv = await this.d.invoices.accessible(c, id, 'update');
    return this.chargeRow(inv, c.userId);
  }

  /** Charges an invoice (a member's click, or the automatic charge's job with `createdBy` null). */
  async chargeRow(inv: InvoiceRow, createdBy: string | null): Promise<ChargeOutcome> {
    const block = chargeBlockOf(await this.facts(inv));
    if (block) throw new AppError(block);
    const account = (await this.d.accounts.chargeable(inv.sellerKey))!;
    const card = (await this.d.cards.row(inv.patientId!, inv.sellerKey))!;
    const attempt = await this.d.db.transaction((tx) => this.nextAttempt(tx, inv, account.accountId, createdBy));
    let fact: AttemptFact;
    try {
      const pi = await this.d.accounts.gateway.chargeOffSession(account.accountId, {
        customerId: card.customerId,
        paymentMethodId: card.paymentMethodId!,
        amount: attempt.amount,
        description: `Factura ${inv.number}`,
        metadata: { invoiceId: inv.id, attemptId: attempt.id, workspaceId: inv.workspaceId },
        idempotencyKey: attempt.idempotencyKey,
      });
      fact = intentFact(pi);
    } catch (err) {
      if (err instanceof GatewayUnavailableError) throw new AppError('payment_provider_error');
      if (!(err instanceof GatewayCardError)) throw err;
      const auth = err.code === 'authentication_required';
      fact = {
        status: auth ? 'requires_action' : 'failed',
        intentId: err.paymentIntent?.id ?? null,
        errorCode: err.code,
        declineCode: err.declineCode,
      };
    }
    const row = await this.d.db.transaction((tx) => paymentLedgerRepository(tx).attempt(attempt.id, fact));
    if (fact.errorCode === 'authentication_required') await this.askToAuthenticate(inv);
    if (fact.status === 'failed') throw new AppError('card_declined');
    return { status: row?.status ?? fact.status, message: OUTCOME[fact.status] };
  }

  /**
   * The attempt to send: the one still in flight (same key: the provider answers the same
   * PaymentIntent), else a new number after the last one ended. The invoice row lock orders two clicks.
   */
  private async nextAttempt(tx: Tx, inv: InvoiceRow, accountId: string, createdBy: string | null): Promise<InvoicePaymentRow> {
    const fresh = await invoicePaymentState.find(tx, inv.id, true);
    if (!fresh || fresh.paymentStatus !== 'pending') throw new AppError('charge_not_chargeable');
    const last = await paymentLedgerRepository(tx).lastAttempt(inv.id, 'charge');
    if (last?.status === 'processing') return last;
    if (last?.status === 'succeeded') throw new AppError('charge_not_chargeable');
    const n = (last?.attempt ?? 0) + 1;
    return paymentLedgerRepository(tx).insertAttempt({
      invoiceId: inv.id,
      workspaceId: inv.workspaceId,
      holderKey: inv.sellerKey,
      accountId,
      kind: 'charge',
      attempt: n,
      idempotencyKey: `invoice-${inv.id}-charge-${n}`,
      amount: fresh.total,
      status: 'processing',
      createdBy,
    });
  }
}
