import type { FastifyBaseLogger } from 'fastify';
import {
  BILLING_INTERVALS,
  isSelfServePlan,
  LIVE_SUBSCRIPTION_STATUSES,
  PLAN_LABELS,
  unitPriceOf,
  type BillingCheckout,
  type BillingCheckoutBody,
  type BillingCheckoutStatus,
  type BillingInterval,
  type BillingOverview,
  type SelfServePlan,
} from '@divan/core';
import type { Membership } from '../../platform/auth/access';
import type { BillingSubscriptionFact, PlatformBilling } from '../../platform/billing/platform-billing';
import type { Db, Tx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { GatewayEvent } from '../../platform/payments/gateway';
import type { Realtime } from '../../platform/realtime/realtime';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { billingRepository } from './billing.repository';
import type { BillingSubscriptionRow } from './billing.tables';

export type BillingDeps = {
  db: Db;
  /** null: Diván's billing is not configured on this server (Stripe keys without the platform endpoint's secret). */
  billing: PlatformBilling | null;
  workspaces: WorkspacesService;
  users: UsersService;
  realtime: Realtime;
  log: FastifyBaseLogger;
  publicUrl: string;
  clock: () => Date;
};

type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : null);
const idOf = (v: unknown) => (typeof v === 'string' ? v : v && typeof v === 'object' ? str((v as Obj).id) : null);

/** `divan_advance_year` → the plan and interval; null for a price Diván did not create. */
export function planOfLookupKey(key: string | null): { plan: SelfServePlan; interval: BillingInterval } | null {
  const m = /^divan_([a-z]+)_([a-z]+)$/.exec(key ?? '');
  if (!m || !isSelfServePlan(m[1]!) || !(BILLING_INTERVALS as readonly string[]).includes(m[2]!)) return null;
  return { plan: m[1], interval: m[2] as BillingInterval };
}

const isLive = (status: string) => (LIVE_SUBSCRIPTION_STATUSES as readonly string[]).includes(status);

/**
 * Diván's own plans bought through the provider's Checkout (issue 27, decision 0026, slice 1). The
 * database keeps what the provider last said; every webhook event reads the subscription again from the
 * provider, so replays and events out of order end in the same state, and the workspace's plan follows.
 */
export class BillingService {
  constructor(private readonly d: BillingDeps) {}

  private canManage = (m: Membership) => m.isOwner || m.ability.can('update', 'workspace_billing');

  async overview(m: Membership): Promise<BillingOverview> {
    const repo = billingRepository(this.d.db);
    const [sub, activeUsers] = await Promise.all([repo.subscriptionOf(m.workspaceId), this.d.workspaces.activeUsers(m.workspaceId)]);
    return {
      available: !!this.d.billing,
      mode: this.d.billing?.mode ?? 'test',
      canManage: this.canManage(m),
      activeUsers,
      subscription: sub ? present(sub) : null,
    };
  }

  /** A Checkout for a plan and interval, `quantity` the workspace's active users. */
  async checkout(m: Membership, userId: string, body: BillingCheckoutBody): Promise<BillingCheckout> {
    const billing = this.d.billing;
    if (!billing) throw new AppError('billing_unavailable');
    if (!this.canManage(m)) throw new AppError('access_denied');
    if (!isSelfServePlan(body.planId)) throw new AppError('therapist_plan_invalid');
    const wid = m.workspaceId;
    const repo = billingRepository(this.d.db);
    const current = await repo.subscriptionOf(wid);
    if (current && isLive(current.status)) throw new AppError('therapist_already_subscribed');
    const unitAmount = unitPriceOf(body.planId, body.interval);
    if (unitAmount === null) throw new AppError('therapist_plan_not_found');

    // The provider is called outside any transaction (PGlite has one connection); its idempotency keys
    // and our unique rows make a double click, or two servers, end with one customer and one session.
    const customerId = await this.customerFor(wid);
    const price = await billing.ensurePrice({
      plan: body.planId,
      interval: body.interval,
      unitAmount,
      productName: `Diván ${PLAN_LABELS[body.planId]} ${body.interval === 'year' ? 'anual' : 'mensual'}`,
    });
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

  /** The platform endpoint: checks the signature, takes each event once, and syncs what it names. */
  async receive(raw: Buffer | string, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    const billing = this.d.billing;
    if (!billing) throw new AppError('billing_unavailable');
    let event: GatewayEvent;
    try {
      event = await billing.verifyWebhook(raw, signature);
    } catch {
      throw new AppError('webhook_signature_invalid');
    }
    // A platform endpoint takes no connected account's event.
    if (event.account) return this.ignore(event, 'connected account event on the platform endpoint');
    const subscriptionId = subscriptionOfEvent(event);
    if (!subscriptionId) return this.ignore(event, null);
    // Read from the provider before the transaction: the latest state, whatever this event's age.
    const sub = await billing.retrieveSubscription(subscriptionId);
    const notify = { workspaceId: '', users: new Set<string>() };
    const taken = await this.d.db.transaction(async (tx) => {
      const repo = billingRepository(tx);
      if (!(await repo.recordEvent({ eventId: event.id, type: event.type, created: event.created, ignored: null }))) return false;
      const why = await this.sync(tx, sub, event, notify);
      if (why) {
        await repo.setEventIgnored(event.id, why);
        this.d.log.warn({ eventId: event.id, type: event.type, reason: why }, 'billing webhook event ignored');
      }
      return true;
    });
    // Their screens refetch the workspace (its plan and features) at once.
    for (const userId of notify.users) this.d.realtime.toUser(userId, 'workspace-updated', { workspaceId: notify.workspaceId });
    return { received: true, duplicate: !taken };
  }

  /** The customer of a workspace, created on the provider the first time. */
  private async customerFor(workspaceId: string): Promise<string> {
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
    return (await repo.customerOf(workspaceId))!;
  }

  /** Puts the provider's subscription on our rows and the workspace's plan; the reason when it changes nothing. */
  private async sync(
    tx: Tx,
    sub: BillingSubscriptionFact,
    event: GatewayEvent,
    notify: { workspaceId: string; users: Set<string> },
  ): Promise<string | null> {
    const repo = billingRepository(tx);
    const wid = await repo.workspaceOfCustomer(sub.customerId);
    if (!wid) return 'unknown customer';
    if (sub.metadata.divan_workspace && sub.metadata.divan_workspace !== wid) return 'workspace of the metadata is not the customer’s';
    const plan = planOfLookupKey(sub.lookupKey);
    if (!plan) return `price not of Diván's catalogue (${sub.lookupKey ?? sub.priceId})`;
    const current = await repo.subscriptionOf(wid);
    // A workspace has one subscription: an older one that ends does not undo the one in force.
    if (current && current.subscriptionId !== sub.id && isLive(current.status) && !isLive(sub.status)) return 'an older subscription';
    const periodEnd = sub.currentPeriodEnd ? new Date(sub.currentPeriodEnd * 1000) : null;
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
      syncedAt: this.d.clock(),
    });
    await this.d.workspaces.setPlan(
      wid,
      isLive(sub.status)
        ? { id: plan.plan, seats: sub.quantity, periodEnd, renovationEnabled: !sub.cancelAtPeriodEnd }
        : { id: null, seats: 1, periodEnd: null, renovationEnabled: false },
      tx,
    );
    if (event.type === 'checkout.session.completed') {
      const sessionId = str(event.object.id);
      const row = sessionId ? await repo.checkoutById(sessionId) : null;
      if (row && row.workspaceId === wid) {
        await repo.completeCheckout(row.sessionId, sub.id, this.d.clock());
        if (row.createdBy) notify.users.add(row.createdBy);
      }
    }
    notify.workspaceId = wid;
    notify.users.add(await this.d.workspaces.ownerOf(wid, tx));
    return null;
  }

  private async ignore(event: GatewayEvent, why: string | null): Promise<{ received: true; duplicate: boolean }> {
    const taken = await billingRepository(this.d.db).recordEvent({
      eventId: event.id,
      type: event.type,
      created: event.created,
      ignored: why ?? 'not about a subscription',
    });
    if (why) this.d.log.warn({ eventId: event.id, type: event.type, reason: why }, 'billing webhook event ignored');
    return { received: true, duplicate: !taken };
  }
}

/** The subscription an event is about: the subscription itself, a subscription Checkout, or an invoice of one. */
function subscriptionOfEvent(event: GatewayEvent): string | null {
  const o = event.object;
  if (event.type.startsWith('customer.subscription.')) return str(o.id);
  if (event.type === 'checkout.session.completed') return o.mode === 'subscription' ? idOf(o.subscription) : null;
  if (event.type.startsWith('invoice.')) {
    const parent = o.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
    return idOf(parent?.subscription_details?.subscription) ?? idOf(o.subscription);
  }
  return null;
}

function present(row: BillingSubscriptionRow): BillingOverview['subscription'] {
  return {
    planId: row.planId,
    interval: row.interval,
    status: row.status as NonNullable<BillingOverview['subscription']>['status'],
    quantity: row.quantity,
    unitAmount: row.unitAmount,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}
