import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PlatformBilling } from '../../platform/billing/platform-billing';
import type { Db } from '../../platform/db/database';
import type { Jobs, QueueDefinition } from '../../platform/jobs/jobs';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { isLive, toNotify, type BillingSync } from './billing-sync';
import { billingRepository } from './billing.repository';
import type { SubscriptionLock } from './subscription-lock';

const QUEUE = 'billing.push-quantity';
/** A burst of changes (roles edited one after another, a member removed and another added) pushes once, this long after the last. */
const SETTLE_MS = 1_000;

type Job = { workspaceId: string; nonce: string };

/**
 * The database is the truth for seats (decision 0026 §2): a member holding a role is a billed user. After
 * a change of members or roles, a job keyed by workspace (bursts collapse) sets the subscription's
 * quantity, prorated by the provider; the webhook of that change, or of a change made elsewhere (the
 * provider's dashboard), is reconciled the same way.
 */
export class BillingSeats {
  constructor(
    private readonly d: {
      db: Db;
      billing: PlatformBilling | null;
      jobs: Jobs;
      workspaces: WorkspacesService;
      sync: BillingSync;
      lock: SubscriptionLock;
      log: FastifyBaseLogger;
    },
  ) {}

  readonly queue: QueueDefinition<Job> = {
    name: QUEUE,
    work: (j) => this.push(j),
    retryLimit: 8,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  };

  /** After a committed change of the workspace's members or roles (or a webhook that disagrees). */
  changed = async (workspaceId: string) => {
    if (!this.d.billing) return;
    const at = new Date(Date.now() + SETTLE_MS);
    await this.d.jobs.reschedule<Job>(QUEUE, workspaceId, { workspaceId, nonce: randomUUID() }, { startAfter: at });
  };

  private async push({ workspaceId, nonce }: Job) {
    const billing = this.d.billing;
    if (!billing) return;
    const first = await billingRepository(this.d.db).subscriptionOf(workspaceId);
    if (!first || !isLive(first.status)) return;
    // Read again in the subscription's turn: what a webhook or a change of plan wrote meanwhile counts.
    const pushed = await this.d.lock.run(first.subscriptionId, async () => {
      const row = await billingRepository(this.d.db).subscriptionOf(workspaceId);
      if (!row || row.subscriptionId !== first.subscriptionId || !isLive(row.status)) return null;
      const users = Math.max(1, await this.d.workspaces.activeUsers(workspaceId));
      if (users === row.quantity) return null;
      // The key is the job's: a retry of this push is one change at the provider, a later push another.
      const fact = await billing.updateSubscription(row.subscriptionId, {
        quantity: users,
        proration: 'create_prorations',
        idempotencyKey: `divan-seats:${nonce}`,
      });
      const notify = toNotify();
      await this.d.db.transaction((tx) => this.d.sync.apply(tx, fact, notify));
      this.d.sync.tell(notify);
      return { from: row.quantity, to: users };
    });
    if (!pushed) return;
    this.d.log.info({ workspaceId, ...pushed }, 'billing: seats pushed');
  }
}
