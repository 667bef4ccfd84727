import {
  isSelfServePlan,
  unitPriceOf,
  type BillingCheckout,
  type BillingCheckoutBody,
  type BillingCheckoutStatus,
  type BillingOverview,
  type BillingPortal,
} from '@divan/core';
import type { Membership } from '../../platform/auth/access';
import type { PlatformBilling } from '../../platform/billing/platform-billing';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { isLive, priceSpecOf } from './billing-sync';
import { billingRepository } from './billing.repository';
import type { BillingSubscriptionRow } from './billing.tables';

export type BillingDeps = {
  db: Db;
  /** null: Diván's billing is not configured on this server (Stripe keys without the platform endpoint's secret). */
  billing: PlatformBilling | null;
  workspaces: WorkspacesService;
  users: UsersService;
  publicUrl: string;
  clock: () => Date;
  /** The provider's tax rates for the workspace's billing data (`billing_details_missing` without them). */
  taxRateIdsOf: (workspaceId: string) => Promise<string[]>;
  /** A customer just made on the provider: its name and address from the billing data. */
  customerCreated: (workspaceId: string, customerId: string) => Promise<void>;
};

/** The owner, or a role that updates workspace billing, buys and changes the plan; every member sees it. */
export const canManageBilling = (m: Membership) => m.isOwner || m.ability.can('update', 'workspace_billing');

/**
 * Diván's own plans (issue 27, decision 0026): what a workspace has, and a plan bought through the
 * provider's hosted Checkout. The plan goes on only when the provider's webhook says it is paid
 * (`BillingWebhooks`), never on the redirect.
 */
export class BillingService {
  constructor(private readonly d: BillingDeps) {}

  async overview(m: Membership): Promise<BillingOverview> {
    const repo = billingRepository(this.d.db);
    const [sub, activeUsers] = await Promise.all([repo.subscriptionOf(m.workspaceId), this.d.workspaces.activeUsers(m.workspaceId)]);
    return {
      available: !!this.d.billing,
      mode: this.d.billing?.mode ?? 'test',
      canManage: canManageBilling(m),
      activeUsers,
      subscription: sub ? present(sub) : null,
    };
  }

  /** A Checkout for a plan and interval, `quantity` the workspace's active users. */
  async checkout(m: Membership, userId: string, body: BillingCheckoutBody): Promise<BillingCheckout> {
    const billing = this.d.billing;
    if (!billing) throw new AppError('billing_unavailable');
    if (!canManageBilling(m)) throw new AppError('access_denied');
    if (!isSelfServePlan(body.planId)) throw new AppError('therapist_plan_invalid');
    const wid = m.workspaceId;
    const repo = billingRepository(this.d.db);
    const current = await repo.subscriptionOf(wid);
    if (current && isLive(current.status)) throw new AppError('therapist_already_subscribed');
    // Team is agreed with Diván's team (an operator sets it): buying Basic or Premium would undo it.
    if ((await this.d.workspaces.get(wid, userId)).plan.id === 'team') throw new AppError('therapist_already_subscribed');
    const unitAmount = unitPriceOf(body.planId, body.interval);
    if (unitAmount === null) throw new AppError('therapist_plan_not_found');

    // Diván's invoice needs whom to invoice, and its tax follows them: asked before paying.
    const taxRateIds = await this.d.taxRateIdsOf(wid);
    // The provider is called outside any transaction (PGlite has one connection); its idempotency keys
    // and our unique rows make a double click, or two servers, end with one customer and one session.
    const customerId = await this.customerFor(wid);
    const price = await billing.ensurePrice(priceSpecOf(body.planId, body.interval));
    const quantity = Math.max(1, await this.d.workspaces.activeUsers(wid));
    const hour = Math.floor(this.d.clock().getTime() / 3_600_000);
    const base = this.d.publicUrl.replace(/\/+$/, '');
    const session = await billing.checkoutSubscription({
      customerId,
      priceId: price.id,
      quantity,
      successUrl: `${base}/plans/payment-success?session_id={CHECKOUT_SESSION_ID}&workspace=${wid}`,
      cancelUrl: `${base}/plans?canceled=1`,
      metadata: { divan_workspace: wid, divan_plan: body.planId, divan_interval: body.interval },
      taxRateIds,
      idempotencyKey: `divan-checkout:${wid}:${body.planId}:${body.interval}:${quantity}:${hour}`,
    });
    await repo.insertCheckout({
      sessionId: session.id,
      workspaceId: wid,
      planId: body.planId,
      interval: body.interval,
      quantity,
      createdBy: userId,
    });
    return { url: session.url, sessionId: session.id };
  }

  /** The provider's Customer Portal of the workspace's customer: its cards and receipts (Ajustes › Espacio › Plan comes back). */
  async portal(m: Membership): Promise<BillingPortal> {
    const billing = this.d.billing;
    if (!billing) throw new AppError('billing_unavailable');
    if (!canManageBilling(m)) throw new AppError('access_denied');
    const customerId = await billingRepository(this.d.db).customerOf(m.workspaceId);
    if (!customerId) throw new AppError('therapist_customer_not_created');
    return billing.portal(customerId, `${this.d.publicUrl.replace(/\/+$/, '')}/settings/workspace/plan`);
  }

  /** What `/plans/payment-success` waits for: applied once the provider's webhook put the plan on. */
  async checkoutStatus(m: Membership, sessionId: string): Promise<BillingCheckoutStatus> {
    const row = await billingRepository(this.d.db).checkout(m.workspaceId, sessionId);
    if (!row) throw new AppError('billing_checkout_not_found');
    const plan = { planId: row.planId, interval: row.interval };
    if (row.completedAt) return { status: 'complete', applied: true, ...plan };
    if (!this.d.billing) return { status: 'open', applied: false, ...plan };
    const fact = await this.d.billing.retrieveCheckout(sessionId);
    return { status: fact.status, applied: false, ...plan };
  }

  /** The customer of a workspace, created on the provider the first time. */
  async customerFor(workspaceId: string): Promise<string> {
    const repo = billingRepository(this.d.db);
    const known = await repo.customerOf(workspaceId);
    if (known) return known;
    const ownerId = await this.d.workspaces.ownerOf(workspaceId);
    const [owner] = await this.d.users.findManyByIds([ownerId]);
    const name = (await this.d.workspaces.nameOf(workspaceId)) ?? 'Espacio de Diván';
    const created = await this.d.billing!.createCustomer({
      email: owner?.email ?? null,
      name,
      metadata: { divan_workspace: workspaceId },
      idempotencyKey: `divan-customer:${workspaceId}`,
    });
    await repo.insertCustomer(workspaceId, created.id);
    const kept = (await repo.customerOf(workspaceId))!;
    await this.d.customerCreated(workspaceId, kept);
    return kept;
  }
}

export function present(row: BillingSubscriptionRow): BillingOverview['subscription'] {
  return {
    planId: row.planId,
    interval: row.interval,
    status: row.status as NonNullable<BillingOverview['subscription']>['status'],
    quantity: row.quantity,
    unitAmount: row.unitAmount,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    paidPlan: row.paidPlanId && row.paidUntil ? { planId: row.paidPlanId, until: row.paidUntil.toISOString() } : null,
    scheduledChange:
      row.scheduledPlanId && row.scheduledInterval && row.scheduledAt
        ? { planId: row.scheduledPlanId, interval: row.scheduledInterval, at: row.scheduledAt.toISOString() }
        : null,
  };
}
