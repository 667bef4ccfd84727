import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { billingCheckouts, billingCustomers, billingEvents, billingSubscriptions, type BillingSubscriptionRow } from './billing.tables';

/** Diván's own billing rows: customers, subscriptions, Checkout sessions, the events taken. */
export const billingRepository = (db: DbOrTx) => ({
  /** The subscription's turn across processes (SubscriptionLock on PostgreSQL), until this transaction ends. */
  async takeSubscriptionTurn(subscriptionId: string): Promise<void> {
    await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`divan:billing_subscription:${subscriptionId}`}, 0))`);
  },

  async customerOf(workspaceId: string): Promise<string | null> {
    const [row] = await db
      .select({ id: billingCustomers.customerId })
      .from(billingCustomers)
      .where(eq(billingCustomers.workspaceId, workspaceId));
    return row?.id ?? null;
  },
  async workspaceOfCustomer(customerId: string): Promise<string | null> {
    const [row] = await db
      .select({ id: billingCustomers.workspaceId })
      .from(billingCustomers)
      .where(eq(billingCustomers.customerId, customerId));
    return row?.id ?? null;
  },
  /** Keeps the first customer of a workspace (two clicks at once keep one). */
  async insertCustomer(workspaceId: string, customerId: string): Promise<void> {
    await db.insert(billingCustomers).values({ workspaceId, customerId }).onConflictDoNothing();
  },

  /** With `lock`, held until the transaction ends: two applies of one workspace's subscription run one after the other. */
  async subscriptionOf(workspaceId: string, opts: { lock?: boolean } = {}): Promise<BillingSubscriptionRow | null> {
    const q = db.select().from(billingSubscriptions).where(eq(billingSubscriptions.workspaceId, workspaceId));
    const [row] = opts.lock ? await q.for('update') : await q;
    return row ?? null;
  },
  async saveSubscription(row: Omit<BillingSubscriptionRow, 'syncedAt'> & { syncedAt: Date }): Promise<void> {
    const { workspaceId: _key, ...rest } = row;
    await db.insert(billingSubscriptions).values(row).onConflictDoUpdate({ target: billingSubscriptions.workspaceId, set: rest });
  },

  async insertCheckout(values: typeof billingCheckouts.$inferInsert): Promise<void> {
    await db.insert(billingCheckouts).values(values).onConflictDoNothing();
  },
  async checkout(workspaceId: string, sessionId: string) {
    const [row] = await db
      .select()
      .from(billingCheckouts)
      .where(and(eq(billingCheckouts.sessionId, sessionId), eq(billingCheckouts.workspaceId, workspaceId)));
    return row ?? null;
  },
  async checkoutById(sessionId: string) {
    const [row] = await db.select().from(billingCheckouts).where(eq(billingCheckouts.sessionId, sessionId));
    return row ?? null;
  },
  async completeCheckout(sessionId: string, subscriptionId: string, at: Date): Promise<void> {
    await db
      .update(billingCheckouts)
      .set({ completedAt: at, subscriptionId })
      .where(and(eq(billingCheckouts.sessionId, sessionId), isNull(billingCheckouts.completedAt)));
  },

  /** Records an event once: false when it was already taken (a replay). */
  async recordEvent(e: { eventId: string; type: string; created: number; ignored: string | null }): Promise<boolean> {
    const rows = await db.insert(billingEvents).values(e).onConflictDoNothing().returning({ id: billingEvents.eventId });
    return rows.length > 0;
  },
  async setEventIgnored(eventId: string, ignored: string): Promise<void> {
    await db.update(billingEvents).set({ ignored }).where(eq(billingEvents.eventId, eventId));
  },
});
