import { StripeBilling } from '../../platform/billing/stripe-billing';
import type { PlatformBilling } from '../../platform/billing/platform-billing';
import { defineModule, handle } from '../../platform/modules/define-module';
import { billingDetailsRoutes } from './billing-details.routes';
import { BillingDetailsService } from './billing-details.service';
import { BillingDunning } from './billing-dunning';
import { BillingSeats } from './billing-seats.service';
import { BillingSync } from './billing-sync';
import { BillingWebhooks } from './billing-webhooks.service';
import { billingRoutes } from './billing.routes';
import { giftRoutes } from './gift.routes';
import { GiftService } from './gift.service';
import { OneOffSales } from './one-off-sales.service';
import { referralRoutes } from './referral.routes';
import { ReferralService } from './referral.service';
import { BillingService } from './billing.service';
import { SubscriptionChanges } from './subscription-changes.service';
import { SubscriptionLock } from './subscription-lock';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Diván's own plans: Checkout, the subscription, the platform webhook. */
    billing: BillingService;
    /** Invitation codes: a friend's free month at sign-up, the referrer's month off. */
    referrals: ReferralService;
    /** Things Diván sells once on top of the plan (the training library's videos): charged, invoiced, refunded. */
    sales: OneOffSales;
  }
}

/**
 * Diván's own billing (issue 27): Stripe Billing on the platform account with STRIPE_SECRET_KEY and
 * STRIPE_BILLING_WEBHOOK_SECRET, else the payments sandbox's Billing (its platform events delivered to
 * this module's handler, as Stripe would send them to the platform endpoint).
 */
export const billingModule = defineModule({
  name: 'billing',
  needs: ['workspaces', 'users', 'paymentsSandbox', 'operatorInvoicing'],
  build: ({ workspaces, users, paymentsSandbox, operatorInvoicing }, p) => {
    const stripe = p.config.stripe;
    const provider: PlatformBilling | null = stripe
      ? stripe.billingWebhookSecret
        ? new StripeBilling({ secretKey: stripe.secretKey, billingWebhookSecret: stripe.billingWebhookSecret, apiBase: stripe.apiBase })
        : null
      : (paymentsSandbox?.billing ?? null);
    const clock = p.clock ?? (() => new Date());
    const sync = new BillingSync({ workspaces, realtime: p.realtime, clock });
    const lock = new SubscriptionLock({ db: p.db, kind: p.config.databaseUrl ? 'postgres' : 'pglite' });
    const dunning = new BillingDunning({ db: p.db, billing: provider, mailer: p.mailer, users, workspaces, publicUrl: p.config.publicUrl });
    const details = new BillingDetailsService({
      db: p.db,
      billing: provider,
      operator: operatorInvoicing,
      log: p.log,
      ownerEmailOf: async (wid) => (await users.findManyByIds([await workspaces.ownerOf(wid)]))[0]?.email ?? null,
    });
    const billing = new BillingService({
      db: p.db,
      billing: provider,
      workspaces,
      users,
      publicUrl: p.config.publicUrl,
      clock,
      taxRateIdsOf: (wid) => details.taxRateIdsOf(wid),
      customerCreated: (wid, customerId) => details.customerCreated(wid, customerId),
    });
    const changes = new SubscriptionChanges({ db: p.db, billing: provider, sync, lock, clock });
    const seats = new BillingSeats({ db: p.db, billing: provider, jobs: p.jobs, workspaces, sync, lock, log: p.log });
    const referrals = new ReferralService({
      db: p.db,
      billing: provider,
      workspaces,
      users,
      publicUrl: p.config.publicUrl,
      log: p.log,
      clock,
    });
    const gifts = new GiftService({
      db: p.db,
      billing: provider,
      tokens: p.tokens,
      mailer: p.mailer,
      workspaces,
      users,
      details,
      customerFor: (wid) => billing.customerFor(wid),
      publicUrl: p.config.publicUrl,
      log: p.log,
      clock,
    });
    const sales = new OneOffSales({
      db: p.db,
      billing: provider,
      details,
      customerFor: (wid) => billing.customerFor(wid),
      log: p.log,
      clock,
    });
    const webhooks = new BillingWebhooks({
      db: p.db,
      billing: provider,
      sync,
      lock,
      log: p.log,
      afterSync: async (wid) => {
        await seats.changed(wid);
        await referrals.subscriptionChanged(wid);
      },
      invoicePaid: (id) => details.invoicePaid(id),
      chargePaid: (id) => referrals.chargePaid(id),
      giftPaid: async (id) => {
        const outcome = await gifts.checkoutPaid(id);
        return outcome === 'not a gift' ? sales.paymentCheckoutPaid(id) : outcome;
      },
      paymentFailed: (id) => dunning.paymentFailed(id),
      taxIdChecked: (customerId, taxIdId) => details.taxIdChecked(customerId, taxIdId),
    });
    paymentsSandbox?.deliverBillingTo(async (raw, signature) => void (await webhooks.receive(raw, signature)));
    return {
      provides: { billing, referrals, sales },
      routes: (app) =>
        app
          .register(billingRoutes, { billing, changes, webhooks })
          .register(billingDetailsRoutes, { details })
          .register(referralRoutes, { referrals, perIpPerMinute: p.config.rateLimit.perIpPerMinute })
          .register(giftRoutes, { gifts, perIpPerMinute: p.config.rateLimit.perIpPerMinute }),
      jobs: [seats.queue],
      // Members or roles changed: the subscription's quantity follows.
      on: [handle('workspace.access_changed', 'once', (e) => seats.changed(e.workspaceId))],
    };
  },
});
