// Diván's own subscription (issue 27): intervals, which plans are bought by Checkout, the provider's
// statuses, and the price arithmetic of the plans pages — plain code, read by the server and the web app.
import { PLAN_PRICES, type PlanId } from '../workspaces/plans';

export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];
export const BILLING_INTERVAL_LABELS: Record<BillingInterval, string> = { month: 'Mensual', year: 'Anual' };

/** The plans a workspace buys by itself through Checkout; Team is agreed with Diván's team («Consultar precio»). */
export const SELF_SERVE_PLANS = ['basic', 'advance'] as const satisfies readonly PlanId[];
export type SelfServePlan = (typeof SELF_SERVE_PLANS)[number];
export const isSelfServePlan = (id: string): id is SelfServePlan => (SELF_SERVE_PLANS as readonly string[]).includes(id);

/** Stripe's subscription statuses, as the provider reports them. */
export const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** The statuses in which the plan bought is in force (past_due: Stripe is still retrying the card). */
export const LIVE_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

/** The price of one active user for a plan and interval, in cents, VAT apart (null: on contact). */
export function unitPriceOf(plan: PlanId, interval: BillingInterval): number | null {
  const p = PLAN_PRICES[plan];
  return p ? (interval === 'month' ? p.monthly : p.yearly) : null;
}

/** What paying yearly saves against twelve monthly payments, per active user, in cents (0 when it saves nothing). */
export function yearlySavingOf(plan: PlanId): number {
  const p = PLAN_PRICES[plan];
  return p ? Math.max(0, p.monthly * 12 - p.yearly) : 0;
}

/** Basic < Premium: a move up applies at once, a move down at the renewal. */
export const SELF_SERVE_RANK: Record<SelfServePlan, number> = { basic: 1, advance: 2 };

/**
 * Users a workspace may have on Basic or Premium, each billed (the subscription's quantity follows the
 * members holding a role); beyond it, Team. Ours: the spec gives no number.
 */
export const SELF_SERVE_MAX_SEATS = 50;
