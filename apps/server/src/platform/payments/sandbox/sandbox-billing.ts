import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database';
import {
  priceLookupKey,
  type BillingCheckoutFact,
  type BillingCustomerDetails,
  type BillingInvoiceFact,
  type BillingPriceSpec,
  type BillingTaxRateSpec,
  type BillingSubscriptionFact,
  type BillingTaxIdFact,
  type PlatformBilling,
  type SavedChargeResult,
} from '../../billing/platform-billing';
import type { GatewayCheckout, GatewayEvent, Metadata } from '../gateway';
import { nowOf, type SandboxContext } from './sandbox-charges';
import {
  cardFingerprintOf,
  newCheckoutSession,
  type SandboxCheckoutSession,
  type SandboxCustomer,
  type SandboxPaymentMethod,
  type SandboxTaxId,
} from './sandbox-objects';
import { findByKey, findObject, getObject, insertObject, lockKey, looksLikeId, newId, noSuch, saveObject } from './sandbox-store';
import { SandboxPortal } from './sandbox-portal';
import { SandboxRenewals } from './sandbox-renewals';
import { SandboxSavedCharges } from './sandbox-saved-charges';
import { SandboxSubscriptionChanges, taxRateRefs } from './sandbox-subscription-changes';
import {
  invoiceFact,
  subscriptionFact,
  taxOf,
  type SandboxInvoice,
  type SandboxInvoiceItem,
  type SandboxPrice,
  type SandboxProduct,
  type SandboxSubscription,
  type SandboxTaxRate,
} from './sandbox-subscriptions';
import type { SandboxWebhooks } from './sandbox-webhooks';
import { sandboxObjects } from './sandbox.tables';

/**
 * The sandbox's VIES: an EU VAT id ending in 111111111 is not known (`unverified`), one ending in
 * 222222222 finds VIES down (`unavailable`), any other is `verified` — so each verdict can be tried by hand.
 */
export function sandboxVatVerdict(value: string): 'verified' | 'unverified' | 'unavailable' {
  if (value.endsWith('111111111')) return 'unverified';
  if (value.endsWith('222222222')) return 'unavailable';
  return 'verified';
}

/**
 * Stripe Billing on the platform account, in the sandbox (no Stripe keys): customers, products and
 * prices found by lookup key, Checkout in subscription mode (its hosted page is the sandbox's Checkout,
 * `sandbox-hosted.ts`), subscriptions. Objects live with the Connect side's in `sandbox_stripe_objects`,
 * with account null; their events are signed with the platform endpoint's own secret.
 */
export class SandboxBilling implements PlatformBilling {
  readonly provider = 'sandbox' as const;
  readonly mode = 'test' as const;

  constructor(
    private readonly db: Db,
    private readonly ctx: SandboxContext,
    private readonly webhooks: SandboxWebhooks,
    /** `${publicUrl}/sandbox/stripe`: where the hosted Checkout lives. */
    private readonly base: string,
  ) {
    this.changes = new SandboxSubscriptionChanges(db, ctx, webhooks);
    this.renewals = new SandboxRenewals(db, ctx);
    this.portals = new SandboxPortal(db, ctx, base, this.renewals);
    this.savedCharges = new SandboxSavedCharges(db, ctx);
  }

  /** The test clock: renewals, retries of a declined one and the end of a subscription, played up to a moment. */
  readonly renewals: SandboxRenewals;

  private readonly changes: SandboxSubscriptionChanges;
  private readonly savedCharges: SandboxSavedCharges;
  /** The Customer Portal's actions (`sandboxPagesRoutes` calls them). */
  readonly portals: SandboxPortal;

  portal(customerId: string, returnUrl: string): Promise<{ url: string }> {
    return this.portals.create(customerId, returnUrl);
  }

  async createCustomer(input: { email: string | null; name: string; metadata: Metadata; idempotencyKey: string }): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      await lockKey(tx, null, input.idempotencyKey);
      const again = await findByKey<SandboxCustomer>(tx, null, input.idempotencyKey);
      if (again) return { id: again.id };
      const customer: SandboxCustomer = {
        id: newId('cus_'),
        object: 'customer',
        email: input.email,
        name: input.name,
        metadata: { ...input.metadata },
        created: nowOf(this.ctx),
        livemode: false,
      };
      await insertObject(tx, customer, { account: null, idempotencyKey: input.idempotencyKey });
      return { id: customer.id };
    });
  }

  async updateCustomer(
    customerId: string,
    input: BillingCustomerDetails & { idempotencyKey: string },
  ): Promise<{ taxIdRefused: string | null }> {
    return this.db.transaction(async (tx) => {
      const customer = await getObject<SandboxCustomer>(tx, 'customer', customerId, { account: null });
      const { line1, city, postalCode, country } = input.address;
      const wanted = input.taxId;
      const kept = (customer.tax_ids ?? []).find((t) => wanted && t.type === wanted.type && t.value === wanted.value);
      // As Stripe keeps them: exactly the one asked for, the same object while its value stays.
      const made: SandboxTaxId | null =
        wanted && !kept
          ? {
              id: newId('txi_'),
              object: 'tax_id',
              customer: customer.id,
              type: wanted.type,
              value: wanted.value,
              verification: wanted.type === 'eu_vat' ? { status: 'pending', verified_name: null } : null,
            }
          : null;
      Object.assign(customer, {
        name: input.name,
        email: input.email ?? customer.email,
        address: { line1, city, postal_code: postalCode, country },
        tax_ids: kept ? [kept] : made ? [made] : [],
      });
      const now = nowOf(this.ctx);
      if (made?.verification) {
        // Stripe asks VIES after answering; the sandbox answers at once, by the value's end (sandboxVatVerdict).
        made.verification = { status: sandboxVatVerdict(made.value), verified_name: null };
        if (made.verification.status === 'verified') made.verification.verified_name = input.name.toUpperCase();
      }
      await saveObject(tx, customer);
      await this.webhooks.emit(tx, null, 'customer.updated', customer, now);
      if (made) {
        await this.webhooks.emit(
          tx,
          null,
          'customer.tax_id.created',
          { ...made, verification: made.verification && { status: 'pending', verified_name: null } },
          now,
        );
        if (made.verification) await this.webhooks.emit(tx, null, 'customer.tax_id.updated', made, now);
      }
      return { taxIdRefused: null };
    });
  }

  async retrieveTaxId(customerId: string, taxIdId: string): Promise<BillingTaxIdFact | null> {
    const customer = await getObject<SandboxCustomer>(this.db, 'customer', customerId, { account: null });
    const t = (customer.tax_ids ?? []).find((x) => x.id === taxIdId);
    if (!t) return null;
    return {
      id: t.id,
      customerId,
      type: t.type,
      value: t.value,
      verification: t.verification ? { status: t.verification.status, verifiedName: t.verification.verified_name } : null,
    };
  }

  async ensurePrice(spec: BillingPriceSpec): Promise<{ id: string }> {
    const key = priceLookupKey(spec.plan, spec.interval);
    return this.db.transaction(async (tx) => {
      // Two servers asking at once make one price (the lock), and a new amount makes a new price.
      await lockKey(tx, null, `price:${key}`);
      const found = await platformPrice(tx, key);
      if (found && found.unit_amount === spec.unitAmount) return { id: found.id };
      const now = nowOf(this.ctx);
      const product: SandboxProduct = {
        id: newId('prod_'),
        object: 'product',
        name: spec.productName,
        active: true,
        metadata: { divan_plan: spec.plan },
        created: now,
        livemode: false,
      };
      await insertObject(tx, product, { account: null });
      if (found) {
        // Stripe moves a lookup key with `transfer_lookup_key`: the old price keeps its subscribers.
        await saveObject(tx, { ...found, lookup_key: null, active: false });
      }
      const price: SandboxPrice = {
        id: newId('price_'),
        object: 'price',
        active: true,
        currency: 'eur',
        lookup_key: key,
        unit_amount: spec.unitAmount,
        tax_behavior: 'exclusive',
        product: product.id,
        recurring: { interval: spec.interval, interval_count: 1 },
        metadata: { divan_plan: spec.plan, divan_interval: spec.interval },
        created: now,
        livemode: false,
      };
      await insertObject(tx, price, { account: null });
      return { id: price.id };
    });
  }

  async checkoutSubscription(input: {
    customerId: string;
    priceId: string;
    quantity: number;
    successUrl: string;
    cancelUrl: string;
    metadata: Metadata;
    taxRateIds: string[];
    idempotencyKey: string;
  }): Promise<GatewayCheckout> {
    if (!Number.isInteger(input.quantity) || input.quantity < 1)
      throw new Error(`sandbox billing: quantity must be a positive integer (${input.quantity})`);
    return this.db.transaction(async (tx) => {
      await lockKey(tx, null, input.idempotencyKey);
      const again = await findByKey<SandboxCheckoutSession>(tx, null, input.idempotencyKey);
      if (again) return { id: again.id, url: again.url ?? '' };
      await getObject<SandboxCustomer>(tx, 'customer', input.customerId, { account: null });
      const price = await getObject<SandboxPrice>(tx, 'price', input.priceId, { account: null });
      const product = await getObject<SandboxProduct>(tx, 'product', price.product, { account: null });
      const unit = price.unit_amount ?? 0;
      const taxRates = await taxRateRefs(tx, input.taxRateIds);
      // What the hosted page charges: the amount and its taxes, each rounded as on the invoice.
      const base = unit * input.quantity;
      const tax = taxRates.reduce((a, r) => a + taxOf(base, r.percentage), 0);
      const session: SandboxCheckoutSession = {
        ...newCheckoutSession(
          {
            mode: 'subscription',
            customer: input.customerId,
            customerEmail: null,
            amount: base + tax,
            description: null,
            successUrl: input.successUrl,
            cancelUrl: input.cancelUrl,
            metadata: input.metadata,
          },
          this.base,
          nowOf(this.ctx),
        ),
        subscription: null,
        line_items: [
          { price: price.id, quantity: input.quantity, description: product.name, unit_amount: unit, interval: price.recurring.interval },
        ],
        subscription_data: { metadata: { ...input.metadata }, default_tax_rates: taxRates },
        pending_payment_method: null,
      };
      await insertObject(tx, session, { account: null, idempotencyKey: input.idempotencyKey });
      return { id: session.id, url: session.url! };
    });
  }

  /** A platform Checkout in payment mode: its hosted page charges the amount and its taxes once (`sandbox-hosted.ts`). */
  async checkoutPayment(input: Parameters<PlatformBilling['checkoutPayment']>[0]): Promise<GatewayCheckout> {
    if (!Number.isInteger(input.amount) || input.amount < 50)
      throw new Error(`sandbox billing: amount must be at least 50 cents (${input.amount})`);
    return this.db.transaction(async (tx) => {
      await lockKey(tx, null, input.idempotencyKey);
      const again = await findByKey<SandboxCheckoutSession>(tx, null, input.idempotencyKey);
      if (again) return { id: again.id, url: again.url ?? '' };
      await getObject<SandboxCustomer>(tx, 'customer', input.customerId, { account: null });
      const taxRates = await taxRateRefs(tx, input.taxRateIds);
      const tax = taxRates.reduce((a, r) => a + taxOf(input.amount, r.percentage), 0);
      const session = newCheckoutSession(
        {
          mode: 'payment',
          customer: input.customerId,
          customerEmail: null,
          amount: input.amount + tax,
          description: input.description,
          successUrl: input.successUrl,
          cancelUrl: input.cancelUrl,
          metadata: input.metadata,
        },
        this.base,
        nowOf(this.ctx),
      );
      await insertObject(tx, session, { account: null, idempotencyKey: input.idempotencyKey });
      return { id: session.id, url: session.url! };
    });
  }

  async ensureTaxRate(spec: BillingTaxRateSpec): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      await lockKey(tx, null, `tax_rate:${spec.key}`);
      const [row] = await tx
        .select({ data: sandboxObjects.data })
        .from(sandboxObjects)
        .where(
          and(
            eq(sandboxObjects.type, 'tax_rate'),
            isNull(sandboxObjects.account),
            sql`${sandboxObjects.data}->'metadata'->>'divan_tax' = ${spec.key}`,
            sql`(${sandboxObjects.data}->>'percentage')::numeric = ${spec.percentage}`,
          ),
        )
        .limit(1);
      if (row) return { id: (row.data as SandboxTaxRate).id };
      const rate: SandboxTaxRate = {
        id: newId('txr_'),
        object: 'tax_rate',
        active: true,
        percentage: spec.percentage,
        inclusive: false,
        display_name: spec.displayName,
        country: spec.country,
        jurisdiction: spec.jurisdiction,
        metadata: { divan_tax: spec.key },
        created: nowOf(this.ctx),
        livemode: false,
      };
      await insertObject(tx, rate, { account: null });
      return { id: rate.id };
    });
  }

  async retrieveInvoice(invoiceId: string): Promise<BillingInvoiceFact> {
    if (!looksLikeId(invoiceId, 'in_')) throw noSuch('invoice', invoiceId);
    return invoiceFact(await getObject<SandboxInvoice>(this.db, 'invoice', invoiceId, { account: null }));
  }

  async retrieveCheckout(sessionId: string): Promise<BillingCheckoutFact> {
    if (!looksLikeId(sessionId, 'cs_test_')) throw noSuch('checkout.session', sessionId);
    const s = await getObject<SandboxCheckoutSession>(this.db, 'checkout.session', sessionId, { account: null });
    return {
      id: s.id,
      mode: s.mode,
      status: s.status,
      paid: s.payment_status === 'paid',
      amountTotal: s.amount_total,
      customerId: s.customer,
      subscriptionId: s.subscription ?? null,
      paymentIntentId: s.payment_intent ?? null,
      metadata: { ...s.metadata },
    };
  }

  scheduleRenewalChange(subscriptionId: string, input: { priceId: string; idempotencyKey: string }): Promise<BillingSubscriptionFact> {
    return this.changes.schedule(subscriptionId, input);
  }

  releaseSchedule(subscriptionId: string, input: { idempotencyKey: string }): Promise<BillingSubscriptionFact> {
    return this.changes.release(subscriptionId, input);
  }

  async retrieveSubscription(subscriptionId: string): Promise<BillingSubscriptionFact> {
    if (!looksLikeId(subscriptionId, 'sub_')) throw noSuch('subscription', subscriptionId);
    return subscriptionFact(await getObject<SandboxSubscription>(this.db, 'subscription', subscriptionId, { account: null }));
  }

  async hasHadSubscription(customerId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: sandboxObjects.id })
      .from(sandboxObjects)
      .where(
        and(
          eq(sandboxObjects.type, 'subscription'),
          isNull(sandboxObjects.account),
          sql`${sandboxObjects.data}->>'customer' = ${customerId}`,
        ),
      )
      .limit(1);
    return !!row;
  }

  /** The card kept on the invoice when it was charged (`paid_with`): its payment method's fingerprint, detached since or not. */
  async invoiceCardFingerprints(invoiceId: string): Promise<string[]> {
    if (!looksLikeId(invoiceId, 'in_')) throw noSuch('invoice', invoiceId);
    const invoice = await getObject<SandboxInvoice>(this.db, 'invoice', invoiceId, { account: null });
    if (invoice.status !== 'paid' || !invoice.paid_with) return [];
    const pm = await findObject<SandboxPaymentMethod>(this.db, 'payment_method', invoice.paid_with, { account: null });
    return pm ? [cardFingerprintOf(pm)] : [];
  }

  /** The cards attached to the customer (a card removed on the portal is detached: no longer its). */
  async cardFingerprints(customerId: string): Promise<string[]> {
    const rows = await this.db
      .select({ data: sandboxObjects.data })
      .from(sandboxObjects)
      .where(
        and(
          eq(sandboxObjects.type, 'payment_method'),
          isNull(sandboxObjects.account),
          sql`${sandboxObjects.data}->>'customer' = ${customerId}`,
        ),
      )
      .limit(100);
    return [...new Set(rows.map((r) => cardFingerprintOf(r.data as SandboxPaymentMethod)))];
  }

  addInvoiceItem(input: Parameters<PlatformBilling['addInvoiceItem']>[0]): Promise<{ id: string }> {
    return this.db.transaction(async (tx) => {
      await lockKey(tx, null, input.idempotencyKey);
      const again = await findByKey<SandboxInvoiceItem>(tx, null, input.idempotencyKey);
      if (again) return { id: again.id };
      const sub = await getObject<SandboxSubscription>(tx, 'subscription', input.subscriptionId, { account: null });
      if (sub.customer !== input.customerId)
        throw new Error(`sandbox billing: subscription ${sub.id} is not of customer ${input.customerId}`);
      const now = nowOf(this.ctx);
      const item = sub.items.data[0]!;
      const line: SandboxInvoiceItem = {
        id: newId('ii_'),
        object: 'invoiceitem',
        amount: input.amount,
        currency: 'eur',
        description: input.description,
        date: now,
        customer: sub.customer,
        subscription: sub.id,
        proration: false,
        quantity: 1,
        invoice: null,
        // On the next invoice, which bills the next period.
        period: { start: item.current_period_end, end: item.current_period_end },
        metadata: { ...input.metadata },
        created: now,
        livemode: false,
      };
      await insertObject(tx, line, { account: null, idempotencyKey: input.idempotencyKey });
      return { id: line.id };
    });
  }

  chargeSaved(input: Parameters<PlatformBilling['chargeSaved']>[0]): Promise<SavedChargeResult> {
    return this.savedCharges.charge(input);
  }

  refundCharge(input: Parameters<PlatformBilling['refundCharge']>[0]): Promise<{ refundId: string; amount: number }> {
    return this.savedCharges.refund(input);
  }

  updateSubscription(...args: Parameters<PlatformBilling['updateSubscription']>) {
    return this.changes.update(...args);
  }

  previewUpdate(...args: Parameters<PlatformBilling['previewUpdate']>) {
    return this.changes.preview(...args);
  }

  verifyWebhook(rawBody: Buffer | string, signature: string | undefined): Promise<GatewayEvent> {
    return this.webhooks.verifyPlatform(rawBody, signature);
  }
}

/** The platform's active price with this lookup key (there is at most one, as on Stripe). */
async function platformPrice(db: DbOrTx, lookupKey: string): Promise<SandboxPrice | null> {
  const [row] = await db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(
      and(
        eq(sandboxObjects.type, 'price'),
        isNull(sandboxObjects.account),
        sql`${sandboxObjects.data}->>'lookup_key' = ${lookupKey}`,
        sql`${sandboxObjects.data}->>'active' = 'true'`,
      ),
    )
    .limit(1);
  return (row?.data as SandboxPrice | undefined) ?? null;
}
