import { StripeBilling } from '../../platform/billing/stripe-billing';
import type { PlatformBilling } from '../../platform/billing/platform-billing';
import { defineModule } from '../../platform/modules/define-module';
import { billingRoutes } from './billing.routes';
import { BillingService } from './billing.service';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Diván's own plans: Checkout, the subscription, the platform webhook. */
    billing: BillingService;
  }
}

/**
 * Diván's own billing (issue 27): Stripe Billing on the platform account with STRIPE_SECRET_KEY and
 * STRIPE_BILLING_WEBHOOK_SECRET, else the payments sandbox's Billing (its platform events delivered to
 * this module's handler, as Stripe would send them to the platform endpoint).
 */
export const billingModule = defineModule({
  name: 'billing',
  needs: ['workspaces', 'users', 'paymentsSandbox'],
  build: ({ workspaces, users, paymentsSandbox }, p) => {
    const stripe = p.config.stripe;
    const provider: PlatformBilling | null = stripe
      ? stripe.billingWebhookSecret
        ? new StripeBilling({ secretKey: stripe.secretKey, billingWebhookSecret: stripe.billingWebhookSecret, apiBase: stripe.apiBase })
        : null
      : (paymentsSandbox?.billing ?? null);
    const billing = new BillingService({
      db: p.db,
      billing: provider,
      workspaces,
      users,
      realtime: p.realtime,
      log: p.log,
      publicUrl: p.config.publicUrl,
      clock: p.clock ?? (() => new Date()),
    });
    paymentsSandbox?.deliverBillingTo(async (raw, signature) => void (await billing.receive(raw, signature)));
    return { provides: { billing }, routes: (app) => app.register(billingRoutes, { billing }) };
  },
});
