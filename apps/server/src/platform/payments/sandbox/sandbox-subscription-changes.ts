import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database';
import type { BillingPreview, BillingSubscriptionFact } from '../../billing/platform-billing';
import { nowOf, type SandboxContext } from './sandbox-charges';
import { findByKey, getObject, insertObject, lockKey, looksLikeId, newId, noSuch, SandboxRequestError, saveObject } from './sandbox-store';
import {
  paidSubscriptionInvoice,
  periodEnd,
  prorationLines,
  subscriptionFact,
  type SandboxInvoiceItem,
  type SandboxTaxRate,
  type SandboxPrice,
  type SandboxProduct,
  type SandboxSubscription,
} from './sandbox-subscriptions';
import type { SandboxWebhooks } from './sandbox-webhooks';
import { sandboxObjects } from './sandbox.tables';

/**
 * `subscriptions.update` and `invoices.createPreview` of the sandbox's Billing: another price or
 * quantity, prorated as Stripe does (pending invoice items on the next invoice), a new interval that
 * restarts the cycle and bills at once, renewal on or off; and the next invoice as it would be.
 */
export class SandboxSubscriptionChanges {
  constructor(
    private readonly db: Db,
    private readonly ctx: SandboxContext,
    private readonly webhooks: SandboxWebhooks,
  ) {}

  async update(
    subscriptionId: string,
    input: {
      priceId?: string;
      quantity?: number;
      proration: 'create_prorations' | 'none';
      cancelAtPeriodEnd?: boolean;
      taxRateIds?: string[];
      idempotencyKey: string;
    },
  ): Promise<BillingSubscriptionFact> {
    if (input.quantity !== undefined && (!Number.isInteger(input.quantity) || input.quantity < 1))
      throw new Error(`sandbox billing: quantity must be a positive integer (${input.quantity})`);
    return this.keyed(subscriptionId, input.idempotencyKey, async (tx, sub) => {
      // Stripe's refusal while a schedule manages it (the renewal) — the app releases the schedule first.
      if (sub.schedule && (input.cancelAtPeriodEnd !== undefined || (input.priceId && input.priceId !== sub.items.data[0]!.price.id)))
        throw new SandboxRequestError(
          'resource_missing',
          `The subscription is managed by the subscription schedule \`${sub.schedule.id}\`, and updating it directly is not allowed. Please update the schedule instead.`,
        );
      // Through the schedule: its next phase keeps the new quantity too.
      if (sub.schedule && input.quantity !== undefined) sub.schedule.next_phase.quantity = input.quantity;
      const now = nowOf(this.ctx);
      const change = await this.change(tx, sub, input, now);
      if (change) {
        const item = sub.items.data[0]!;
        if (change.intervalChanged) {
          // A new interval restarts the billing cycle now and bills the new period at once (Stripe's rule).
          const lines = input.proration === 'create_prorations' ? [change.lines[0]!] : [];
          Object.assign(item, {
            price: change.price,
            quantity: change.to.quantity,
            current_period_start: now,
            current_period_end: periodEnd(now, change.price.recurring.interval),
          });
          // The invoice made now takes the pending invoice items with it, as Stripe's does.
          const pending = await pendingItems(tx, sub.id);
          await this.invoiceNow(
            tx,
            sub,
            [
              ...pending.map((i) => ({ description: i.description ?? '', amount: i.amount, quantity: i.quantity, proration: i.proration })),
              ...lines.map((l) => ({ ...l, proration: true })),
              {
                description: change.to.description,
                amount: change.to.unitAmount * change.to.quantity,
                quantity: change.to.quantity,
                proration: false,
              },
            ],
            now,
            'subscription_update',
          );
        } else {
          if (input.proration === 'create_prorations')
            for (const line of change.lines) await this.pendingItem(tx, sub, line, { start: now, end: item.current_period_end }, now);
          Object.assign(item, { price: change.price, quantity: change.to.quantity });
        }
      }
      if (input.cancelAtPeriodEnd !== undefined) sub.cancel_at_period_end = input.cancelAtPeriodEnd;
      if (input.taxRateIds) sub.default_tax_rates = await taxRateRefs(tx, input.taxRateIds);
      await saveObject(tx, sub);
      await this.webhooks.emit(tx, null, 'customer.subscription.updated', sub, now);
      return subscriptionFact(sub);
    });
  }

  /** A schedule whose next phase, from the period's end, is on `priceId` with the same quantity (Stripe's `from_subscription` + phases). */
  async schedule(subscriptionId: string, input: { priceId: string; idempotencyKey: string }): Promise<BillingSubscriptionFact> {
    return this.keyed(subscriptionId, input.idempotencyKey, async (tx, sub) => {
      if (sub.cancel_at_period_end)
        throw new SandboxRequestError('resource_missing', 'A subscription that cancels at its period end cannot be scheduled.');
      const item = sub.items.data[0]!;
      const price = await getObject<SandboxPrice>(tx, 'price', input.priceId, { account: null });
      sub.schedule = {
        id: sub.schedule?.id ?? newId('sub_sched_'),
        object: 'subscription_schedule',
        status: 'active',
        next_phase: {
          start_date: item.current_period_end,
          price: {
            id: price.id,
            object: 'price',
            lookup_key: price.lookup_key,
            unit_amount: price.unit_amount,
            currency: price.currency,
            recurring: price.recurring,
          },
          quantity: item.quantity ?? 1,
        },
      };
      const now = nowOf(this.ctx);
      await saveObject(tx, sub);
      await this.webhooks.emit(tx, null, 'subscription_schedule.updated', { ...sub.schedule, subscription: sub.id }, now);
      return subscriptionFact(sub);
    });
  }

  /** `subscription_schedules.release`: the subscription goes on as it is (no schedule: nothing to do). */
  async release(subscriptionId: string, input: { idempotencyKey: string }): Promise<BillingSubscriptionFact> {
    return this.keyed(subscriptionId, input.idempotencyKey, async (tx, sub) => {
      const schedule = sub.schedule;
      if (!schedule) return subscriptionFact(sub);
      sub.schedule = null;
      await saveObject(tx, sub);
      const now = nowOf(this.ctx);
      await this.webhooks.emit(
        tx,
        null,
        'subscription_schedule.released',
        { ...schedule, subscription: null, released_subscription: sub.id },
        now,
      );
      return subscriptionFact(sub);
    });
  }

  /**
   * One request under its idempotency key, the subscription locked: a replay answers the subscription as
   * it is, changing nothing again; a canceled one refuses as Stripe does.
   */
  private keyed(
    subscriptionId: string,
    key: string,
    fn: (tx: DbOrTx, sub: SandboxSubscription) => Promise<BillingSubscriptionFact>,
  ): Promise<BillingSubscriptionFact> {
    if (!looksLikeId(subscriptionId, 'sub_')) throw noSuch('subscription', subscriptionId);
    return this.db.transaction(async (tx) => {
      await lockKey(tx, null, key);
      const sub = await getObject<SandboxSubscription>(tx, 'subscription', subscriptionId, { account: null, lock: true });
      if (await findByKey(tx, null, key)) return subscriptionFact(sub);
      await insertObject(
        tx,
        { id: newId('idem_'), object: 'idempotency_record', subscription: sub.id },
        { account: null, idempotencyKey: key },
      );
      if (sub.status === 'canceled')
        throw new SandboxRequestError('resource_missing', `A canceled subscription can only update its cancellation_details and metadata.`);
      return fn(tx, sub);
    });
  }

  async preview(
    subscriptionId: string,
    input: { priceId?: string; quantity?: number; proration: 'create_prorations' | 'none' },
  ): Promise<BillingPreview> {
    if (!looksLikeId(subscriptionId, 'sub_')) throw noSuch('subscription', subscriptionId);
    const sub = await getObject<SandboxSubscription>(this.db, 'subscription', subscriptionId, { account: null });
    const item = sub.items.data[0]!;
    const now = nowOf(this.ctx);
    const change = await this.change(this.db, sub, input, now);
    const pending = (await pendingItems(this.db, sub.id)).map((i) => ({
      description: i.description ?? '',
      amount: i.amount,
      proration: i.proration,
    }));
    // The renewal's line: the new terms, or the schedule's next phase when a change waits for the renewal.
    const renewal = sub.schedule && !change?.intervalChanged ? sub.schedule.next_phase.price : null;
    const unit = renewal ? (renewal.unit_amount ?? 0) : (change?.to.unitAmount ?? item.price.unit_amount ?? 0);
    const quantity = change?.to.quantity ?? item.quantity ?? 1;
    const description = renewal
      ? await this.productName(this.db, renewal.id)
      : (change?.to.description ?? (await this.productName(this.db, item.price.id)));
    const prorations =
      input.proration === 'create_prorations' && change
        ? change.lines.map((l) => ({ description: l.description, amount: l.amount, proration: true }))
        : [];
    const lines = change?.intervalChanged
      ? [...pending, ...prorations.slice(0, 1), { description, amount: unit * quantity, proration: false, plan: true }]
      : [...pending, ...prorations, { description, amount: unit * quantity, proration: false, plan: true }];
    return {
      subtotal: lines.reduce((a, l) => a + l.amount, 0),
      proration: lines.filter((l) => l.proration).reduce((a, l) => a + l.amount, 0),
      nextPaymentAt: change?.intervalChanged ? now : item.current_period_end,
      lines,
    };
  }

  /** What a change of price or quantity would be: the new price, the terms before and after, Stripe's proration lines. */
  private async change(db: DbOrTx, sub: SandboxSubscription, input: { priceId?: string; quantity?: number }, now: number) {
    const item = sub.items.data[0];
    if (!item) throw new Error(`sandbox billing: subscription ${sub.id} has no item`);
    const priceChanged = !!input.priceId && input.priceId !== item.price.id;
    const quantityChanged = input.quantity !== undefined && input.quantity !== item.quantity;
    if (!priceChanged && !quantityChanged) return null;
    const price = priceChanged ? await getObject<SandboxPrice>(db, 'price', input.priceId!, { account: null }) : null;
    const next = price
      ? {
          id: price.id,
          object: 'price' as const,
          lookup_key: price.lookup_key,
          unit_amount: price.unit_amount,
          currency: price.currency,
          recurring: price.recurring,
        }
      : item.price;
    const from = {
      unitAmount: item.price.unit_amount ?? 0,
      quantity: item.quantity ?? 1,
      description: await this.productName(db, item.price.id),
    };
    const to = {
      unitAmount: next.unit_amount ?? 0,
      quantity: input.quantity ?? item.quantity ?? 1,
      description: await this.productName(db, next.id),
    };
    return {
      price: next,
      from,
      to,
      intervalChanged: next.recurring.interval !== item.price.recurring.interval,
      lines: prorationLines(item, from, to, now),
    };
  }

  private async productName(db: DbOrTx, priceId: string): Promise<string> {
    const price = await getObject<SandboxPrice>(db, 'price', priceId, { account: null });
    return (await getObject<SandboxProduct>(db, 'product', price.product, { account: null })).name;
  }

  private async pendingItem(
    tx: DbOrTx,
    sub: SandboxSubscription,
    line: { description: string; amount: number; quantity: number },
    period: { start: number; end: number },
    now: number,
  ) {
    const item: SandboxInvoiceItem = {
      id: newId('ii_'),
      object: 'invoiceitem',
      amount: line.amount,
      currency: 'eur',
      description: line.description,
      date: now,
      customer: sub.customer,
      subscription: sub.id,
      proration: true,
      quantity: line.quantity,
      invoice: null,
      period,
      created: now,
      livemode: false,
    };
    await insertObject(tx, item, { account: null });
  }

  /** An invoice billed at once to the subscription's card (a new interval's first period). */
  private async invoiceNow(
    tx: DbOrTx,
    sub: SandboxSubscription,
    lines: { description: string; amount: number; quantity: number; proration: boolean }[],
    now: number,
    reason: 'subscription_update',
  ) {
    const item = sub.items.data[0]!;
    const invoice = paidSubscriptionInvoice(
      { id: newId('in_'), subscription: sub, reason, now, paidWith: sub.default_payment_method },
      lines.map((l) => ({
        description: l.description,
        amount: l.amount,
        quantity: l.quantity,
        period: { start: now, end: item.current_period_end },
      })),
    );
    await insertObject(tx, invoice, { account: null });
    for (const pending of await pendingItems(tx, sub.id)) await saveObject(tx, { ...pending, invoice: invoice.id });
    sub.latest_invoice = invoice.id;
    await this.webhooks.emit(tx, null, 'invoice.paid', invoice, now);
  }
}

/** The tax rates' references a subscription keeps (each must exist on the platform account). */
export async function taxRateRefs(db: DbOrTx, ids: readonly string[]) {
  const refs = [];
  for (const id of ids) {
    const r = await getObject<SandboxTaxRate>(db, 'tax_rate', id, { account: null });
    refs.push({ id: r.id, object: r.object, percentage: r.percentage, inclusive: r.inclusive, display_name: r.display_name });
  }
  return refs;
}

/** The proration lines of a subscription not yet on an invoice. */
export async function pendingItems(db: DbOrTx, subscriptionId: string): Promise<SandboxInvoiceItem[]> {
  const rows = await db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(
      and(
        eq(sandboxObjects.type, 'invoiceitem'),
        isNull(sandboxObjects.account),
        sql`${sandboxObjects.data}->>'subscription' = ${subscriptionId}`,
        sql`${sandboxObjects.data}->>'invoice' IS NULL`,
      ),
    )
    .orderBy(sandboxObjects.createdAt);
  return rows.map((r) => r.data as SandboxInvoiceItem);
}
