/**
 * PlatformBilling on Stripe Billing, through the official SDK (issue 27, decision 0026). Everything here
 * is on the **platform** account: no call sends `Stripe-Account` (`stripeAccount`), unlike the patients'
 * gateway (payments/stripe-gateway.ts). The SDK loads at the first call (payments/stripe-sdk.ts); its
 * errors read as the gateway's (GatewayUnavailableError with Stripe's words). API 2026-10-28: a
 * subscription's period lives on its item (`items.data[0].current_period_end`).
 */
import type Stripe from 'stripe';
import { GatewayUnavailableError, type GatewayCheckout, type GatewayEvent, type Metadata } from '../payments/gateway';
import { StripeClient, type StripeClientOptions } from '../payments/stripe-client';
import type { StripeSdk } from '../payments/stripe-sdk';
import {
  idOf,
  itemChange,
  nextPhaseOf,
  savedChargeRefusal,
  singleItem,
  toBillingPreview,
  toCheckoutFact,
  toInvoiceFact,
  toSavedChargeResult,
  toSubscriptionFact,
  toTaxIdFact,
} from './stripe-facts';
import {
  priceLookupKey,
  type BillingCheckoutFact,
  type BillingCustomerDetails,
  type BillingInvoiceFact,
  type BillingPreview,
  type BillingTaxRateSpec,
  type BillingPriceSpec,
  type BillingSubscriptionFact,
  type BillingTaxIdFact,
  type PlatformBilling,
  type SavedChargeResult,
} from './platform-billing';

export type StripeBillingConfig = {
  secretKey: string;
  /** STRIPE_BILLING_WEBHOOK_SECRET: the platform endpoint's (`/api/v1/billing/webhook`), not the Connect one. */
  billingWebhookSecret: string;
  apiBase?: string;
};

/** Tuning for tests; production uses the defaults (the gateway's). */
export type StripeBillingOptions = StripeClientOptions;

/** Stripe leaves out a parameter sent as undefined; null would be sent as '' (a reset). */
const orUndefined = <T>(v: T | null): T | undefined => v ?? undefined;

export class StripeBilling implements PlatformBilling {
  readonly provider = 'stripe' as const;
  readonly mode: 'test' | 'live';
  private readonly api: StripeClient;
  /** Price ids by lookup key and amount, found or made once per process; a failure is tried again. */
  private readonly prices = new Map<string, Promise<{ id: string }>>();
  /** Tax rate ids by key, the same way. */
  private readonly taxRates = new Map<string, Promise<{ id: string }>>();

  constructor(config: StripeBillingConfig, options: StripeBillingOptions = {}) {
    this.api = new StripeClient(config.secretKey, config.billingWebhookSecret, config.apiBase, options);
    this.mode = this.api.mode;
  }

  /** Runs one SDK call, its errors in the gateway's terms. */
  private call<T>(fn: (stripe: Stripe, sdk: StripeSdk) => Promise<T>): Promise<T> {
    return this.api.call(fn);
  }

  createCustomer(input: { email: string | null; name: string; metadata: Metadata; idempotencyKey: string }): Promise<{ id: string }> {
    return this.call(async (stripe) => {
      const customer = await stripe.customers.create(
        // Spanish: the portal, the receipts and the invoice lines the provider writes (a proration's) read in Spanish.
        { email: orUndefined(input.email), name: input.name, metadata: input.metadata, preferred_locales: ['es'] },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: customer.id };
    });
  }

  updateCustomer(customerId: string, input: BillingCustomerDetails & { idempotencyKey: string }): Promise<{ taxIdRefused: string | null }> {
    return this.call(async (stripe, sdk) => {
      const { line1, city, postalCode, country } = input.address;
      await stripe.customers.update(
        customerId,
        { name: input.name, email: orUndefined(input.email), address: { line1, city, postal_code: postalCode, country } },
        { idempotencyKey: input.idempotencyKey },
      );
      // The tax ids: exactly the one of the billing data (Stripe checks an EU VAT id against VIES).
      const wanted = input.taxId;
      const held = (await stripe.customers.listTaxIds(customerId, { limit: 20 })).data;
      const same = (t: { type: string; value: string }) => !!wanted && t.type === wanted.type && t.value === wanted.value;
      for (const t of held) if (!same(t)) await stripe.customers.deleteTaxId(customerId, t.id);
      if (!wanted || held.some(same)) return { taxIdRefused: null };
      try {
        await stripe.customers.createTaxId(
          customerId,
          { type: wanted.type, value: wanted.value },
          { idempotencyKey: `${input.idempotencyKey}:tax-id` },
        );
        return { taxIdRefused: null };
      } catch (err) {
        // Its format refused (`tax_id_invalid`): the rest is saved; Diván's invoice still names it.
        if (err instanceof sdk.errors.StripeInvalidRequestError) return { taxIdRefused: err.message };
        throw err;
      }
    });
  }

  portal(customerId: string, returnUrl: string): Promise<{ url: string }> {
    return this.call(async (stripe) => {
      const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl, locale: 'es' });
      return { url: session.url };
    });
  }

  ensurePrice(spec: BillingPriceSpec): Promise<{ id: string }> {
    const cacheKey = `${priceLookupKey(spec.plan, spec.interval)}:${spec.unitAmount}`;
    let found = this.prices.get(cacheKey);
    if (!found) {
      found = this.findOrCreatePrice(spec);
      this.prices.set(cacheKey, found);
      found.catch(() => this.prices.delete(cacheKey));
    }
    return found;
  }

  /**
   * The active price with the spec's lookup key when it still says what the spec does (amount, euros,
   * interval); else a new one. Its Product too the first time. Keys derived from the lookup key and the
   * amount make two servers starting at once create one Product and one Price (Stripe keeps a key 24 h).
   * A changed amount makes a new Price on the same Product that takes the lookup key over
   * (`transfer_lookup_key`): subscriptions on the old one keep it, new ones get the new amount.
   */
  private findOrCreatePrice(spec: BillingPriceSpec): Promise<{ id: string }> {
    const lookupKey = priceLookupKey(spec.plan, spec.interval);
    const idempotency = `divan-billing-${lookupKey}-${spec.unitAmount}`;
    return this.call(async (stripe) => {
      const listed = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
      const current = listed.data[0];
      if (current && current.unit_amount === spec.unitAmount && current.currency === 'eur' && current.recurring?.interval === spec.interval)
        return { id: current.id };
      let productId = idOf(current?.product);
      if (!productId) {
        const product = await stripe.products.create(
          { name: spec.productName, metadata: { divan_plan: spec.plan } },
          { idempotencyKey: `${idempotency}-product` },
        );
        productId = product.id;
      }
      const price = await stripe.prices.create(
        {
          currency: 'eur',
          unit_amount: spec.unitAmount,
          recurring: { interval: spec.interval },
          product: productId,
          lookup_key: lookupKey,
          ...(current ? { transfer_lookup_key: true } : {}),
          tax_behavior: 'exclusive',
          metadata: { divan_plan: spec.plan, divan_interval: spec.interval },
        },
        { idempotencyKey: `${idempotency}-price` },
      );
      return { id: price.id };
    });
  }

  checkoutSubscription(input: {
    customerId: string;
    priceId: string;
    quantity: number;
    successUrl: string;
    cancelUrl: string;
    metadata: Metadata;
    taxRateIds: string[];
    idempotencyKey: string;
  }): Promise<GatewayCheckout> {
    return this.call(async (stripe) => {
      // The billing data (name, NIF or VAT id, address) are Diván's, asked before: the tax is the rate given, not Stripe Tax.
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer: input.customerId,
          line_items: [{ price: input.priceId, quantity: input.quantity }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata: input.metadata,
          subscription_data: { metadata: input.metadata, default_tax_rates: input.taxRateIds },
          locale: 'es',
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new GatewayUnavailableError(`Stripe checkout session ${session.id} has no url`);
      return { id: session.id, url: session.url };
    });
  }

  checkoutPayment(input: Parameters<PlatformBilling['checkoutPayment']>[0]): Promise<GatewayCheckout> {
    return this.call(async (stripe) => {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          customer: input.customerId,
          line_items: [
            {
              price_data: {
                currency: 'eur',
                unit_amount: input.amount,
                tax_behavior: 'exclusive',
                product_data: { name: input.description },
              },
              quantity: 1,
              tax_rates: input.taxRateIds,
            },
          ],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata: input.metadata,
          payment_intent_data: { metadata: input.metadata, description: input.description },
          locale: 'es',
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!session.url) throw new GatewayUnavailableError(`Stripe checkout session ${session.id} has no url`);
      return { id: session.id, url: session.url };
    });
  }

  ensureTaxRate(spec: BillingTaxRateSpec): Promise<{ id: string }> {
    let found = this.taxRates.get(spec.key);
    if (!found) {
      found = this.findOrCreateTaxRate(spec);
      this.taxRates.set(spec.key, found);
      found.catch(() => this.taxRates.delete(spec.key));
    }
    return found;
  }

  /** The active exclusive rate whose metadata names the key and the percentage, else a new one (keyed: two servers make one). */
  private findOrCreateTaxRate(spec: BillingTaxRateSpec): Promise<{ id: string }> {
    return this.call(async (stripe) => {
      const listed = await stripe.taxRates.list({ active: true, inclusive: false, limit: 100 }).autoPagingToArray({ limit: 1000 });
      const current = listed.find((r) => r.metadata?.divan_tax === spec.key && r.percentage === spec.percentage);
      if (current) return { id: current.id };
      const rate = await stripe.taxRates.create(
        {
          display_name: spec.displayName,
          percentage: spec.percentage,
          inclusive: false,
          country: spec.country,
          jurisdiction: spec.jurisdiction,
          tax_type: 'vat',
          metadata: { divan_tax: spec.key },
        },
        { idempotencyKey: `divan-tax-${spec.key}-${spec.percentage}` },
      );
      return { id: rate.id };
    });
  }

  /** An invoice with all its lines (Stripe embeds the first 10). */
  retrieveInvoice(invoiceId: string): Promise<BillingInvoiceFact> {
    return this.call(async (stripe) => {
      const invoice = await stripe.invoices.retrieve(invoiceId);
      let lines = invoice.lines.data;
      if (invoice.lines.has_more)
        lines = await stripe.invoices.listLineItems(invoiceId, { limit: 100 }).autoPagingToArray({ limit: 10_000 });
      return toInvoiceFact(invoice, lines);
    });
  }

  retrieveCheckout(sessionId: string): Promise<BillingCheckoutFact> {
    return this.call(async (stripe) => toCheckoutFact(await stripe.checkout.sessions.retrieve(sessionId)));
  }

  /**
   * `subscriptions.update` of the single item (read first for its id) and/or its renewal, under the
   * caller's key. A new price without a quantity keeps the item's quantity: Stripe would set it to 1.
   */
  updateSubscription(
    subscriptionId: string,
    input: {
      priceId?: string;
      quantity?: number;
      proration: 'create_prorations' | 'none';
      cancelAtPeriodEnd?: boolean;
      taxRateIds?: string[];
      idempotencyKey: string;
    },
  ): Promise<BillingSubscriptionFact> {
    return this.call(async (stripe) => {
      const current = await stripe.subscriptions.retrieve(subscriptionId);
      const scheduleId = idOf(current.schedule);
      if (scheduleId) {
        // A schedule manages it: Stripe refuses the renewal off, and the next phase would undo a quantity.
        if (input.priceId !== undefined || input.cancelAtPeriodEnd !== undefined)
          throw new Error(`Stripe subscription ${subscriptionId} waits for a change at its renewal: release its schedule first`);
        const schedule = await stripe.subscriptionSchedules.retrieve(scheduleId);
        await this.writePhases(stripe, current, schedule, {
          next: nextPhaseOf(schedule)?.price ?? singleItem(current).price.id,
          quantity: input.quantity ?? singleItem(current).quantity ?? 1,
          taxRateIds: input.taxRateIds,
          proration: input.proration,
          idempotencyKey: input.idempotencyKey,
        });
        return this.factOf(stripe, await stripe.subscriptions.retrieve(subscriptionId));
      }
      const items = itemChange(current, input);
      const updated = await stripe.subscriptions.update(
        subscriptionId,
        {
          ...(items ? { items } : {}),
          proration_behavior: input.proration,
          ...(input.cancelAtPeriodEnd === undefined ? {} : { cancel_at_period_end: input.cancelAtPeriodEnd }),
          // An empty list is sent as '' by the SDK: the subscription's rates cleared.
          ...(input.taxRateIds === undefined ? {} : { default_tax_rates: input.taxRateIds.length ? input.taxRateIds : '' }),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return this.factOf(stripe, updated);
    });
  }

  /**
   * `subscription_schedules.create` from the subscription (or the one it already has), then its phases
   * written: the current one as it is up to the period's end, the next on `priceId` for one period of
   * that price, then `release` (the subscription goes on as it is then). Keys derived from the caller's.
   */
  scheduleRenewalChange(subscriptionId: string, input: { priceId: string; idempotencyKey: string }): Promise<BillingSubscriptionFact> {
    return this.call(async (stripe) => {
      const current = await stripe.subscriptions.retrieve(subscriptionId);
      const known = idOf(current.schedule);
      const schedule = known
        ? await stripe.subscriptionSchedules.retrieve(known)
        : await stripe.subscriptionSchedules.create(
            { from_subscription: subscriptionId },
            { idempotencyKey: `${input.idempotencyKey}:from` },
          );
      await this.writePhases(stripe, current, schedule, {
        next: input.priceId,
        quantity: singleItem(current).quantity ?? 1,
        proration: 'none',
        idempotencyKey: input.idempotencyKey,
      });
      return this.factOf(stripe, await stripe.subscriptions.retrieve(subscriptionId));
    });
  }

  releaseSchedule(subscriptionId: string, input: { idempotencyKey: string }): Promise<BillingSubscriptionFact> {
    return this.call(async (stripe) => {
      const current = await stripe.subscriptions.retrieve(subscriptionId);
      const scheduleId = idOf(current.schedule);
      if (!scheduleId) return this.factOf(stripe, current);
      await stripe.subscriptionSchedules.release(scheduleId, {}, { idempotencyKey: input.idempotencyKey });
      return this.factOf(stripe, await stripe.subscriptions.retrieve(subscriptionId));
    });
  }

  /** The schedule's two phases: now → the period's end on the price in force, then one period of `next`. */
  private async writePhases(
    stripe: Stripe,
    sub: Stripe.Subscription,
    schedule: Stripe.SubscriptionSchedule,
    input: { next: string; quantity: number; taxRateIds?: string[]; proration: 'create_prorations' | 'none'; idempotencyKey: string },
  ) {
    const item = singleItem(sub);
    const start = schedule.current_phase?.start_date ?? item.current_period_start;
    const end = schedule.current_phase?.end_date ?? item.current_period_end;
    const next = await stripe.prices.retrieve(input.next);
    if (!next.recurring) throw new GatewayUnavailableError(`Stripe price ${next.id} is not recurring`);
    const taxRates = input.taxRateIds ?? (sub.default_tax_rates ?? []).map((r) => r.id);
    const rates = taxRates.length ? taxRates : ('' as const);
    await stripe.subscriptionSchedules.update(
      schedule.id,
      {
        end_behavior: 'release',
        proration_behavior: input.proration,
        phases: [
          { start_date: start, end_date: end, items: [{ price: item.price.id, quantity: input.quantity }], default_tax_rates: rates },
          {
            items: [{ price: next.id, quantity: input.quantity }],
            duration: { interval: next.recurring.interval, interval_count: next.recurring.interval_count },
            proration_behavior: 'none',
            default_tax_rates: rates,
          },
        ],
      },
      { idempotencyKey: input.idempotencyKey },
    );
  }

  /** The subscription as the app needs it, with the change its schedule waits to make (read when it has one). */
  private async factOf(stripe: Stripe, s: Stripe.Subscription): Promise<BillingSubscriptionFact> {
    const scheduleId = idOf(s.schedule);
    const schedule = scheduleId
      ? typeof s.schedule === 'object' && s.schedule
        ? s.schedule
        : await stripe.subscriptionSchedules.retrieve(scheduleId, { expand: ['phases.items.price'] })
      : null;
    return toSubscriptionFact(s, schedule);
  }

  /**
   * `invoices.createPreview` of the subscription's next invoice with the change in `subscription_details`,
   * prorated at this second (`proration_date`). All its lines are read (Stripe embeds the first 10).
   */
  previewUpdate(
    subscriptionId: string,
    input: { priceId?: string; quantity?: number; proration: 'create_prorations' | 'none' },
  ): Promise<BillingPreview> {
    return this.call(async (stripe) => {
      const current = await stripe.subscriptions.retrieve(subscriptionId);
      const items = itemChange(current, input);
      const preview = await stripe.invoices.createPreview({
        customer: idOf(current.customer)!,
        subscription: subscriptionId,
        subscription_details: {
          ...(items ? { items } : {}),
          proration_behavior: input.proration,
          proration_date: Math.floor(Date.now() / 1000),
        },
      });
      let lines = preview.lines.data;
      if (preview.lines.has_more && preview.id)
        lines = await stripe.invoices.listLineItems(preview.id, { limit: 100 }).autoPagingToArray({ limit: 10_000 });
      return toBillingPreview(preview, lines, singleItem(current).current_period_end ?? null);
    });
  }

  retrieveSubscription(subscriptionId: string): Promise<BillingSubscriptionFact> {
    return this.call(async (stripe) => this.factOf(stripe, await stripe.subscriptions.retrieve(subscriptionId)));
  }

  hasHadSubscription(customerId: string): Promise<boolean> {
    return this.call(
      async (stripe) => (await stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 1 })).data.length > 0,
    );
  }

  /**
   * An invoice's payments (`invoicePayments.list`, API 2025-03-31 on: the invoice no longer names its
   * PaymentIntent), the paid ones; each PaymentIntent read with its payment method expanded, for the
   * card's fingerprint. A payment of another kind (an out-of-band `payment_record`, a legacy `charge`)
   * names no card here: it is left out.
   */
  invoiceCardFingerprints(invoiceId: string): Promise<string[]> {
    return this.call(async (stripe) => {
      const payments = await stripe.invoicePayments
        .list({ invoice: invoiceId, status: 'paid', limit: 100 })
        .autoPagingToArray({ limit: 1000 });
      const found = new Set<string>();
      for (const p of payments) {
        const intentId = idOf(p.payment.type === 'payment_intent' ? p.payment.payment_intent : null);
        if (!intentId) continue;
        const intent = await stripe.paymentIntents.retrieve(intentId, { expand: ['payment_method'] });
        const pm = intent.payment_method;
        const fingerprint = pm && typeof pm !== 'string' ? pm.card?.fingerprint : null;
        if (fingerprint) found.add(fingerprint);
      }
      return [...found];
    });
  }

  cardFingerprints(customerId: string): Promise<string[]> {
    return this.call(async (stripe) => {
      const cards = await stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 }).autoPagingToArray({ limit: 1000 });
      return [...new Set(cards.map((pm) => pm.card?.fingerprint).filter((f): f is string => !!f))];
    });
  }

  addInvoiceItem(input: Parameters<PlatformBilling['addInvoiceItem']>[0]): Promise<{ id: string }> {
    return this.call(async (stripe) => {
      const item = await stripe.invoiceItems.create(
        {
          customer: input.customerId,
          subscription: input.subscriptionId,
          amount: input.amount,
          currency: 'eur',
          description: input.description,
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: item.id };
    });
  }

  /**
   * The customer's default card (else its newest, first in Stripe's list) charged off session. Stripe
   * answers a refusal with a card error (402) carrying the PaymentIntent it left, and replays it, like a
   * success, for the same key. The card is chosen before each try: if it changed meanwhile, Stripe refuses
   * the key (idempotency_error, GatewayUnavailableError) rather than charge twice.
   */
  chargeSaved(input: Parameters<PlatformBilling['chargeSaved']>[0]): Promise<SavedChargeResult> {
    return this.call(async (stripe, sdk) => {
      const paymentMethod = await savedPaymentMethod(stripe, input.customerId);
      if (!paymentMethod) return { status: 'no_payment_method' };
      try {
        const pi = await stripe.paymentIntents.create(
          {
            amount: input.amount,
            currency: 'eur',
            customer: input.customerId,
            payment_method: paymentMethod,
            off_session: true,
            confirm: true,
            description: input.description,
            metadata: input.metadata,
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return toSavedChargeResult(pi);
      } catch (err) {
        if (err instanceof sdk.errors.StripeCardError) return savedChargeRefusal(err);
        throw err;
      }
    });
  }

  refundCharge(input: { paymentIntentId: string; idempotencyKey: string }): Promise<{ refundId: string; amount: number }> {
    return this.call(async (stripe) => {
      const refund = await stripe.refunds.create({ payment_intent: input.paymentIntentId }, { idempotencyKey: input.idempotencyKey });
      return { refundId: refund.id, amount: refund.amount };
    });
  }

  retrieveTaxId(customerId: string, taxIdId: string): Promise<BillingTaxIdFact | null> {
    return this.call(async (stripe, sdk) => {
      try {
        return toTaxIdFact(await stripe.customers.retrieveTaxId(customerId, taxIdId));
      } catch (err) {
        // Removed since (the billing data changed): nothing to say about it.
        if (err instanceof sdk.errors.StripeInvalidRequestError && err.code === 'resource_missing') return null;
        throw err;
      }
    });
  }

  /** Checks the `Stripe-Signature` header over the raw body with the platform endpoint's secret (5 minutes' tolerance). */
  verifyWebhook(rawBody: Buffer | string, signature: string | undefined): Promise<GatewayEvent> {
    return this.api.verify(rawBody, signature);
  }
}

/**
 * The payment method an off-session charge uses: the customer's `invoice_settings.default_payment_method`,
 * else the first card Stripe lists for it (the newest); null when it has none.
 */
async function savedPaymentMethod(stripe: Stripe, customerId: string): Promise<string | null> {
  const customer = await stripe.customers.retrieve(customerId);
  if (customer.deleted) throw new GatewayUnavailableError(`Stripe customer ${customerId} was deleted`);
  const chosen = idOf(customer.invoice_settings?.default_payment_method);
  if (chosen) return chosen;
  const cards = await stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 1 });
  return cards.data[0]?.id ?? null;
}
