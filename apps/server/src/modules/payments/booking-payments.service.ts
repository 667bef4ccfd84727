import type { Db } from '../../platform/db/database';
import type { GatewayCheckout } from '../../platform/payments/gateway';
import { holderKeyOf, viaGateway, type PaymentAccounts } from './payment-accounts.service';
import type { PatientCards } from './patient-cards.service';
import { paymentsRepository } from './payments.repository';
import type { BookingCheckoutRow } from './payments.tables';

const idOf = (v: unknown) =>
  typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as { id: unknown }).id === 'string' ? (v as { id: string }).id : null;

/** A booking's checkout completed and paid (from the webhook): the hold it pays for and the money's trace. */
export type BookingPaid = { holdId: string; workspaceId: string; accountId: string; paymentIntentId: string | null; amount: number };

/** A booking's setup checkout completed (service payment `card`): the customer whose card was saved. */
export type BookingCardSaved = {
  holdId: string;
  workspaceId: string;
  accountId: string;
  customerId: string;
  setupIntentId: string;
  at: Date;
};

/** Stripe's minimum charge in euros, cents (below it a booking is not charged at booking). */
export const MIN_CHARGE_CENTS = 50;

/**
 * What booking on the public page asks of payments (spec §3 booking service `payment: pay`): the
 * connected account that takes the session's money (the therapist's or the workspace's, as the
 * therapist's payments receiver says), a Checkout Session in payment mode on it, a refund when a paid
 * booking cannot be made after all, and the webhook's word that a booking's checkout was paid; for
 * `card`, a Checkout Session in setup mode on the therapist's account and the card kept once booked.
 */
export class BookingPayments {
  private paidHandler?: (p: BookingPaid) => Promise<void>;
  private cardHandler?: (c: BookingCardSaved) => Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly accounts: PaymentAccounts,
    private readonly cards: PatientCards,
  ) {}

  /** The account that can charge for the holder, or null (not connected, onboarding not finished). */
  async accountFor(workspaceId: string, therapistId: string, receiver: 'therapist' | 'workspace'): Promise<string | null> {
    const key = holderKeyOf(receiver === 'therapist' ? { kind: 'therapist', userId: therapistId } : { kind: 'workspace', workspaceId });
    return (await this.accounts.chargeable(key))?.accountId ?? null;
  }

  /** A Checkout Session in payment mode for the hold, kept as created: only its own events book the hold. */
  async checkout(
    accountId: string,
    input: {
      holdId: string;
      workspaceId: string;
      amount: number;
      email: string;
      description: string;
      successUrl: string;
      cancelUrl: string;
    },
  ): Promise<GatewayCheckout> {
    const session = await viaGateway(() =>
      this.accounts.gateway.checkoutPayment(accountId, {
        customerId: null,
        customerEmail: input.email,
        amount: input.amount,
        description: input.description,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        metadata: { purpose: 'booking', holdId: input.holdId, workspaceId: input.workspaceId },
        // One checkout per hold: asking again while paying answers the same page.
        idempotencyKey: `booking-hold-${input.holdId}-checkout`,
      }),
    );
    await this.keep({
      checkoutId: session.id,
      accountId,
      holdId: input.holdId,
      workspaceId: input.workspaceId,
      mode: 'payment',
      amount: input.amount,
      customerId: null,
    });
    return session;
  }

  /**
   * The customer a visitor saves their card as, on the therapist's account (where patients' cards
   * live): a known patient's own; for a newcomer one without a patient yet, adopted once booked.
   */
  async customerFor(
    accountId: string,
    therapistId: string,
    workspaceId: string,
    who: { patientId: string | null; name: string; email: string; holdId: string },
  ): Promise<string> {
    const key = holderKeyOf({ kind: 'therapist', userId: therapistId });
    if (who.patientId) return this.cards.customerFor({ id: who.patientId, name: who.name, email: who.email }, workspaceId, key, accountId);
    return (
      await viaGateway(() =>
        this.accounts.gateway.createCustomer(accountId, {
          email: who.email,
          name: who.name,
          metadata: { holdId: who.holdId, workspaceId },
        }),
      )
    ).id;
  }

  /** A Checkout Session in setup mode: the visitor saves a card to be charged later (kept as created). */
  async cardCheckout(
    accountId: string,
    input: { holdId: string; workspaceId: string; customerId: string; successUrl: string; cancelUrl: string },
  ): Promise<GatewayCheckout> {
    const session = await viaGateway(() =>
      this.accounts.gateway.checkoutSetup(accountId, {
        customerId: input.customerId,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        metadata: { purpose: 'booking', holdId: input.holdId, workspaceId: input.workspaceId },
      }),
    );
    await this.keep({
      checkoutId: session.id,
      accountId,
      holdId: input.holdId,
      workspaceId: input.workspaceId,
      mode: 'setup',
      amount: null,
      customerId: input.customerId,
    });
    return session;
  }

  private async keep(row: Omit<BookingCheckoutRow, 'currency' | 'createdAt'>) {
    await paymentsRepository(this.db).keepBookingCheckout(row);
  }

  /** The booked patient's card: the customer becomes theirs on the therapist's account, and its card is read back. */
  async adoptCard(c: BookingCardSaved, patientId: string, therapistId: string): Promise<void> {
    const holderKey = holderKeyOf({ kind: 'therapist', userId: therapistId });
    await paymentsRepository(this.db).insertCustomer({
      patientId,
      holderKey,
      workspaceId: c.workspaceId,
      accountId: c.accountId,
      customerId: c.customerId,
    });
    await this.cards.onSetupSucceeded(c.accountId, c.setupIntentId, c.at);
  }

  async refund(p: BookingPaid): Promise<void> {
    if (!p.paymentIntentId) return;
    await viaGateway(() =>
      this.accounts.gateway.refund(p.accountId, {
        paymentIntentId: p.paymentIntentId!,
        amount: p.amount,
        metadata: { purpose: 'booking', holdId: p.holdId },
        idempotencyKey: `booking-hold-${p.holdId}-refund`,
      }),
    );
  }

  /**
   * All of a booking's payment back, after the patient cancelled it. The idempotency key is the booking's:
   * a retried job never refunds twice.
   */
  async refundBooking(b: { bookingId: string; accountId: string; paymentIntentId: string; amount: number }): Promise<void> {
    await viaGateway(() =>
      this.accounts.gateway.refund(b.accountId, {
        paymentIntentId: b.paymentIntentId,
        amount: b.amount,
        metadata: { purpose: 'booking', bookingId: b.bookingId },
        idempotencyKey: `booking-${b.bookingId}-refund`,
      }),
    );
  }

  /** Booking's handler of a paid checkout: idempotent (the webhook may deliver an event again). */
  onPaid(handler: (p: BookingPaid) => Promise<void>) {
    this.paidHandler = handler;
  }

  onCardSaved(handler: (c: BookingCardSaved) => Promise<void>) {
    this.cardHandler = handler;
  }

  /**
   * Called by the webhook for every checkout event before it is recorded; a throw makes the provider
   * send it again. A booking's event counts only for a session created here, on the account it was
   * created on, for its amount (payment) or its customer (setup): the hold is the one kept then, not
   * the one the metadata names. Returns why an event was ignored, or null.
   */
  async checkoutEvent(type: string, accountId: string | null, o: Record<string, unknown>): Promise<string | null> {
    const meta = (o.metadata ?? {}) as Record<string, string>;
    const sessionId = idOf(o.id);
    const kept = sessionId ? await paymentsRepository(this.db).bookingCheckout(sessionId) : undefined;
    if (!kept) return meta.purpose === 'booking' ? `booking checkout session ${sessionId ?? '(none)'} was not created here` : null;
    const why = mismatchOf(kept, accountId, o);
    if (why) return why;
    if (kept.mode === 'setup') return this.setupEvent(type, kept, o);
    const paid =
      (type === 'checkout.session.completed' || type === 'checkout.session.async_payment_succeeded') && o.payment_status === 'paid';
    if (!paid || !this.paidHandler) return null;
    await this.paidHandler({
      holdId: kept.holdId,
      workspaceId: kept.workspaceId,
      accountId: kept.accountId,
      paymentIntentId: idOf(o.payment_intent),
      amount: kept.amount ?? 0,
    });
    return null;
  }

  private async setupEvent(type: string, kept: BookingCheckoutRow, o: Record<string, unknown>): Promise<null> {
    const setupIntentId = idOf(o.setup_intent);
    if (type !== 'checkout.session.completed' || !kept.customerId || !setupIntentId || !this.cardHandler) return null;
    const at = typeof o.created === 'number' ? new Date(o.created * 1000) : new Date();
    await this.cardHandler({
      holdId: kept.holdId,
      workspaceId: kept.workspaceId,
      accountId: kept.accountId,
      customerId: kept.customerId,
      setupIntentId,
      at,
    });
    return null;
  }
}

/** Why a checkout event is not about the session kept (another account, mode, amount, currency or customer), or null. */
function mismatchOf(kept: BookingCheckoutRow, accountId: string | null, o: Record<string, unknown>): string | null {
  if (accountId !== kept.accountId) return `connected account ${accountId ?? '(none)'} is not the booking checkout's ${kept.accountId}`;
  if (o.mode !== kept.mode) return `mode ${String(o.mode)} is not the booking checkout's ${kept.mode}`;
  if (kept.mode === 'setup')
    return idOf(o.customer) === kept.customerId
      ? null
      : `customer ${idOf(o.customer) ?? '(none)'} is not the booking checkout's ${kept.customerId}`;
  if (o.amount_total !== kept.amount) return `amount ${String(o.amount_total)} is not the booking checkout's ${kept.amount}`;
  if (typeof o.currency !== 'string' || o.currency.toLowerCase() !== kept.currency)
    return `currency ${String(o.currency)} is not the booking checkout's ${kept.currency}`;
  return null;
}
