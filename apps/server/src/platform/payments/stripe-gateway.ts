/**
 * PaymentsGateway on Stripe, through the official SDK (decision 0017). Connect with Express accounts
 * in Spain and direct charges: everything about a patient (customer, card, payments, refunds) lives on
 * the seller's connected account, so those calls send `Stripe-Account` (`stripeAccount`). Charges and
 * refunds carry the caller's idempotency key; the SDK keys its own retries of other POSTs.
 */
import type Stripe from 'stripe';
import type { StripeConfig } from '../config';
import {
  GatewayUnavailableError,
  type GatewayAccount,
  type GatewayCard,
  type GatewayCheckout,
  type GatewayEvent,
  type GatewayPaymentIntent,
  type GatewayRefund,
  type Metadata,
  type PaymentsGateway,
} from './gateway';
import { toAccount, toCard, toPaymentIntent, toRefund } from './stripe-mapping';
import { apiBaseOptions, StripeClient, stripeMode, type StripeClientOptions } from './stripe-client';
import type { StripeSdk } from './stripe-sdk';

/** Tuning for tests; production uses the defaults. */
export type StripeGatewayOptions = StripeClientOptions;
export { apiBaseOptions, stripeMode };

const onAccount = (accountId: string, idempotencyKey?: string): Stripe.RequestOptions =>
  idempotencyKey ? { stripeAccount: accountId, idempotencyKey } : { stripeAccount: accountId };

/** Stripe leaves out a parameter sent as undefined; null would be sent as '' (a reset). */
const orUndefined = <T>(v: T | null): T | undefined => v ?? undefined;

export class StripeGateway implements PaymentsGateway {
  readonly provider = 'stripe' as const;
  readonly mode: 'test' | 'live';
  private readonly api: StripeClient;

  constructor(config: StripeConfig, options: StripeGatewayOptions = {}) {
    this.api = new StripeClient(config.secretKey, config.webhookSecret, config.apiBase, options);
    this.mode = this.api.mode;
  }

  /** Runs one SDK call, its errors in the gateway's terms. */
  private call<T>(fn: (stripe: Stripe, sdk: StripeSdk) => Promise<T>): Promise<T> {
    return this.api.call(fn);
  }

  createAccount(input: { email: string | null; businessName: string | null; metadata: Metadata }): Promise<GatewayAccount> {
    return this.call(async (stripe) =>
      toAccount(
        await stripe.accounts.create({
          type: 'express',
          country: 'ES',
          email: orUndefined(input.email),
          business_profile: input.businessName ? { name: input.businessName } : undefined,
          capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          metadata: input.metadata,
        }),
      ),
    );
  }

  retrieveAccount(accountId: string): Promise<GatewayAccount> {
    return this.call(async (stripe) => toAccount(await stripe.accounts.retrieve(accountId)));
  }

  onboardingLink(accountId: string, urls: { refreshUrl: string; returnUrl: string }): Promise<{ url: string }> {
    return this.call(async (stripe) => {
      const link = await stripe.accountLinks.create({
        account: accountId,
        refresh_url: urls.refreshUrl,
        return_url: urls.returnUrl,
        type: 'account_onboarding',
      });
      return { url: link.url };
    });
  }

  dashboardLink(accountId: string): Promise<{ url: string }> {
    return this.call(async (stripe) => ({ url: (await stripe.accounts.createLoginLink(accountId)).url }));
  }

  createCustomer(accountId: string, input: { email: string | null; name: string; metadata: Metadata }): Promise<{ id: string }> {
    return this.call(async (stripe) => {
      const customer = await stripe.customers.create(
        { email: orUndefined(input.email), name: input.name, metadata: input.metadata },
        onAccount(accountId),
      );
      return { id: customer.id };
    });
  }

  checkoutSetup(
    accountId: string,
    input: { customerId: string; successUrl: string; cancelUrl: string; metadata: Metadata },
  ): Promise<GatewayCheckout> {
    return this.call(async (stripe) => {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'setup',
          currency: 'eur',
          // API 2026-09-30 (SDK 23) replaced `payment_method_types` by this filter.
          allowed_payment_method_types: ['card'],
          customer: input.customerId,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata: input.metadata,
          setup_intent_data: { metadata: input.metadata },
        },
        onAccount(accountId),
      );
      return checkout(session);
    });
  }

  checkoutPayment(
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
    return this.call(async (stripe) => {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            { price_data: { currency: 'eur', unit_amount: input.amount, product_data: { name: input.description } }, quantity: 1 },
          ],
          payment_intent_data: { metadata: input.metadata, ...(input.customerId ? { setup_future_usage: 'off_session' as const } : {}) },
          ...(input.customerId ? { customer: input.customerId } : { customer_email: orUndefined(input.customerEmail) }),
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata: input.metadata,
        },
        onAccount(accountId, input.idempotencyKey),
      );
      return checkout(session);
    });
  }

  setupIntentCard(accountId: string, setupIntentId: string): Promise<{ customerId: string | null; card: GatewayCard | null }> {
    return this.call(async (stripe) => {
      const si = await stripe.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] }, onAccount(accountId));
      const customer = si.customer;
      const customerId = typeof customer === 'string' ? customer : (customer?.id ?? null);
      let pm = si.payment_method;
      if (typeof pm === 'string') pm = await stripe.paymentMethods.retrieve(pm, {}, onAccount(accountId));
      return { customerId, card: pm ? toCard(pm) : null };
    });
  }

  retrievePaymentMethod(accountId: string, paymentMethodId: string): Promise<GatewayCard> {
    return this.call(async (stripe) => {
      const pm = await stripe.paymentMethods.retrieve(paymentMethodId, {}, onAccount(accountId));
      const card = toCard(pm);
      if (!card) throw new GatewayUnavailableError(`Stripe payment method ${pm.id} is a ${pm.type}, not a card`);
      return card;
    });
  }

  detachPaymentMethod(accountId: string, paymentMethodId: string): Promise<void> {
    return this.call(async (stripe) => {
      await stripe.paymentMethods.detach(paymentMethodId, {}, onAccount(accountId));
    });
  }

  chargeOffSession(
    accountId: string,
    input: { customerId: string; paymentMethodId: string; amount: number; description: string; metadata: Metadata; idempotencyKey: string },
  ): Promise<GatewayPaymentIntent> {
    return this.call(async (stripe) =>
      toPaymentIntent(
        await stripe.paymentIntents.create(
          {
            amount: input.amount,
            currency: 'eur',
            customer: input.customerId,
            payment_method: input.paymentMethodId,
            off_session: true,
            confirm: true,
            description: input.description,
            metadata: input.metadata,
          },
          onAccount(accountId, input.idempotencyKey),
        ),
      ),
    );
  }

  retrievePaymentIntent(accountId: string, paymentIntentId: string): Promise<GatewayPaymentIntent> {
    return this.call(async (stripe) => toPaymentIntent(await stripe.paymentIntents.retrieve(paymentIntentId, {}, onAccount(accountId))));
  }

  /** Cancels a PaymentIntent; one already canceled is fine. */
  cancelPaymentIntent(accountId: string, paymentIntentId: string): Promise<void> {
    return this.call(async (stripe, sdk) => {
      try {
        await stripe.paymentIntents.cancel(paymentIntentId, {}, onAccount(accountId));
      } catch (err) {
        const alreadyCanceled =
          err instanceof sdk.errors.StripeInvalidRequestError &&
          err.code === 'payment_intent_unexpected_state' &&
          err.payment_intent?.status === 'canceled';
        if (!alreadyCanceled) throw err;
      }
    });
  }

  refund(
    accountId: string,
    input: { paymentIntentId: string; amount: number; metadata: Metadata; idempotencyKey: string },
  ): Promise<GatewayRefund> {
    return this.call(async (stripe) =>
      toRefund(
        await stripe.refunds.create(
          { payment_intent: input.paymentIntentId, amount: input.amount, metadata: input.metadata },
          onAccount(accountId, input.idempotencyKey),
        ),
      ),
    );
  }

  /** Checks the `Stripe-Signature` header over the raw body (5 minutes' tolerance); rejects otherwise. */
  verifyWebhook(rawBody: Buffer | string, signature: string | undefined): Promise<GatewayEvent> {
    return this.api.verify(rawBody, signature);
  }
}

function checkout(session: Stripe.Checkout.Session): GatewayCheckout {
  if (!session.url) throw new GatewayUnavailableError(`Stripe checkout session ${session.id} has no url`);
  return { id: session.id, url: session.url };
}
