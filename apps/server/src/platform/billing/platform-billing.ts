/**
 * Diván's own billing (issue 27, decision 0026) on the **platform** Stripe account: no `Stripe-Account`
 * header, unlike the patients' payments (`platform/payments/gateway.ts`, connected accounts). Two
 * implementations: Stripe Billing through the official SDK (`stripe-billing.ts`, STRIPE_SECRET_KEY) and
 * the built-in sandbox (`platform/payments/sandbox/sandbox-billing.ts`, no keys). Each has its own webhook
 * endpoint and secret: a platform event never reaches the Connect handler, nor the other way round.
 * Nothing here touches the app's tables: the billing module keeps its rows and reads the provider's state.
 */
import type { BillingInterval, SelfServePlan, SubscriptionStatus } from '@divan/core';
import type { GatewayCheckout, GatewayEvent, Metadata, PaymentsProvider } from '../payments/gateway';

/** A price of Diván's catalogue: one per plan × interval, found by its lookup key (`divan_advance_year`). */
export type BillingPriceSpec = { plan: SelfServePlan; interval: BillingInterval; unitAmount: number; productName: string };
export const priceLookupKey = (plan: SelfServePlan, interval: BillingInterval) => `divan_${plan}_${interval}`;

/** A subscription as the app needs it (from `Stripe.Subscription` and its single item). */
export type BillingSubscriptionFact = {
  id: string;
  customerId: string;
  status: SubscriptionStatus;
  /** The item's price: its id and lookup key (`divan_<plan>_<interval>`, null for a price we did not create). */
  priceId: string;
  lookupKey: string | null;
  unitAmount: number;
  quantity: number;
  /** Unix seconds (the item's `current_period_end`; Stripe moved it off the subscription in 2025). */
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  /**
   * A change waiting for the renewal (yearly → monthly): the subscription schedule's next phase, its price
   * and when it starts (Unix seconds, the current period's end); null without one.
   */
  scheduledChange: { scheduleId: string; priceId: string; lookupKey: string | null; at: number } | null;
  metadata: Metadata;
};

/** The next invoice as the provider would write it now (cents, VAT apart). */
export type BillingPreview = {
  /** Its subtotal: the next period at the new terms plus the prorations. */
  subtotal: number;
  /** The proration lines together (negative when the change credits more than it charges). */
  proration: number;
  /** Unix seconds: when it is billed (the current period's end). */
  nextPaymentAt: number;
  /** `plan`: the subscription's own line for the next period (not a proration nor a one-off item). */
  lines: { description: string; amount: number; proration: boolean; plan?: boolean }[];
};

/**
 * A tax rate of Diván's invoices (Stripe's Tax Rates: `exclusive`, added to the prices, which are VAT
 * apart), found by its key (`divan_iva_21`) and created the first time it is asked for.
 */
export type BillingTaxRateSpec = { key: string; percentage: number; displayName: string; country: string; jurisdiction: string };

/** Spain's general IVA as a provider tax rate (exclusive: the plans' prices are VAT apart). */
export const IVA_21: BillingTaxRateSpec = { key: 'divan_iva_21', percentage: 21, displayName: 'IVA', country: 'ES', jurisdiction: 'ES' };

/** A customer's name, invoice email and address (ISO country), as the provider keeps them. */
export type BillingCustomerDetails = {
  name: string;
  email: string | null;
  address: { line1: string; city: string; postalCode: string; country: string };
  /**
   * The customer's tax id as Stripe types it (an EU VAT id: `eu_vat`, which Stripe checks against VIES;
   * a Spanish company's CIF: `es_cif`), or none: the provider's list is made to hold exactly this one.
   */
  taxId: { type: 'eu_vat' | 'es_cif'; value: string } | null;
};

/** What the provider says of a customer's tax id (Stripe checks an EU VAT id against VIES, asynchronously). */
export type BillingTaxIdFact = {
  id: string;
  customerId: string;
  type: string;
  value: string;
  /** Null for a type the provider does not check (a Spanish CIF). */
  verification: { status: 'pending' | 'verified' | 'unverified' | 'unavailable'; verifiedName: string | null } | null;
};

/** A paid or open invoice of Diván's subscription as the provider wrote it (cents). */
export type BillingInvoiceFact = {
  id: string;
  customerId: string;
  subscriptionId: string | null;
  status: string;
  /** Before tax; `tax` the taxes added; `total` what is charged. */
  subtotal: number;
  tax: number;
  total: number;
  amountPaid: number;
  /** Unix seconds. */
  paidAt: number | null;
  created: number;
  lines: { description: string; amount: number; tax: number; quantity: number; period: { start: number; end: number } }[];
};

export type BillingCheckoutFact = {
  id: string;
  mode: 'subscription' | 'payment' | 'setup';
  status: 'open' | 'complete' | 'expired';
  /** Whether what it charges was paid (`payment_status: 'paid'`). */
  paid: boolean;
  /** What it charged, taxes included (cents; null for a setup). */
  amountTotal: number | null;
  customerId: string | null;
  subscriptionId: string | null;
  /** The PaymentIntent a payment-mode session made (what a refund names); null before it is paid, and for the other modes. */
  paymentIntentId: string | null;
  metadata: Metadata;
};

/** The outcome of charging a customer's saved card without them present. */
export type SavedChargeResult =
  | { status: 'succeeded'; paymentIntentId: string; amount: number }
  /** The bank asks for 3-D Secure: the customer must pay on-session. */
  | { status: 'requires_authentication'; paymentIntentId: string }
  | { status: 'declined'; paymentIntentId: string | null; declineCode: string | null }
  /** Nothing saved on the customer. */
  | { status: 'no_payment_method' };

export interface PlatformBilling {
  readonly provider: PaymentsProvider;
  readonly mode: 'test' | 'live';

  /** A Customer on the platform account (one per paying workspace). */
  createCustomer(input: { email: string | null; name: string; metadata: Metadata; idempotencyKey: string }): Promise<{ id: string }>;
  /**
   * Whom the provider's receipts and portal name: the billing data of Ajustes › Pagos (Diván's own invoice
   * is the legal one; this keeps Stripe's papers saying the same). Same key, same result.
   */
  updateCustomer(customerId: string, input: BillingCustomerDetails & { idempotencyKey: string }): Promise<{ taxIdRefused: string | null }>;
  /** A customer's tax id as the provider holds it now (its VIES verdict); null when it was removed. */
  retrieveTaxId(customerId: string, taxIdId: string): Promise<BillingTaxIdFact | null>;
  /** The Price with the spec's lookup key, created (with its Product) the first time it is asked for. */
  ensurePrice(spec: BillingPriceSpec): Promise<{ id: string }>;
  /**
   * Stripe-hosted Checkout in `subscription` mode: one item, `quantity` active users. The same
   * `idempotencyKey` answers the same session (a double click opens one).
   */
  checkoutSubscription(input: {
    customerId: string;
    priceId: string;
    quantity: number;
    successUrl: string;
    cancelUrl: string;
    metadata: Metadata;
    /** The subscription's `default_tax_rates` (none: no tax, e.g. reverse charge). */
    taxRateIds: string[];
    idempotencyKey: string;
  }): Promise<GatewayCheckout>;
  /**
   * Stripe-hosted Checkout in `payment` mode for one thing sold once (a gift of months of Diván):
   * `amount` before tax, the tax rates added (exclusive). Same key, same session.
   */
  checkoutPayment(input: {
    customerId: string;
    description: string;
    amount: number;
    taxRateIds: string[];
    successUrl: string;
    cancelUrl: string;
    metadata: Metadata;
    idempotencyKey: string;
  }): Promise<GatewayCheckout>;
  /** The tax rate with the spec's key, created the first time it is asked for. */
  ensureTaxRate(spec: BillingTaxRateSpec): Promise<{ id: string }>;
  retrieveInvoice(invoiceId: string): Promise<BillingInvoiceFact>;
  retrieveCheckout(sessionId: string): Promise<BillingCheckoutFact>;
  /**
   * The provider's hosted Customer Portal for this customer (cards, receipts), short-lived; the person
   * comes back to `returnUrl`. No card form in Diván.
   */
  portal(customerId: string, returnUrl: string): Promise<{ url: string }>;
  /**
   * Changes the subscription's single item (its price and/or quantity) and/or its renewal, as
   * `subscriptions.update` does: `proration` `create_prorations` bills the rest of the period at the new
   * terms on the next invoice (unused time credited, remaining time charged, to the second), `none`
   * leaves the current period as paid (the new price applies from the next one). Same key, same result.
   */
  updateSubscription(
    subscriptionId: string,
    input: {
      priceId?: string;
      quantity?: number;
      proration: 'create_prorations' | 'none';
      cancelAtPeriodEnd?: boolean;
      /** Replaces the subscription's `default_tax_rates` (the customer's tax case changed): from its next invoice. */
      taxRateIds?: string[];
      idempotencyKey: string;
    },
  ): Promise<BillingSubscriptionFact>;
  /**
   * What the next invoice would be after such a change (`invoices.createPreview` with
   * `subscription_details`): its total before tax and the part that is proration.
   */
  previewUpdate(
    subscriptionId: string,
    input: { priceId?: string; quantity?: number; proration: 'create_prorations' | 'none' },
  ): Promise<BillingPreview>;
  /**
   * A change of price at the renewal, not before (yearly → monthly: Stripe would restart the cycle and bill
   * at once on `subscriptions.update`): a subscription schedule made from the subscription, its current
   * phase kept as it is to the period's end, the next with `priceId` and the same quantity, released after
   * it (the subscription then renews on the new price). While it waits, a quantity change goes through the
   * schedule (both phases); another price or the renewal off must `releaseSchedule` first. Same key, same result.
   */
  scheduleRenewalChange(subscriptionId: string, input: { priceId: string; idempotencyKey: string }): Promise<BillingSubscriptionFact>;
  /** The change waiting for the renewal dropped (`subscription_schedules.release`): the subscription renews as it is. */
  releaseSchedule(subscriptionId: string, input: { idempotencyKey: string }): Promise<BillingSubscriptionFact>;
  retrieveSubscription(subscriptionId: string): Promise<BillingSubscriptionFact>;
  /** Whether the customer ever had a subscription, in any status (a referred friend must never have had one). */
  hasHadSubscription(customerId: string): Promise<boolean>;
  /**
   * The cards that paid an invoice, as their `card.fingerprint` (the same card number, the same
   * fingerprint, across all the customers of the platform account): from the invoice's paid payments, each
   * PaymentIntent's payment method. Empty when the provider cannot say (nothing paid by card, a card
   * without a fingerprint). A referred friend's first charge paid with a referrer's card is a self-referral.
   */
  invoiceCardFingerprints(invoiceId: string): Promise<string[]>;
  /** The fingerprints of the cards saved on a customer (`customers.listPaymentMethods`, type card), without repeats. */
  cardFingerprints(customerId: string): Promise<string[]>;
  /**
   * A one-off line on the subscription's next invoice (`invoiceItems.create`): negative, a credit before
   * tax — the referrer's month off — so the invoice's taxable base drops. Same key, same item.
   */
  addInvoiceItem(input: {
    customerId: string;
    subscriptionId: string;
    amount: number;
    description: string;
    metadata: Metadata;
    idempotencyKey: string;
  }): Promise<{ id: string }>;
  /**
   * One charge of the customer's saved card without them present (a PaymentIntent `off_session: true,
   * confirm: true` with the customer's default payment method — `invoice_settings.default_payment_method`,
   * else its first saved card), `amount` in cents, taxes included. Same key, same result (idempotent).
   */
  chargeSaved(input: {
    customerId: string;
    amount: number;
    description: string;
    metadata: Metadata;
    idempotencyKey: string;
  }): Promise<SavedChargeResult>;
  /** Refunds a succeeded charge in full. Same key, same refund. */
  refundCharge(input: { paymentIntentId: string; idempotencyKey: string }): Promise<{ refundId: string; amount: number }>;
  /** The platform endpoint's event, its signature checked over the raw body; rejects otherwise. */
  verifyWebhook(rawBody: Buffer | string, signature: string | undefined): Promise<GatewayEvent>;
}
