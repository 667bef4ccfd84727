/**
 * The card payment provider (spec §1), behind one interface with two implementations: Stripe through
 * its official SDK (STRIPE_SECRET_KEY set) and the built-in sandbox that behaves like Stripe's test
 * mode (no keys: `npm start` works, and the screens say «modo de prueba»).
 *
 * Every charge happens on the seller's connected account (Stripe Connect, Express accounts, direct
 * charges: the `Stripe-Account` header), so each call names the `account`. Nothing here touches the
 * database of the app: the payments module keeps its own rows and learns outcomes from webhooks.
 * Objects and events have Stripe's shapes (ids, statuses, `metadata`), so one webhook handler serves both.
 */
export type PaymentsProvider = 'stripe' | 'sandbox';

export type GatewayAccount = {
  id: string;
  detailsSubmitted: boolean;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
};

export type GatewayCard = { paymentMethodId: string; brand: string; last4: string; expMonth: number; expYear: number };

export type Metadata = Record<string, string>;

/** A hosted page (Checkout Session): where to send the payer, and its id (events carry it). */
export type GatewayCheckout = { id: string; url: string };

export type PaymentIntentStatus = 'processing' | 'requires_action' | 'requires_payment_method' | 'succeeded' | 'canceled';
export type GatewayPaymentIntent = {
  id: string;
  status: PaymentIntentStatus;
  amount: number;
  /** Stripe's decline or error code of the last attempt (`card_declined`, `authentication_required`…). */
  errorCode: string | null;
  /** The card issuer's decline reason (`insufficient_funds`…), when given. */
  declineCode: string | null;
  metadata: Metadata;
};

export type GatewayRefund = {
  id: string;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  amount: number;
  paymentIntentId: string;
  metadata: Metadata;
};

/**
 * A verified webhook event in Stripe's shape: `account` is the connected account it happened on
 * (null for the platform's own), `object` is `data.object` as sent.
 */
export type GatewayEvent = { id: string; type: string; account: string | null; created: number; object: Record<string, unknown> };

/** A card error the provider answered with (declined, authentication required): not a failure of ours. */
export class GatewayCardError extends Error {
  constructor(
    readonly code: string,
    readonly declineCode: string | null,
    /** The PaymentIntent left behind (Stripe returns it on the error), when there is one. */
    readonly paymentIntent: GatewayPaymentIntent | null,
    message: string,
  ) {
    super(message);
    this.name = 'GatewayCardError';
  }
}

/** The provider could not be reached or answered unexpectedly (5xx, network, bad key): retry later. */
export class GatewayUnavailableError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'GatewayUnavailableError';
  }
}

export interface PaymentsGateway {
  readonly provider: PaymentsProvider;
  /** `test` for the sandbox and for Stripe test keys (sk_test_…). */
  readonly mode: 'test' | 'live';

  /** An Express connected account in Spain for a therapist or a workspace. */
  createAccount(input: { email: string | null; businessName: string | null; metadata: Metadata }): Promise<GatewayAccount>;
  retrieveAccount(accountId: string): Promise<GatewayAccount>;
  /** Onboarding (Account Link, type account_onboarding): single use, short-lived. */
  onboardingLink(accountId: string, urls: { refreshUrl: string; returnUrl: string }): Promise<{ url: string }>;
  /** The Express dashboard (Login Link). */
  dashboardLink(accountId: string): Promise<{ url: string }>;

  /** A customer on the connected account (the patient). */
  createCustomer(accountId: string, input: { email: string | null; name: string; metadata: Metadata }): Promise<{ id: string }>;
  /**
   * Checkout Session in `setup` mode on the connected account: the patient saves a card for charges
   * without them present (`setup_intent_data.usage` off_session is implied by setup mode).
   */
  checkoutSetup(
    accountId: string,
    input: { customerId: string; successUrl: string; cancelUrl: string; metadata: Metadata },
  ): Promise<GatewayCheckout>;
  /** Checkout Session in `payment` mode: pay one invoice (its total, in euros) from a link. */
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
  ): Promise<GatewayCheckout>;
  /** The card a SetupIntent saved (from a `checkout.session.completed` in setup mode, or `setup_intent.succeeded`). */
  setupIntentCard(accountId: string, setupIntentId: string): Promise<{ customerId: string | null; card: GatewayCard | null }>;
  retrievePaymentMethod(accountId: string, paymentMethodId: string): Promise<GatewayCard>;
  /** Detaches a saved card from its customer. */
  detachPaymentMethod(accountId: string, paymentMethodId: string): Promise<void>;

  /**
   * An off-session charge with a saved card, confirmed at once (`off_session: true, confirm: true`).
   * The same `idempotencyKey` always answers the same PaymentIntent, so a double click charges once.
   * A declined card or a bank asking for authentication throws GatewayCardError.
   */
  chargeOffSession(
    accountId: string,
    input: { customerId: string; paymentMethodId: string; amount: number; description: string; metadata: Metadata; idempotencyKey: string },
  ): Promise<GatewayPaymentIntent>;
  retrievePaymentIntent(accountId: string, paymentIntentId: string): Promise<GatewayPaymentIntent>;
  cancelPaymentIntent(accountId: string, paymentIntentId: string): Promise<void>;

  /** A refund of a PaymentIntent: `amount` cents (all of it, or part). */
  refund(
    accountId: string,
    input: { paymentIntentId: string; amount: number; metadata: Metadata; idempotencyKey: string },
  ): Promise<GatewayRefund>;

  /**
   * The event of a webhook request, its signature checked over the raw body (`constructEvent`);
   * rejects on a bad or stale signature. Async: the Stripe SDK that checks it loads at first use.
   */
  verifyWebhook(rawBody: Buffer | string, signature: string | undefined): Promise<GatewayEvent>;
}
