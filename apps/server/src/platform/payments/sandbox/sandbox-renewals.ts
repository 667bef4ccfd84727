/**
 * The sandbox's test clock for Diván's subscriptions (issue 27, decision 0026 §6 and §10): what Stripe
 * does as time passes, played up to a moment. At a period's end the subscription renews — its next
 * period's invoice (the plan and the pending prorations, with its taxes) charged off session to the
 * default card — or ends, when its renewal is off. A declined renewal leaves the invoice open and the
 * subscription `past_due`, and is retried 1, 3, 5 and 7 days after it was made (Stripe's «4 retries
 * within 1 week», Billing › Revenue recovery); after the last, the subscription is `unpaid` (its open
 * invoice waits). A card added on the portal is tried at once on an open invoice, as Stripe does when the
 * customer updates their payment method. A change waiting for the renewal (a schedule's next phase: yearly →
 * monthly) enters at the period's end, and the renewal's invoice is on its price. Each event is dated when
 * it would have happened.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database';
import { paymentOutcome, type SandboxContext } from './sandbox-charges';
import type { SandboxPaymentMethod } from './sandbox-objects';
import { getObject, insertObject, looksLikeId, newId, noSuch, saveObject } from './sandbox-store';
import { pendingItems } from './sandbox-subscription-changes';
import {
  paidSubscriptionInvoice,
  periodEnd,
  type SandboxInvoice,
  type SandboxPrice,
  type SandboxProduct,
  type SandboxSubscription,
} from './sandbox-subscriptions';
import { sandboxObjects } from './sandbox.tables';

const DAY = 86_400;
/** When a declined renewal is tried again, in days after its invoice was made. */
export const RETRY_DAYS = [1, 3, 5, 7] as const;

export class SandboxRenewals {
  constructor(
    private readonly db: Db,
    private readonly ctx: SandboxContext,
  ) {}

  /** Plays the subscription's renewals, retries and end up to `to` (Unix seconds); answers it as it is then. */
  async advance(subscriptionId: string, to: number): Promise<SandboxSubscription> {
    if (!looksLikeId(subscriptionId, 'sub_')) throw noSuch('subscription', subscriptionId);
    return this.db.transaction(async (tx) => {
      // Locked for the run: two advances of one subscription play it once.
      await tx.execute(sql`select 1 from ${sandboxObjects} where ${sandboxObjects.id} = ${subscriptionId} for update`);
      let sub = await getObject<SandboxSubscription>(tx, 'subscription', subscriptionId, { account: null });
      for (let step = 0; step < 500; step++) {
        if (sub.status === 'canceled' || sub.status === 'incomplete_expired') break;
        const open = await openInvoice(tx, sub.id);
        const item = sub.items.data[0]!;
        const retryAt = open?.next_payment_attempt ?? Infinity;
        const endAt = open || sub.status === 'unpaid' ? Infinity : item.current_period_end;
        const at = Math.min(retryAt, endAt);
        if (at > to) break;
        if (open && at === retryAt) await this.attempt(tx, sub, open, at);
        else if (sub.cancel_at_period_end) await this.end(tx, sub, at);
        else await this.renew(tx, sub, at);
        sub = await getObject<SandboxSubscription>(tx, 'subscription', subscriptionId, { account: null });
      }
      return sub;
    });
  }

  /** A new default card on an open invoice: tried at once (Stripe retries when the payment method changes). */
  async retryWithNewCard(tx: DbOrTx, sub: SandboxSubscription, at: number): Promise<void> {
    const open = await openInvoice(tx, sub.id);
    if (open) await this.attempt(tx, sub, open, at);
  }

  private async end(tx: DbOrTx, sub: SandboxSubscription, at: number) {
    Object.assign(sub, { status: 'canceled', ended_at: at, canceled_at: at });
    await saveObject(tx, sub);
    await this.ctx.webhooks.emit(tx, null, 'customer.subscription.deleted', sub, at);
  }

  /** The next period begins at `at`: its invoice made (the plan for the period and what is pending) and charged. */
  private async renew(tx: DbOrTx, sub: SandboxSubscription, at: number) {
    const item = sub.items.data[0]!;
    // A change waiting for the renewal enters now (the schedule's next phase), and the schedule is released.
    const next = sub.schedule?.next_phase;
    if (next && next.start_date <= at) {
      const schedule = sub.schedule!;
      Object.assign(item, { price: next.price, quantity: next.quantity });
      sub.schedule = null;
      await this.ctx.webhooks.emit(
        tx,
        null,
        'subscription_schedule.released',
        { ...schedule, subscription: null, released_subscription: sub.id },
        at,
      );
    }
    const price = await getObject<SandboxPrice>(tx, 'price', item.price.id, { account: null });
    const product = await getObject<SandboxProduct>(tx, 'product', price.product, { account: null });
    const end = periodEnd(at, price.recurring.interval);
    const quantity = item.quantity ?? 1;
    const pending = await pendingItems(tx, sub.id);
    const invoice = paidSubscriptionInvoice(
      { id: newId('in_'), subscription: sub, reason: 'subscription_cycle', now: at, paidWith: null },
      [
        ...pending.map((p) => ({ description: p.description ?? '', amount: p.amount, quantity: p.quantity, period: p.period })),
        { description: `${quantity} × ${product.name}`, amount: (price.unit_amount ?? 0) * quantity, quantity, period: { start: at, end } },
      ],
    );
    Object.assign(item, { current_period_start: at, current_period_end: end });
    sub.latest_invoice = invoice.id;
    // Made unpaid; the charge below pays it or leaves it open.
    Object.assign(invoice, { status: 'open', amount_paid: 0, attempt_count: 0, status_transitions: { paid_at: null } });
    await insertObject(tx, invoice, { account: null });
    for (const p of pending) await saveObject(tx, { ...p, invoice: invoice.id });
    await this.attempt(tx, sub, invoice, at);
  }

  /** One charge of an open invoice to the subscription's default card, off session. */
  private async attempt(tx: DbOrTx, sub: SandboxSubscription, invoice: SandboxInvoice, at: number) {
    const pm = sub.default_payment_method
      ? await getObject<SandboxPaymentMethod>(tx, 'payment_method', sub.default_payment_method, { account: null })
      : null;
    const paid = invoice.amount_due === 0 || (!!pm && paymentOutcome(pm, 'off') === 'ok');
    invoice.attempt_count = (invoice.attempt_count ?? 0) + 1;
    if (paid) {
      Object.assign(invoice, {
        status: 'paid',
        amount_paid: invoice.amount_due,
        next_payment_attempt: null,
        status_transitions: { paid_at: at },
        paid_with: invoice.amount_due > 0 ? (pm?.id ?? null) : null,
      });
      sub.status = 'active';
    } else {
      const retry = RETRY_DAYS[invoice.attempt_count - 1];
      invoice.next_payment_attempt = retry === undefined ? null : invoice.created + retry * DAY;
      sub.status = retry === undefined ? 'unpaid' : 'past_due';
    }
    await saveObject(tx, invoice);
    await saveObject(tx, sub);
    await this.ctx.webhooks.emit(tx, null, paid ? 'invoice.paid' : 'invoice.payment_failed', invoice, at);
    await this.ctx.webhooks.emit(tx, null, 'customer.subscription.updated', sub, at);
  }
}

/** The subscription's invoice still to be paid (at most one: no renewal while one is open). */
async function openInvoice(db: DbOrTx, subscriptionId: string): Promise<SandboxInvoice | null> {
  const [row] = await db
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(
      and(
        eq(sandboxObjects.type, 'invoice'),
        isNull(sandboxObjects.account),
        sql`${sandboxObjects.data}->'parent'->'subscription_details'->>'subscription' = ${subscriptionId}`,
        sql`${sandboxObjects.data}->>'status' = 'open'`,
      ),
    )
    .limit(1);
  return (row?.data as SandboxInvoice | undefined) ?? null;
}
