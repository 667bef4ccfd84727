import type { Db } from '../../platform/db/database';
import { billingRepository } from './billing.repository';

/**
 * One writer at a time per provider subscription, from its read (or write) at the provider to our rows:
 * a webhook that read the subscription just before a change made from Diván's screens must not put the
 * older state back after it (a renewal turned on again, then off by the late webhook of its cancel).
 * In this process a queue per subscription; on PostgreSQL also an advisory lock held by a transaction
 * of its own for the whole turn, so other processes wait too. PGlite has one process and one connection:
 * the queue is the whole lock there (a transaction held open would stop every other query).
 */
export class SubscriptionLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(private readonly d: { db: Db; kind: 'pglite' | 'postgres' }) {}

  run<T>(subscriptionId: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(subscriptionId) ?? Promise.resolve();
    const turn = before.catch(() => undefined).then(() => this.across(subscriptionId, work));
    const tail = turn.catch(() => undefined);
    this.tails.set(subscriptionId, tail);
    void tail.then(() => {
      if (this.tails.get(subscriptionId) === tail) this.tails.delete(subscriptionId);
    });
    return turn;
  }

  private across<T>(subscriptionId: string, work: () => Promise<T>): Promise<T> {
    if (this.d.kind === 'pglite') return work();
    return this.d.db.transaction(async (tx) => {
      await billingRepository(tx).takeSubscriptionTurn(subscriptionId);
      return work();
    });
  }
}
