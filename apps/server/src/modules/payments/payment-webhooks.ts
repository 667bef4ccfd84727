import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { GatewayEvent, PaymentsGateway } from '../../platform/payments/gateway';
import type { BookingPayments } from './booking-payments';
import type { PaymentAccounts } from './payment-accounts';
import { paymentLedger, type AttemptFact } from './payment-ledger';
import type { PatientCards } from './patient-cards';
import { paymentEvents } from './payments.tables';

type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : null);
const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const meta = (o: Obj) => (o.metadata && typeof o.metadata === 'object' ? (o.metadata as Record<string, string>) : {});
const idOf = (v: unknown) => (typeof v === 'string' ? v : v && typeof v === 'object' ? str((v as Obj).id) : null);

const PI_EVENTS: Record<string, AttemptFact['status']> = {
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.requires_action': 'requires_action',
  'payment_intent.processing': 'processing',
  'payment_intent.canceled': 'canceled',
};
const REFUND_STATUS = new Set(['pending', 'succeeded', 'failed', 'canceled']);

export type WebhookDeps = {
  db: Db;
  gateway: PaymentsGateway;
  accounts: PaymentAccounts;
  cards: PatientCards;
  bookings: BookingPayments;
  log: FastifyBaseLogger;
  onSettled: (workspaceId: string, invoiceId: string, amountCents: number) => void;
};

/**
 * One endpoint for the provider's events. The signature is checked over the raw body; each event id is
 * handled once (`payment_events`); handlers record facts (paymentLedger) or read the latest state from
 * the provider (accounts, cards), so a replay changes nothing and events in any order end the same.
 */
export class PaymentWebhooks {
  constructor(private readonly d: WebhookDeps) {}

  async receive(raw: Buffer | string, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    let event: GatewayEvent;
    try {
      event = this.d.gateway.verifyWebhook(raw, signature);
    } catch {
      throw new AppError('webhook_signature_invalid');
    }
    // Reads from the provider first (PGlite: no outside call inside a transaction).
    if (event.type === 'account.updated') await this.d.accounts.onAccountEvent(str(event.object.id) ?? event.account ?? '');
    const setupIntent = this.setupIntentOf(event);
    if (setupIntent && event.account) await this.d.cards.onSetupSucceeded(event.account, setupIntent, new Date(event.created * 1000));
    // A booking paid on the public page (idempotent: it may come again, before or after being recorded).
    if (event.type.startsWith('checkout.session.')) await this.d.bookings.checkoutEvent(event.type, event.account, event.object);
    const settled = await this.d.db.transaction(async (tx) => {
      const [first] = await tx.insert(paymentEvents).values({ eventId: event.id, type: event.type, account: event.account }).onConflictDoNothing().returning();
      if (!first) return null;
      const invoiceIds = await this.record(tx, event);
      const out = [];
      for (const id of invoiceIds) {
        const s = await paymentLedger.settle(tx, id);
        if (s) out.push(s);
      }
      return out;
    });
    if (settled === null) return { received: true, duplicate: true };
    for (const s of settled) this.d.onSettled(s.row.workspaceId, s.row.id, s.becamePaid ? s.row.total : 0);
    return { received: true, duplicate: false };
  }

  /** The SetupIntent an event says succeeded (checkout in setup mode, or the SetupIntent itself). */
  private setupIntentOf(e: GatewayEvent): string | null {
    if (e.type === 'setup_intent.succeeded') return str(e.object.id);
    if (e.type === 'checkout.session.completed' && e.object.mode === 'setup') return idOf(e.object.setup_intent);
    return null;
  }

  /** The facts an event brings; returns the invoices whose payment status may have changed. */
  private async record(tx: Tx, e: GatewayEvent): Promise<string[]> {
    const o = e.object;
    const piStatus = PI_EVENTS[e.type];
    if (piStatus) {
      const err = (o.last_payment_error ?? null) as Obj | null;
      const row = await paymentLedger.attempt(tx, { attemptId: meta(o).attemptId, intentId: str(o.id) }, { status: piStatus, intentId: str(o.id), errorCode: err ? str(err.code) : null, declineCode: err ? str(err.decline_code) : null });
      return row ? [row.invoiceId] : [];
    }
    if (e.type === 'checkout.session.completed' || e.type === 'checkout.session.async_payment_succeeded' || e.type === 'checkout.session.async_payment_failed') {
      if (o.mode !== 'payment') return [];
      const paid = o.payment_status === 'paid' && e.type !== 'checkout.session.async_payment_failed';
      const failed = e.type === 'checkout.session.async_payment_failed';
      if (!paid && !failed) return [];
      const row = await paymentLedger.attempt(tx, { attemptId: meta(o).attemptId }, { status: paid ? 'succeeded' : 'failed', intentId: idOf(o.payment_intent) });
      return row ? [row.invoiceId] : [];
    }
    if (e.type === 'checkout.session.expired' && o.mode === 'payment') {
      const row = await paymentLedger.attempt(tx, { attemptId: meta(o).attemptId }, { status: 'canceled' });
      return row ? [row.invoiceId] : [];
    }
    if (e.type === 'charge.refunded' || e.type === 'charge.refund.updated') {
      const refunds = ((o.refunds as Obj | undefined)?.data as Obj[] | undefined) ?? [];
      const out: string[] = [];
      for (const r of refunds) out.push(...(await this.refund(tx, r, idOf(o.payment_intent))));
      return out;
    }
    if (e.type === 'refund.created' || e.type === 'refund.updated' || e.type === 'refund.failed') return this.refund(tx, o, idOf(o.payment_intent));
    return [];
  }

  private async refund(tx: Tx, r: Obj, paymentIntentId: string | null): Promise<string[]> {
    const status = str(r.status);
    const id = str(r.id);
    if (!id || !paymentIntentId || !status || !REFUND_STATUS.has(status)) return [];
    const row = await paymentLedger.refund(tx, { refundRowId: meta(r).refundRowId, refundId: id, amount: num(r.amount), status: status as 'pending', paymentIntentId });
    return row ? [row.invoiceId] : [];
  }
}
