import type { FastifyBaseLogger } from 'fastify';
import type { PlatformBilling } from '../../platform/billing/platform-billing';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { GatewayEvent } from '../../platform/payments/gateway';
import type { BillingSync } from './billing-sync';
import { toNotify } from './billing-sync';
import { billingRepository } from './billing.repository';
import type { SubscriptionLock } from './subscription-lock';

type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : null);
const idOf = (v: unknown) => (typeof v === 'string' ? v : v && typeof v === 'object' ? str((v as Obj).id) : null);

/**
 * The subscription an event is about: the subscription itself, its schedule (a change waiting for the
 * renewal made, released or done), a subscription Checkout, or an invoice of one.
 */
function subscriptionOfEvent(event: GatewayEvent): string | null {
  const o = event.object;
  if (event.type.startsWith('customer.subscription.')) return str(o.id);
  if (event.type.startsWith('subscription_schedule.')) return idOf(o.subscription) ?? idOf(o.released_subscription);
  if (event.type === 'checkout.session.completed') return o.mode === 'subscription' ? idOf(o.subscription) : null;
  if (event.type.startsWith('invoice.')) {
    const parent = o.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
    return idOf(parent?.subscription_details?.subscription) ?? idOf(o.subscription);
  }
  return null;
}

/**
 * The platform endpoint (`POST /api/v1/billing/webhook`): the signature checked over the raw body, each
 * event taken once (`billing_events`), and the subscription it names read again from the provider — so
 * replays and events out of order end in the same state — then applied by BillingSync.
 */
export class BillingWebhooks {
  constructor(
    private readonly d: {
      db: Db;
      billing: PlatformBilling | null;
      sync: BillingSync;
      lock: SubscriptionLock;
      log: FastifyBaseLogger;
      /** After a subscription was applied: its quantity checked against the members (the database is the truth). */
      afterSync: (workspaceId: string) => Promise<unknown>;
      /** A charge paid (`invoice.paid`): Diván's invoice for it, once per provider invoice (safe to call again). */
      invoicePaid: (providerInvoiceId: string) => Promise<string>;
      /** A charge paid: a referred friend's first one earns their referrer a month off (once, whatever the replays). */
      chargePaid: (providerInvoiceId: string) => Promise<string>;
      /** A gift's Checkout paid: the gift made redeemable, invoiced and mailed (safe to call again). */
      giftPaid: (checkoutSessionId: string) => Promise<string>;
      /** A customer's tax id made or checked (`customer.tax_id.*`): its VIES verdict kept (safe to call again). */
      taxIdChecked: (customerId: string, taxIdId: string) => Promise<string>;
      /** A charge declined (`invoice.payment_failed`): the owner mailed once per invoice. */
      paymentFailed: (providerInvoiceId: string) => Promise<string>;
    },
  ) {}

  async receive(raw: Buffer | string, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    const billing = this.d.billing;
    if (!billing) throw new AppError('billing_unavailable');
    let event: GatewayEvent;
    try {
      event = await billing.verifyWebhook(raw, signature);
    } catch {
      throw new AppError('webhook_signature_invalid');
    }
    // A platform endpoint takes no connected account's event.
    if (event.account) return this.ignore(event, 'connected account event on the platform endpoint');
    if (event.type === 'checkout.session.completed' && event.object.mode === 'payment') {
      const taken = await this.ignore(event, null, 'a gift’s payment');
      // Also for a replay: a delivery whose gift failed to finish is answered with an error, and redelivered.
      const sessionId = str(event.object.id);
      const outcome = sessionId ? await this.d.giftPaid(sessionId) : 'no session id';
      if (outcome !== 'paid')
        this.d.log.warn({ eventId: event.id, reason: outcome }, 'billing: a payment Checkout that is no gift of ours');
      return taken;
    }
    if (event.type.startsWith('customer.tax_id.')) {
      const taken = await this.ignore(event, null, 'a tax id’s VIES check');
      // Read again whatever the event's age: the latest verdict, also for a replay.
      const customerId = idOf(event.object.customer);
      const taxIdId = str(event.object.id);
      const outcome = customerId && taxIdId ? await this.d.taxIdChecked(customerId, taxIdId) : 'no customer or tax id';
      this.d.log.info({ eventId: event.id, outcome }, 'billing: tax id event');
      return taken;
    }
    const subscriptionId = subscriptionOfEvent(event);
    if (!subscriptionId) return this.ignore(event, null);
    const notify = toNotify();
    // The read and what it writes are one turn for this subscription: a change made from Diván's screens
    // meanwhile waits, so this read, however old, never lands after it. Read from the provider before the
    // transaction (PGlite: one connection): the latest state, whatever this event's age.
    const taken = await this.d.lock.run(subscriptionId, async () => {
      const sub = await billing.retrieveSubscription(subscriptionId);
      return this.d.db.transaction(async (tx) => {
        const repo = billingRepository(tx);
        if (!(await repo.recordEvent({ eventId: event.id, type: event.type, created: event.created, ignored: null }))) return false;
        const checkoutSessionId = event.type === 'checkout.session.completed' ? str(event.object.id) : null;
        const why = await this.d.sync.apply(tx, sub, notify, { checkoutSessionId });
        if (why) {
          await repo.setEventIgnored(event.id, why);
          this.d.log.warn({ eventId: event.id, type: event.type, reason: why }, 'billing webhook event ignored');
        }
        return true;
      });
    });
    this.d.sync.tell(notify);
    if (taken && notify.workspaceId) await this.d.afterSync(notify.workspaceId);
    // Also for a replay: a delivery whose invoice failed is answered with an error, and the provider's retry issues it.
    if (event.type === 'invoice.paid') {
      const invoiceId = str(event.object.id);
      const outcome = invoiceId ? await this.d.invoicePaid(invoiceId) : 'no invoice id';
      if (outcome !== 'issued' && outcome !== 'duplicate')
        this.d.log.warn({ eventId: event.id, reason: outcome }, 'billing: no Diván invoice for this charge');
      if (invoiceId) await this.d.chargePaid(invoiceId);
    }
    if (event.type === 'invoice.payment_failed' && taken) {
      const invoiceId = str(event.object.id);
      const outcome = invoiceId ? await this.d.paymentFailed(invoiceId) : 'no invoice id';
      if (outcome !== 'mailed') this.d.log.warn({ eventId: event.id, reason: outcome }, 'billing: no mail for this declined charge');
    }
    return { received: true, duplicate: !taken };
  }

  private async ignore(
    event: GatewayEvent,
    why: string | null,
    what = 'not about a subscription',
  ): Promise<{ received: true; duplicate: boolean }> {
    const taken = await billingRepository(this.d.db).recordEvent({
      eventId: event.id,
      type: event.type,
      created: event.created,
      ignored: why ?? what,
    });
    if (why) this.d.log.warn({ eventId: event.id, type: event.type, reason: why }, 'billing webhook event ignored');
    return { received: true, duplicate: !taken };
  }
}
