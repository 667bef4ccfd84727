// Diván's own subscription (issue 27, decision 0026): what the plans pages read and send. Prices are the
// catalogue's (core `PLAN_PRICES`, cents per active user, VAT apart); Team is priced on contact.
import { z } from 'zod';
import { PLAN_IDS } from '../workspaces/plans';
import { BILLING_INTERVALS, SUBSCRIPTION_STATUSES } from './billing-plans';
import { PAYMENTS_MODE } from '../payments/payments.contracts';

export const billingCheckoutBody = z.object({
  planId: z.enum(PLAN_IDS, { error: 'Elige un plan' }),
  interval: z.enum(BILLING_INTERVALS, { error: 'Elige mensual o anual' }),
});
export type BillingCheckoutBody = z.infer<typeof billingCheckoutBody>;

/** Where to send the browser (the provider's hosted Checkout) and the session's id (the success page asks about it). */
export const billingCheckoutResponse = z.object({ url: z.string(), sessionId: z.string() });
export type BillingCheckout = z.infer<typeof billingCheckoutResponse>;

export const billingSubscriptionResponse = z.object({
  planId: z.enum(PLAN_IDS),
  interval: z.enum(BILLING_INTERVALS),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** Active users billed (the subscription's quantity). */
  quantity: z.number().int(),
  /** Price of one user per interval, cents, VAT apart. */
  unitAmount: z.number().int(),
  /** ISO instant the current period ends (renewal or, with renovation off, the end). */
  currentPeriodEnd: z.string().nullable(),
  /** «Renovación desactivada»: it ends at the period's end. */
  cancelAtPeriodEnd: z.boolean(),
  /** After a downgrade: the plan already paid for, in force until `until` (then `planId`). */
  paidPlan: z.object({ planId: z.enum(PLAN_IDS), until: z.string() }).nullable(),
  /** Yearly → monthly: the plan and interval the subscription moves to at `at` (its renewal), already arranged. */
  scheduledChange: z.object({ planId: z.enum(PLAN_IDS), interval: z.enum(BILLING_INTERVALS), at: z.string() }).nullable(),
});
export type BillingSubscription = z.infer<typeof billingSubscriptionResponse>;

/** GET /workspaces/:id/billing — the plans page's state for one workspace. */
export const billingOverviewResponse = z.object({
  /** Whether Diván's own billing works on this server (the sandbox always; Stripe once configured). */
  available: z.boolean(),
  mode: PAYMENTS_MODE,
  /** Whether the caller may buy or change the plan (the owner, or a role that updates workspace billing). */
  canManage: z.boolean(),
  /** Users who would be billed now: members holding a role (pending invitations do not count). */
  activeUsers: z.number().int(),
  subscription: billingSubscriptionResponse.nullable(),
});
export type BillingOverview = z.infer<typeof billingOverviewResponse>;

/**
 * GET /workspaces/:id/billing/checkout/:sessionId — what `/plans/payment-success` waits for: `applied` once
 * the provider's webhook has put the plan on the workspace (the redirect alone proves nothing).
 */
export const billingCheckoutStatusResponse = z.object({
  status: z.enum(['open', 'complete', 'expired']),
  applied: z.boolean(),
  planId: z.enum(PLAN_IDS).nullable(),
  interval: z.enum(BILLING_INTERVALS).nullable(),
});
export type BillingCheckoutStatus = z.infer<typeof billingCheckoutStatusResponse>;

/** PUT /workspaces/:id/billing/subscription and its preview: the plan and interval to change to. */
export const billingChangeBody = billingCheckoutBody;
export type BillingChangeBody = BillingCheckoutBody;

/**
 * What a change would do: `now` (an upgrade, or monthly → yearly: the features at once, the rest of the
 * period prorated) or `period_end` (a downgrade, or yearly → monthly: the plan paid for stays until the
 * renewal), and the
 * next invoice as the provider computes it (cents, VAT apart).
 */
export const billingPreviewResponse = z.object({
  effective: z.enum(['now', 'period_end']),
  /** ISO instant the next invoice is billed. */
  nextPaymentAt: z.string(),
  subtotal: z.number().int(),
  proration: z.number().int(),
  lines: z.array(z.object({ description: z.string(), amount: z.number().int(), proration: z.boolean() })),
});
export type BillingChangePreview = z.infer<typeof billingPreviewResponse>;

/** POST /workspaces/:id/billing/portal — the provider's Customer Portal (cards, receipts), to send the browser to. */
export const billingPortalResponse = z.object({ url: z.string() });
export type BillingPortal = z.infer<typeof billingPortalResponse>;
