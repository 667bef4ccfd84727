import {
  BILLING_INTERVALS,
  isSelfServePlan,
  LIVE_SUBSCRIPTION_STATUSES,
  PLAN_LABELS,
  SELF_SERVE_MAX_SEATS,
  unitPriceOf,
  type BillingInterval,
  type SelfServePlan,
} from '@divan/core';
import type { BillingSubscriptionFact } from '../../platform/billing/platform-billing';
import type { Tx } from '../../platform/db/database';
import type { Realtime } from '../../platform/realtime/realtime';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { billingRepository } from './billing.repository';

/** `divan_advance_year` → the plan and interval; null for a price Diván did not create. */
export function planOfLookupKey(key: string | null): { plan: SelfServePlan; interval: BillingInterval } | null {
  const m = /^divan_([a-z]+)_([a-z]+)$/.exec(key ?? '');
  if (!m || !isSelfServePlan(m[1]!) || !(BILLING_INTERVALS as readonly string[]).includes(m[2]!)) return null;
  return { plan: m[1], interval: m[2] as BillingInterval };
}

/** The catalogue's price of a self-serve plan and interval as the provider keeps it (`ensurePrice`). */
export const priceSpecOf = (plan: SelfServePlan, interval: BillingInterval) => ({
  plan,
  interval,
  unitAmount: unitPriceOf(plan, interval)!,
  productName: `Diván ${PLAN_LABELS[plan]} ${interval === 'year' ? 'anual' : 'mensual'}`,
});

export const isLive = (status: string) => (LIVE_SUBSCRIPTION_STATUSES as readonly string[]).includes(status);

/** Who to tell once the transaction committed: their screens refetch the workspace (its plan and features). */
export type Notify = { workspaceId: string; users: Set<string> };
export const toNotify = (): Notify => ({ workspaceId: '', users: new Set() });

/**
 * The provider's subscription put on our rows and on the workspace's plan, in the caller's transaction:
 * what a webhook event and a change made from Diván's screens both end with. The workspace keeps the
 * features of a plan already paid for until the end of its period (a downgrade waits for the renewal).
 */
export class BillingSync {
  constructor(private readonly d: { workspaces: WorkspacesService; realtime: Realtime; clock: () => Date }) {}

  /** Returns why it changed nothing (unknown customer, a price not of the catalogue, an older subscription), or null. */
  async apply(
    tx: Tx,
    sub: BillingSubscriptionFact,
    notify: Notify,
    opts: { checkoutSessionId?: string | null; paid?: { planId: SelfServePlan; until: Date } } = {},
  ): Promise<string | null> {
    const repo = billingRepository(tx);
    const wid = await repo.workspaceOfCustomer(sub.customerId);
    if (!wid) return 'unknown customer';
    if (sub.metadata.divan_workspace && sub.metadata.divan_workspace !== wid) return 'workspace of the metadata is not the customer’s';
    const plan = planOfLookupKey(sub.lookupKey);
    if (!plan) return `price not of Diván's catalogue (${sub.lookupKey ?? sub.priceId})`;
    // Locked: a webhook and the change it reports, applied at once, would otherwise lose the plan kept until the renewal.
    const current = await repo.subscriptionOf(wid, { lock: true });
    // A workspace has one subscription: an older one that ends does not undo the one in force.
    if (current && current.subscriptionId !== sub.id && isLive(current.status) && !isLive(sub.status)) return 'an older subscription';
    const now = this.d.clock();
    const periodEnd = sub.currentPeriodEnd ? new Date(sub.currentPeriodEnd * 1000) : null;
    // What was paid for stays until its end; a new period (or another subscription) ends it.
    const kept =
      opts.paid ??
      (current?.subscriptionId === sub.id && current.paidPlanId && current.paidUntil
        ? { planId: current.paidPlanId, until: current.paidUntil }
        : null);
    const paid = kept && kept.until.getTime() > now.getTime() && kept.planId !== plan.plan ? kept : null;
    // What the provider's schedule waits to change at the renewal (a price not of the catalogue: none shown).
    const scheduled = sub.scheduledChange ? planOfLookupKey(sub.scheduledChange.lookupKey) : null;
    await repo.saveSubscription({
      workspaceId: wid,
      subscriptionId: sub.id,
      planId: plan.plan,
      interval: plan.interval,
      status: sub.status,
      quantity: sub.quantity,
      unitAmount: sub.unitAmount,
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      paidPlanId: paid?.planId ?? null,
      paidUntil: paid?.until ?? null,
      scheduledPlanId: scheduled?.plan ?? null,
      scheduledInterval: scheduled?.interval ?? null,
      scheduledAt: scheduled ? new Date(sub.scheduledChange!.at * 1000) : null,
      syncedAt: now,
    });
    await this.d.workspaces.setPlan(
      wid,
      isLive(sub.status)
        ? // Seats are billed as they are used (the quantity follows the members), up to the self-serve cap.
          { id: paid?.planId ?? plan.plan, seats: SELF_SERVE_MAX_SEATS, periodEnd, renovationEnabled: !sub.cancelAtPeriodEnd }
        : { id: null, seats: 1, periodEnd: null, renovationEnabled: false },
      tx,
    );
    if (opts.checkoutSessionId) {
      const row = await repo.checkoutById(opts.checkoutSessionId);
      if (row && row.workspaceId === wid) {
        await repo.completeCheckout(row.sessionId, sub.id, now);
        if (row.createdBy) notify.users.add(row.createdBy);
      }
    }
    notify.workspaceId = wid;
    notify.users.add(await this.d.workspaces.ownerOf(wid, tx));
    return null;
  }

  /** After the commit: the plan changed on their screens at once. */
  tell(notify: Notify) {
    for (const userId of notify.users) this.d.realtime.toUser(userId, 'workspace-updated', { workspaceId: notify.workspaceId });
  }
}
