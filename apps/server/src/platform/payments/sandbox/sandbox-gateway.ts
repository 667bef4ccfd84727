import type { Db, DbOrTx } from '../../db/database';
import type { Jobs } from '../../jobs/jobs';
import {
  GatewayCardError,
  type GatewayAccount,
  type GatewayCard,
  type GatewayCheckout,
  type GatewayEvent,
  type GatewayPaymentIntent,
  type GatewayRefund,
  type Metadata,
  type PaymentsGateway,
} from '../gateway';
import { confirmPayment, MIN_AMOUNT, newPaymentIntent, nowOf, refundPayment, type SandboxContext } from './sandbox-charges';
import { SandboxBilling } from './sandbox-billing';
import { SandboxHosted } from './sandbox-hosted';
import {
  newCheckoutSession,
  toGatewayAccount,
  toGatewayCard,
  toGatewayPaymentIntent,
  toGatewayRefund,
  type SandboxAccount,
  type SandboxAccountLink,
  type SandboxCheckoutSession,
  type SandboxCustomer,
  type SandboxPaymentIntent,
  type SandboxPaymentMethod,
  type SandboxRefund,
  type SandboxSetupIntent,
} from './sandbox-objects';
import {
  findByKey,
  findObject,
  getObject,
  insertObject,
  lockKey,
  newId,
  saveObject,
  SandboxRequestError,
  type StripeObject,
} from './sandbox-store';
import { SandboxWebhooks, type DeliveryOptions, type WebhookReceiver } from './sandbox-webhooks';

export type SandboxGatewayOptions = {
  db: Db;
  jobs: Jobs;
  /** The server's public origin: the hosted pages live under `${publicUrl}/sandbox/stripe/…`. */
  publicUrl: string;
  /** Signs the events the sandbox delivers; `verifyWebhook` checks them with it. */
  webhookSecret: string;
  /** Signs the platform's own events (Diván's billing, `billing.verifyWebhook`); unset: no billing events are delivered. */
  billingWebhookSecret?: string;
  clock?: () => Date;
  delivery?: DeliveryOptions;
};

/** Account Links expire unused after five minutes, as Stripe's do. */
const LINK_TTL_S = 300;

/**
 * The built-in provider (no Stripe keys): Stripe's test mode, in this server. Objects have Stripe's
 * shapes and live in `sandbox_stripe_objects`; the hosted pages (onboarding, Checkout, dashboard) are
 * `sandboxPagesRoutes`; events are signed like Stripe's and delivered by a job to `deliverTo`'s receiver.
 * Construct it before `jobs.start()` (it defines its delivery queue and an expiry sweep).
 */
export class SandboxGateway implements PaymentsGateway {
  readonly provider = 'sandbox' as const;
  readonly mode = 'test' as const;
  /** The hosted pages' actions (`sandboxPagesRoutes` calls them). */
  readonly hosted: SandboxHosted;
  /** Stripe Billing on the platform account: Diván's own plans. */
  readonly billing: SandboxBilling;
  private readonly db: Db;
  private readonly webhooks: SandboxWebhooks;
  private readonly ctx: SandboxContext;
  private readonly base: string;

  constructor(opts: SandboxGatewayOptions) {
    this.db = opts.db;
    this.base = `${opts.publicUrl.replace(/\/+$/, '')}/sandbox/stripe`;
    this.webhooks = new SandboxWebhooks(opts.db, opts.jobs, opts.webhookSecret, {
      ...opts.delivery,
      ...(opts.billingWebhookSecret ? { platformSecret: opts.billingWebhookSecret } : {}),
    });
    this.ctx = { webhooks: this.webhooks, clock: opts.clock ?? (() => new Date()) };
    this.hosted = new SandboxHosted(opts.db, this.ctx);
    this.billing = new SandboxBilling(opts.db, this.ctx, this.webhooks, this.base);
    opts.jobs.sweep('payments.sandbox-checkout-expiry', () => this.hosted.expireSessions());
  }

  /** Where events go: the app's webhook handler (it throws unless it took the event; then the job retries). */
  deliverTo(receiver: WebhookReceiver) {
    this.webhooks.deliverTo(receiver);
  }

  /** Where the platform's own events go: the billing module's endpoint handler. */
  deliverBillingTo(receiver: WebhookReceiver) {
    this.webhooks.deliverPlatformTo(receiver);
  }

  /** An event's body and signature as delivered (tests, and a person replaying one by hand). */
  signedEvent(eventId: string) {
    return this.webhooks.signed(eventId);
  }

  async createAccount(input: { email: string | null; businessName: string | null; metadata: Metadata }): Promise<GatewayAccount> {
    const id = newId('acct_');
    const account: SandboxAccount = {
      id,
      object: 'account',
      type: 'express',
      country: 'ES',
      default_currency: 'eur',
      email: input.email,
      business_profile: { name: input.businessName },
      details_submitted: false,
      charges_enabled: false,
      payouts_enabled: false,
      capabilities: { card_payments: 'inactive', transfers: 'inactive' },
      requirements: {
        currently_due: ['business_profile.name', 'external_account', 'tos_acceptance.date'],
        disabled_reason: 'requirements.past_due',
      },
      external_accounts: { object: 'list', data: [] },
      metadata: { ...input.metadata },
      created: nowOf(this.ctx),
      livemode: false,
    };
    return toGatewayAccount(await insertObject(this.db, account, { account: id }));
  }

  async retrieveAccount(accountId: string): Promise<GatewayAccount> {
    return toGatewayAccount(await this.account(accountId));
  }

  async onboardingLink(accountId: string, urls: { refreshUrl: string; returnUrl: string }): Promise<{ url: string }> {
    await this.account(accountId);
    const id = newId('acctlink_');
    const now = nowOf(this.ctx);
    const link: SandboxAccountLink = {
      id,
      object: 'account_link',
      account: accountId,
      type: 'account_onboarding',
      url: `${this.base}/connect/${id}`,
      created: now,
      expires_at: now + LINK_TTL_S,
      refresh_url: urls.refreshUrl,
      return_url: urls.returnUrl,
      opened_at: null,
      used_at: null,
      livemode: false,
    };
    await insertObject(this.db, link, { account: accountId });
    return { url: link.url };
  }

  async dashboardLink(accountId: string): Promise<{ url: string }> {
    const account = await this.account(accountId);
    if (!account.details_submitted)
      throw new SandboxRequestError('account_invalid', 'Cannot create a login link for an account that has not completed onboarding.');
    return { url: `${this.base}/dashboard/${accountId}` };
  }

  async createCustomer(accountId: string, input: { email: string | null; name: string; metadata: Metadata }): Promise<{ id: string }> {
    await this.account(accountId);
    const customer: SandboxCustomer = {
      id: newId('cus_'),
      object: 'customer',
      email: input.email,
      name: input.name,
      metadata: { ...input.metadata },
      created: nowOf(this.ctx),
      livemode: false,
    };
    await insertObject(this.db, customer, { account: accountId });
    return { id: customer.id };
  }

  async checkoutSetup(
    accountId: string,
    input: { customerId: string; successUrl: string; cancelUrl: string; metadata: Metadata },
  ): Promise<GatewayCheckout> {
    await this.chargingAccount(accountId);
    await getObject(this.db, 'customer', input.customerId, { account: accountId });
    const session = newCheckoutSession(
      { mode: 'setup', customer: input.customerId, customerEmail: null, amount: null, description: null, ...input },
      this.base,
      nowOf(this.ctx),
    );
    await insertObject(this.db, session, { account: accountId });
    return { id: session.id, url: session.url! };
  }

  async checkoutPayment(
    accountId: string,
    input: {
      customerId: string | null;
      customerEmail: string | null;
      amount: number;
      description: string;
      successUrl: string;
      cancelUrl: string;
      metadata: Metadata;
      idempotencyKey: string;
    },
  ): Promise<GatewayCheckout> {
    const session = await this.db.transaction(async (tx) => {
      await lockKey(tx, accountId, input.idempotencyKey);
      const existing = await findByKey<SandboxCheckoutSession>(tx, accountId, input.idempotencyKey);
      if (existing) return this.replayed(existing, 'checkout.session', input.idempotencyKey, existing.amount_total === input.amount);
      await this.chargingAccount(accountId, tx);
      if (input.customerId) await getObject(tx, 'customer', input.customerId, { account: accountId });
      checkAmount(input.amount);
      const s = newCheckoutSession({ mode: 'payment', ...input, customer: input.customerId }, this.base, nowOf(this.ctx));
      return insertObject(tx, s, { account: accountId, idempotencyKey: input.idempotencyKey });
    });
    return { id: session.id, url: session.url ?? `${this.base}/checkout/${session.id}` };
  }

  async setupIntentCard(accountId: string, setupIntentId: string): Promise<{ customerId: string | null; card: GatewayCard | null }> {
    const si = await getObject<SandboxSetupIntent>(this.db, 'setup_intent', setupIntentId, { account: accountId });
    const pm = si.payment_method
      ? await findObject<SandboxPaymentMethod>(this.db, 'payment_method', si.payment_method, { account: accountId })
      : null;
    return { customerId: si.customer, card: pm ? toGatewayCard(pm) : null };
  }

  async retrievePaymentMethod(accountId: string, paymentMethodId: string): Promise<GatewayCard> {
    return toGatewayCard(
      await getObject<SandboxPaymentMethod>(this.db, 'payment_method', paymentMethodId, { account: accountId, what: 'PaymentMethod' }),
    );
  }

  async detachPaymentMethod(accountId: string, paymentMethodId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const pm = await getObject<SandboxPaymentMethod>(tx, 'payment_method', paymentMethodId, {
        account: accountId,
        lock: true,
        what: 'PaymentMethod',
      });
      if (!pm.customer)
        throw new SandboxRequestError(
          'payment_method_unexpected_state',
          'The payment method you provided is not attached to a customer so detachment is impossible.',
        );
      pm.customer = null;
      await saveObject(tx, pm);
      await this.webhooks.emit(tx, accountId, 'payment_method.detached', pm, nowOf(this.ctx));
    });
  }

  async chargeOffSession(
    accountId: string,
    input: { customerId: string; paymentMethodId: string; amount: number; description: string; metadata: Metadata; idempotencyKey: string },
  ): Promise<GatewayPaymentIntent> {
    const pi = await this.db.transaction(async (tx) => {
      await lockKey(tx, accountId, input.idempotencyKey);
      const existing = await findByKey<SandboxPaymentIntent>(tx, accountId, input.idempotencyKey);
      if (existing)
        return this.replayed(
          existing,
          'payment_intent',
          input.idempotencyKey,
          existing.amount === input.amount && existing.payment_method === input.paymentMethodId,
        );
      await this.chargingAccount(accountId, tx);
      await getObject(tx, 'customer', input.customerId, { account: accountId });
      const pm = await getObject<SandboxPaymentMethod>(tx, 'payment_method', input.paymentMethodId, {
        account: accountId,
        what: 'PaymentMethod',
      });
      if (pm.customer !== input.customerId)
        throw new SandboxRequestError(
          'payment_method_unexpected_state',
          `The provided PaymentMethod (${pm.id}) is not attached to the customer ${input.customerId}.`,
        );
      checkAmount(input.amount);
      const created = newPaymentIntent({
        amount: input.amount,
        customer: input.customerId,
        description: input.description,
        metadata: input.metadata,
        created: nowOf(this.ctx),
      });
      await insertObject(tx, created, { account: accountId, idempotencyKey: input.idempotencyKey });
      return confirmPayment(tx, this.ctx, accountId, created, pm, 'off');
    });
    // Like Stripe's 402: the PaymentIntent was stored (and its event sent); the caller gets the card's error.
    if (pi.last_payment_error && pi.status !== 'succeeded') {
      const e = pi.last_payment_error;
      throw new GatewayCardError(e.code, e.decline_code, toGatewayPaymentIntent(pi), e.message);
    }
    return toGatewayPaymentIntent(pi);
  }

  async retrievePaymentIntent(accountId: string, paymentIntentId: string): Promise<GatewayPaymentIntent> {
    return toGatewayPaymentIntent(
      await getObject<SandboxPaymentIntent>(this.db, 'payment_intent', paymentIntentId, { account: accountId }),
    );
  }

  async cancelPaymentIntent(accountId: string, paymentIntentId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const pi = await getObject<SandboxPaymentIntent>(tx, 'payment_intent', paymentIntentId, { account: accountId, lock: true });
      if (pi.status === 'succeeded' || pi.status === 'canceled')
        throw new SandboxRequestError(
          'payment_intent_unexpected_state',
          `You cannot cancel this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
        );
      Object.assign(pi, { status: 'canceled', canceled_at: nowOf(this.ctx), next_action: null });
      await saveObject(tx, pi);
      await this.webhooks.emit(tx, accountId, 'payment_intent.canceled', pi, nowOf(this.ctx));
    });
  }

  async refund(
    accountId: string,
    input: { paymentIntentId: string; amount: number; metadata: Metadata; idempotencyKey: string },
  ): Promise<GatewayRefund> {
    const refund = await this.db.transaction(async (tx) => {
      await lockKey(tx, accountId, input.idempotencyKey);
      const existing = await findByKey<SandboxRefund>(tx, accountId, input.idempotencyKey);
      if (existing)
        return this.replayed(
          existing,
          'refund',
          input.idempotencyKey,
          existing.payment_intent === input.paymentIntentId && (input.amount == null || existing.amount === input.amount),
        );
      const pi = await getObject<SandboxPaymentIntent>(tx, 'payment_intent', input.paymentIntentId, { account: accountId, lock: true });
      return refundPayment(tx, this.ctx, accountId, pi, {
        amount: input.amount ?? undefined,
        metadata: input.metadata,
        idempotencyKey: input.idempotencyKey,
      });
    });
    return toGatewayRefund(refund);
  }

  verifyWebhook(rawBody: Buffer | string, signature: string | undefined): Promise<GatewayEvent> {
    return this.webhooks.verify(rawBody, signature);
  }

  private account(id: string, db: DbOrTx = this.db) {
    return getObject<SandboxAccount>(db, 'account', id, { account: id });
  }

  /** An account that may take card payments (onboarding completed), as Stripe requires of a direct charge's account. */
  private async chargingAccount(id: string, db: DbOrTx = this.db) {
    const account = await this.account(id, db);
    if (!account.charges_enabled)
      throw new SandboxRequestError(
        'account_invalid',
        `The account ${id} cannot take card payments yet: its onboarding is not complete (card_payments capability inactive).`,
      );
    return account;
  }

  /** An idempotent replay: the first request's object, unless the key was used for another request (Stripe's idempotency_error). */
  private replayed<T extends StripeObject>(existing: T, type: string, key: string, sameRequest: boolean): T {
    if (existing.object !== type || !sameRequest)
      throw new SandboxRequestError(
        'idempotency_key_in_use',
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      );
    return existing;
  }
}

function checkAmount(amount: number) {
  if (!Number.isSafeInteger(amount) || amount < MIN_AMOUNT)
    throw new SandboxRequestError('amount_too_small', 'Amount must be at least €0.50 eur');
}
