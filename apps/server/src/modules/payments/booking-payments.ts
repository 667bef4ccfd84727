import type { Db } from '../../platform/db/database';
import type { GatewayCheckout } from '../../platform/payments/gateway';
import { holderKeyOf, viaGateway, type PaymentAccounts } from './payment-accounts';
import type { PatientCards } from './patient-cards';
import { patientCards } from './payments.tables';

/** A booking's checkout completed and paid (from the webhook): the hold it pays for and the money's trace. */
export type BookingPaid = { holdId: string; workspaceId: string; accountId: string; paymentIntentId: string | null; amount: number };

/** A booking's setup checkout completed (service payment `card`): the customer whose card was saved. */
export type BookingCardSaved = { holdId: string; workspaceId: string; accountId: string; customerId: string; setupIntentId: string; at: Date };

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

  checkout(accountId: string, input: { holdId: string; workspaceId: string; amount: number; email: string; description: string; successUrl: string; cancelUrl: string }): Promise<GatewayCheckout> {
    return viaGateway(() =>
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
  }

  /**
   * The customer a visitor saves their card as, on the therapist's account (where patients' cards
   * live): a known patient's own; for a newcomer one without a patient yet, adopted once booked.
   */
  async customerFor(accountId: string, therapistId: string, workspaceId: string, who: { patientId: string | null; name: string; email: string; holdId: string }): Promise<string> {
    const key = holderKeyOf({ kind: 'therapist', userId: therapistId });
    if (who.patientId) return this.cards.customerFor({ id: who.patientId, name: who.name, email: who.email }, workspaceId, key, accountId);
    return (await viaGateway(() => this.accounts.gateway.createCustomer(accountId, { email: who.email, name: who.name, metadata: { holdId: who.holdId, workspaceId } }))).id;
  }

  /** A Checkout Session in setup mode: the visitor saves a card to be charged later. */
  cardCheckout(accountId: string, input: { holdId: string; workspaceId: string; customerId: string; successUrl: string; cancelUrl: string }): Promise<GatewayCheckout> {
    return viaGateway(() =>
      this.accounts.gateway.checkoutSetup(accountId, {
        customerId: input.customerId,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        metadata: { purpose: 'booking', holdId: input.holdId, workspaceId: input.workspaceId },
      }),
    );
  }

  /** The booked patient's card: the customer becomes theirs on the therapist's account, and its card is read back. */
  async adoptCard(c: BookingCardSaved, patientId: string, therapistId: string): Promise<void> {
    const holderKey = holderKeyOf({ kind: 'therapist', userId: therapistId });
    await this.db.insert(patientCards).values({ patientId, holderKey, workspaceId: c.workspaceId, accountId: c.accountId, customerId: c.customerId }).onConflictDoNothing();
    await this.cards.onSetupSucceeded(c.accountId, c.setupIntentId, c.at);
  }

  async refund(p: BookingPaid): Promise<void> {
    if (!p.paymentIntentId) return;
    await viaGateway(() => this.accounts.gateway.refund(p.accountId, { paymentIntentId: p.paymentIntentId!, amount: p.amount, metadata: { purpose: 'booking', holdId: p.holdId }, idempotencyKey: `booking-hold-${p.holdId}-refund` }));
  }

  /**
   * All of a booking's payment back, after the patient cancelled it. The idempotency key is the booking's:
   * a retried job never refunds twice.
   */
  async refundBooking(b: { bookingId: string; accountId: string; paymentIntentId: string; amount: number }): Promise<void> {
    await viaGateway(() => this.accounts.gateway.refund(b.accountId, { paymentIntentId: b.paymentIntentId, amount: b.amount, metadata: { purpose: 'booking', bookingId: b.bookingId }, idempotencyKey: `booking-${b.bookingId}-refund` }));
  }

  /** Booking's handler of a paid checkout: idempotent (the webhook may deliver an event again). */
  onPaid(handler: (p: BookingPaid) => Promise<void>) {
    this.paidHandler = handler;
  }

  onCardSaved(handler: (c: BookingCardSaved) => Promise<void>) {
    this.cardHandler = handler;
  }

  /** Called by the webhook for every checkout event before it is recorded; a throw makes the provider send it again. */
  async checkoutEvent(type: string, accountId: string | null, o: Record<string, unknown>): Promise<void> {
    const meta = (o.metadata ?? {}) as Record<string, string>;
    if (meta.purpose !== 'booking' || !meta.holdId || !meta.workspaceId || !accountId) return;
    if (o.mode === 'setup') return this.setupEvent(type, accountId, o, meta);
    if (o.mode !== 'payment') return;
    const paid = (type === 'checkout.session.completed' || type === 'checkout.session.async_payment_succeeded') && o.payment_status === 'paid';
    if (!paid || !this.paidHandler) return;
    const intent = o.payment_intent;
    const paymentIntentId = typeof intent === 'string' ? intent : intent && typeof intent === 'object' ? String((intent as { id: unknown }).id) : null;
    await this.paidHandler({ holdId: meta.holdId, workspaceId: meta.workspaceId, accountId, paymentIntentId, amount: typeof o.amount_total === 'number' ? o.amount_total : 0 });
  }

  private async setupEvent(type: string, accountId: string, o: Record<string, unknown>, meta: Record<string, string>) {
    const idOf = (v: unknown) => (typeof v === 'string' ? v : v && typeof v === 'object' ? String((v as { id: unknown }).id) : null);
    const [customerId, setupIntentId] = [idOf(o.customer), idOf(o.setup_intent)];
    if (type !== 'checkout.session.completed' || !customerId || !setupIntentId || !this.cardHandler) return;
    const at = typeof o.created === 'number' ? new Date(o.created * 1000) : new Date();
    await this.cardHandler({ holdId: meta.holdId!, workspaceId: meta.workspaceId!, accountId, customerId, setupIntentId, at });
  }
}
