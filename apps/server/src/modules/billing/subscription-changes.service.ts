import { randomUUID } from 'node:crypto';
import {
  isSelfServePlan,
  SELF_SERVE_RANK,
  unitPriceOf,
  type BillingChangeBody,
  type BillingChangePreview,
  type SelfServePlan,
} from '@divan/core';
import type { Membership } from '../../platform/auth/access';
import type { BillingPreview, PlatformBilling } from '../../platform/billing/platform-billing';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import { isLive, priceSpecOf, toNotify, type BillingSync } from './billing-sync';
import { canManageBilling } from './billing.service';
import { billingRepository } from './billing.repository';
import type { BillingSubscriptionRow } from './billing.tables';
import type { SubscriptionLock } from './subscription-lock';

/** The provider's preview as the API answers it. */
const previewOf = (p: BillingPreview, effective: BillingChangePreview['effective']): BillingChangePreview => ({
  effective,
  subtotal: p.subtotal,
  proration: p.proration,
  lines: p.lines,
  nextPaymentAt: new Date(p.nextPaymentAt * 1000).toISOString(),
});

type Plan = {
  effective: 'now' | 'period_end';
  proration: 'create_prorations' | 'none';
  /** `schedule`: the provider's schedule makes it at the renewal; `release`: the one waiting is dropped (back to the plan in force). */
  via?: 'schedule' | 'release';
};

/**
 * What a change of plan or interval does (decision 0026 §5): up (Basic → Premium) or monthly → yearly
 * applies now, the rest of the period prorated by the provider; down (Premium → Basic) waits for the
 * renewal, the plan paid for kept until then; back to the plan still paid for costs nothing. Yearly →
 * monthly (to any plan) waits for the renewal through the provider's subscription schedule: Stripe would
 * restart the cycle and bill at once, the rest of the year lost. Choosing the plan in force again while
 * such a change waits drops it.
 */
export function changePlan(
  row: Pick<BillingSubscriptionRow, 'planId' | 'interval' | 'paidPlanId' | 'scheduledPlanId'>,
  to: BillingChangeBody,
): Plan {
  if (!isSelfServePlan(to.planId)) throw new AppError('therapist_plan_invalid');
  if (row.planId === to.planId && row.interval === to.interval) {
    if (row.scheduledPlanId) return { effective: 'now', proration: 'none', via: 'release' };
    throw new AppError('therapist_already_has_plan');
  }
  if (row.interval === 'year' && to.interval === 'month') return { effective: 'period_end', proration: 'none', via: 'schedule' };
  if (row.paidPlanId === to.planId && row.interval === to.interval) return { effective: 'now', proration: 'none' };
  if (row.interval === 'month' && to.interval === 'year') return { effective: 'now', proration: 'create_prorations' };
  const up = SELF_SERVE_RANK[to.planId as SelfServePlan] > SELF_SERVE_RANK[row.planId as SelfServePlan];
  return up ? { effective: 'now', proration: 'create_prorations' } : { effective: 'period_end', proration: 'none' };
}

/**
 * Changes to a subscription made from Workspace › Plan: another plan or interval (with the provider's
 * preview of the next invoice first), renewal off («renovación desactivada») and back on. Each is
 * applied from the provider's answer at once, and again by its webhook (the same state either way).
 */
export class SubscriptionChanges {
  constructor(
    private readonly d: { db: Db; billing: PlatformBilling | null; sync: BillingSync; lock: SubscriptionLock; clock: () => Date },
  ) {}

  async preview(m: Membership, body: BillingChangeBody): Promise<BillingChangePreview> {
    const { billing, row } = await this.renewing(m);
    const plan = changePlan(row, body);
    if (plan.via) {
      // The renewal's invoice as it stands (its pending lines kept), its plan line on the new terms —
      // or, dropping a waiting change, on the plan in force.
      const p = await billing.previewUpdate(row.subscriptionId, { proration: 'none' });
      const unit = plan.via === 'schedule' ? unitPriceOf(body.planId, body.interval)! : row.unitAmount;
      const spec = priceSpecOf(body.planId as SelfServePlan, body.interval);
      const lines = [
        ...p.lines.filter((l) => !l.plan),
        { description: `${row.quantity} × ${spec.productName}`, amount: unit * row.quantity, proration: false },
      ];
      const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
      return previewOf({ ...p, lines, subtotal }, plan.effective);
    }
    const price = await this.price(billing, body);
    const p = await billing.previewUpdate(row.subscriptionId, { priceId: price, proration: plan.proration });
    return previewOf(p, plan.effective);
  }

  /** The next invoice as it stands, or with `quantity` users (what adding a member would add, prorated); null without one. */
  async nextInvoice(m: Membership, quantity?: number): Promise<BillingChangePreview | null> {
    const billing = this.d.billing;
    const row = billing ? await billingRepository(this.d.db).subscriptionOf(m.workspaceId) : null;
    // No plan bought, or one that ends: no next invoice.
    if (!billing || !row || !isLive(row.status) || row.cancelAtPeriodEnd) return null;
    const p = await billing.previewUpdate(row.subscriptionId, { ...(quantity ? { quantity } : {}), proration: 'create_prorations' });
    return previewOf(p, 'now');
  }

  change(m: Membership, body: BillingChangeBody): Promise<void> {
    return this.inTurn(m, 'renewing', ({ billing, row }) => this.changeNow(billing, row, body));
  }

  private async changeNow(billing: PlatformBilling, row: BillingSubscriptionRow, body: BillingChangeBody): Promise<void> {
    const plan = changePlan(row, body);
    if (plan.via === 'release') return this.apply(await this.release(billing, row));
    const priceId = await this.price(billing, body);
    if (plan.via === 'schedule') {
      return this.apply(
        await billing.scheduleRenewalChange(row.subscriptionId, { priceId, idempotencyKey: `divan-schedule:${randomUUID()}` }),
      );
    }
    // Another change now replaces the one waiting for the renewal.
    if (row.scheduledPlanId) await this.release(billing, row);
    const fact = await billing.updateSubscription(row.subscriptionId, {
      priceId,
      proration: plan.proration,
      idempotencyKey: `divan-change:${randomUUID()}`,
    });
    // A downgrade keeps what was paid for (the plan in force now) until the period's end.
    const inForce = (row.paidPlanId ?? row.planId) as SelfServePlan;
    const paid = plan.effective === 'period_end' && row.currentPeriodEnd ? { planId: inForce, until: row.currentPeriodEnd } : undefined;
    await this.apply(fact, paid);
  }

  /** «Anular el cambio»: the change waiting for the renewal dropped; the subscription renews as it is. */
  dropScheduled(m: Membership): Promise<void> {
    return this.inTurn(m, 'live', async ({ billing, row }) => {
      if (!row.scheduledPlanId) throw new AppError('billing_no_scheduled_change');
      await this.apply(await this.release(billing, row));
    });
  }

  cancel(m: Membership): Promise<void> {
    return this.inTurn(m, 'live', async ({ billing, row }) => {
      if (row.cancelAtPeriodEnd) throw new AppError('therapist_already_cancelled');
      // With the renewal off nothing is renewed: a change waiting for it goes (the provider refuses both at once).
      if (row.scheduledPlanId) await this.release(billing, row);
      await this.apply(
        await billing.updateSubscription(row.subscriptionId, {
          cancelAtPeriodEnd: true,
          proration: 'none',
          idempotencyKey: `divan-cancel:${randomUUID()}`,
        }),
      );
    });
  }

  reactivate(m: Membership): Promise<void> {
    return this.inTurn(m, 'live', async ({ billing, row }) => {
      if (!row.cancelAtPeriodEnd) throw new AppError('therapist_already_subscribed');
      await this.apply(
        await billing.updateSubscription(row.subscriptionId, {
          cancelAtPeriodEnd: false,
          proration: 'none',
          idempotencyKey: `divan-reactivate:${randomUUID()}`,
        }),
      );
    });
  }

  /**
   * A change in the subscription's turn (SubscriptionLock): the row read again once the turn came, so two
   * clicks at once are one change and one refusal, and a webhook's older read never lands after it.
   */
  private async inTurn(
    m: Membership,
    need: 'live' | 'renewing',
    work: (live: { billing: PlatformBilling; row: BillingSubscriptionRow }) => Promise<void>,
  ): Promise<void> {
    const first = await this.live(m);
    await this.d.lock.run(first.row.subscriptionId, async () => {
      const live = need === 'renewing' ? await this.renewing(m) : await this.live(m);
      await work(live);
    });
  }

  private async live(m: Membership) {
    const billing = this.d.billing;
    if (!billing) throw new AppError('billing_unavailable');
    if (!canManageBilling(m)) throw new AppError('access_denied');
    const row = await billingRepository(this.d.db).subscriptionOf(m.workspaceId);
    if (!row || !isLive(row.status)) throw new AppError('therapist_customer_not_created');
    return { billing, row };
  }

  /** A plan changes while it renews: with renewal off there is no next invoice to change (reactivate first). */
  private async renewing(m: Membership) {
    const live = await this.live(m);
    if (live.row.cancelAtPeriodEnd) throw new AppError('therapist_already_cancelled');
    return live;
  }

  private release(billing: PlatformBilling, row: BillingSubscriptionRow) {
    return billing.releaseSchedule(row.subscriptionId, { idempotencyKey: `divan-release:${randomUUID()}` });
  }

  private async price(billing: PlatformBilling, body: BillingChangeBody): Promise<string> {
    return (await billing.ensurePrice(priceSpecOf(body.planId as SelfServePlan, body.interval))).id;
  }

  private async apply(fact: Parameters<BillingSync['apply']>[1], paid?: { planId: SelfServePlan; until: Date }) {
    const notify = toNotify();
    await this.d.db.transaction((tx) => this.d.sync.apply(tx, fact, notify, paid ? { paid } : {}));
    this.d.sync.tell(notify);
  }
}
