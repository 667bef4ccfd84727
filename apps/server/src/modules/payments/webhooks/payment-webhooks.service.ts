import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../../platform/db/database';
import { AppError } from '../../../platform/errors';
import type { GatewayEvent, PaymentsGateway } from '../../../platform/payments/gateway';
import type { BookingPayments } from '../booking-payments.service';
import type { PaymentAccounts } from '../payment-accounts.service';
import { paymentLedgerRepository, type AttemptFact, type Matched } from '../payment-ledger.repository';
import type { PatientCards } from '../patient-cards.service';
import { paymentsRepository } from '../payments.repository';

type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : null);
const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const numOrNull = (v: unknown) => (typeof v === 'number' ? v : null);
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
  onSettled: (workspaceId: string, invoiceId: string, amountCents: number) => Promise<void>;
};

/**
 * One endpoint for the provider's events. The signature is checked over the raw body; each event id is
 * handled once (`payment_events`); handlers record facts (the payment ledger) or read the latest state from
 * the provider (accounts, cards), so a replay changes nothing and events in any order end the same.
 * An event changes only what it is about: the attempt, refund or booking checkout whose connected
 * account, object id, amount and currency it agrees with — metadata alone (which any connected account
 * can write) never suffices. Anything else is acknowledged, logged at warn and kept as ignored.
 */
export class PaymentWebhooks {
  constructor(private readonly d: WebhookDeps) {}

  async receive(raw: Buffer | string, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    let event: GatewayEvent;
    try {
      event = await this.d.gateway.verifyWebhook(raw, signature);
    } catch {
      throw new AppError('webhook_signature_invalid');
    }
    // Reads from the provider first (PGlite: no outside call inside a transaction).
    const before = await this.beforeRecording(event);
    const settled = await this.d.db.transaction(async (tx) => {
      const first = await paymentsRepository(tx).recordEvent({
        eventId: event.id,
        type: event.type,
        account: event.account,
        ignored: before,
      });
      if (!first) return null;
      const { invoiceIds, ignored } = await this.record(tx, event);
      if (ignored && !before) await paymentsRepository(tx).setEventIgnored(event.id, ignored);
      const why = before ?? ignored;
      // Acknowledged (a 2xx: the provider must not send it for ever), and said.
      if (why)
        this.d.log.warn(
          { eventId: event.id, type: event.type, account: event.account, reason: why },
          'payment webhook event ignored: it does not match what it names',
        );
      const out = [];
      for (const id of invoiceIds) {
        const s = await paymentLedgerRepository(tx).settle(id);
        if (s) out.push(s);
      }
      return out;
    });
    if (settled === null) return { received: true, duplicate: true };
    for (const s of settled) await this.d.onSettled(s.row.workspaceId, s.row.id, s.becamePaid ? s.row.total : 0);
    return { received: true, duplicate: false };
  }

  /**
   * What reads the provider or books: the account's state (only its own account's event), the card a
   * SetupIntent saved (read on the event's account, kept only for a customer of that account), a
   * booking's checkout. Returns why the event was ignored, or null.
   */
  private async beforeRecording(event: GatewayEvent): Promise<string | null> {
    if (event.type === 'account.updated') {
      const id = str(event.object.id);
      if (!event.account || id !== event.account)
        return `account.updated of ${id ?? '(none)'} sent for connected account ${event.account ?? '(none)'}`;
      await this.d.accounts.onAccountEvent(event.account);
    }
    const setupIntent = this.setupIntentOf(event);
    if (setupIntent && event.account) await this.d.cards.onSetupSucceeded(event.account, setupIntent, new Date(event.created * 1000));
    // A booking paid on the public page (idempotent: it may come again, before or after being recorded).
    if (event.type.startsWith('checkout.session.')) return this.d.bookings.checkoutEvent(event.type, event.account, event.object);
    return null;
  }

  /** The SetupIntent an event says succeeded (checkout in setup mode, or the SetupIntent itself). */
  private setupIntentOf(e: GatewayEvent): string | null {
    if (e.type === 'setup_intent.succeeded') return str(e.object.id);
    if (e.type === 'checkout.session.completed' && e.object.mode === 'setup') return idOf(e.object.setup_intent);
    return null;
  }

  /** The facts an event brings: the invoices whose payment status may have changed, or why it was ignored. */
  private async record(tx: Tx, e: GatewayEvent): Promise<{ invoiceIds: string[]; ignored?: string }> {
    const o = e.object;
    const piStatus = PI_EVENTS[e.type];
    if (piStatus) {
      const err = (o.last_payment_error ?? null) as Obj | null;
      const claim = {
        account: e.account,
        attemptId: meta(o).attemptId ?? null,
        checkoutId: null,
        intentId: str(o.id),
        amount: numOrNull(o.amount),
        currency: str(o.currency),
      };
      return outcome(
        await paymentLedgerRepository(tx).attemptOfEvent(claim, {
          status: piStatus,
          intentId: str(o.id),
          errorCode: err ? str(err.code) : null,
          declineCode: err ? str(err.decline_code) : null,
        }),
      );
    }
    if (e.type.startsWith('checkout.session.') && o.mode === 'payment') {
      const fact = checkoutFact(e.type, o);
      if (!fact) return { invoiceIds: [] };
      const claim = {
        account: e.account,
        attemptId: meta(o).attemptId ?? null,
        checkoutId: str(o.id),
        intentId: idOf(o.payment_intent),
        amount: numOrNull(o.amount_total),
        currency: str(o.currency),
      };
      return outcome(await paymentLedgerRepository(tx).attemptOfEvent(claim, fact));
    }
    if (e.type === 'charge.refunded' || e.type === 'charge.refund.updated') {
      const refunds = ((o.refunds as Obj | undefined)?.data as Obj[] | undefined) ?? [];
      const out: { invoiceIds: string[]; ignored?: string } = { invoiceIds: [] };
      for (const r of refunds) {
        const one = await this.refund(tx, e.account, { currency: o.currency, ...r }, idOf(o.payment_intent));
        out.invoiceIds.push(...one.invoiceIds);
        out.ignored ??= one.ignored;
      }
      return out;
    }
    if (e.type === 'refund.created' || e.type === 'refund.updated' || e.type === 'refund.failed')
      return this.refund(tx, e.account, o, idOf(o.payment_intent));
    return { invoiceIds: [] };
  }

  private async refund(
    tx: Tx,
    account: string | null,
    r: Obj,
    paymentIntentId: string | null,
  ): Promise<{ invoiceIds: string[]; ignored?: string }> {
    const status = str(r.status);
    const id = str(r.id);
    if (!id || !paymentIntentId || !status || !REFUND_STATUS.has(status)) return { invoiceIds: [] };
    return outcome(
      await paymentLedgerRepository(tx).refund({
        account,
        refundRowId: meta(r).refundRowId,
        refundId: id,
        amount: num(r.amount),
        currency: str(r.currency),
        status: status as 'pending',
        paymentIntentId,
      }),
    );
  }
}

/** What a payment-mode checkout event says of its attempt, or null when nothing. */
function checkoutFact(type: string, o: Obj): AttemptFact | null {
  if (type === 'checkout.session.expired') return { status: 'canceled' };
  if (type === 'checkout.session.async_payment_failed') return { status: 'failed', intentId: idOf(o.payment_intent) };
  if ((type === 'checkout.session.completed' || type === 'checkout.session.async_payment_succeeded') && o.payment_status === 'paid')
    return { status: 'succeeded', intentId: idOf(o.payment_intent) };
  return null;
}

const outcome = (m: Matched<{ invoiceId: string }>) => ({
  invoiceIds: m.row ? [m.row.invoiceId] : [],
  ...(m.ignored ? { ignored: m.ignored } : {}),
});
