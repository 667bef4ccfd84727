import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { invoicePaymentState } from '../invoices/invoice-payment-state';
import type { InvoiceRow } from '../invoices/invoice-payment-state';
import { invoicePayments, paymentRefunds, type InvoicePaymentRow, type PaymentRefundRow } from './payments.tables';

type AttemptStatus = InvoicePaymentRow['status'];
/** An attempt's status only moves forward: a late event of an earlier state changes nothing. */
const RANK: Record<AttemptStatus, number> = { processing: 0, requires_action: 1, failed: 2, canceled: 2, succeeded: 3 };
const RANK_SQL = sql`case ${invoicePayments.status} when 'processing' then 0 when 'requires_action' then 1 when 'succeeded' then 3 else 2 end`;

export type AttemptFact = { status: AttemptStatus; intentId?: string | null; errorCode?: string | null; declineCode?: string | null };

/**
 * What an event of the provider says about the attempt it names: on which connected account, of which
 * object (the Checkout Session, the PaymentIntent), for how much. Metadata only points at the attempt;
 * the account, the object and the money are what must agree (any connected account can write metadata).
 */
export type AttemptClaim = {
  account: string | null;
  attemptId: string | null;
  checkoutId: string | null;
  intentId: string | null;
  amount: number | null;
  currency: string | null;
};

/** A refund as the provider reports it (an event, or the answer to our own request). */
export type RefundClaim = {
  account: string | null;
  refundRowId?: string | null;
  refundId: string;
  amount: number;
  currency: string | null;
  status: PaymentRefundRow['status'];
  paymentIntentId: string;
};

/** An event's outcome: the row it changed, or why it was ignored (null reason: not about us). */
export type Matched<T> = { row?: T; ignored?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Our ids in metadata are uuids; anything else names nothing (and must not reach a uuid column). */
const ourId = (v: string | null | undefined) => (v && UUID.test(v) ? v : null);
const sameCurrency = (a: string | null, b: string) => (a ?? '').toLowerCase() === b.toLowerCase();

/** Why an attempt is not what the event says it is, or null when account, object and money agree. */
export function attemptMismatch(a: InvoicePaymentRow, c: AttemptClaim): string | null {
  if (!c.account || c.account !== a.accountId) return `connected account ${c.account ?? '(none)'} is not the attempt's ${a.accountId}`;
  if (c.checkoutId && c.checkoutId !== a.checkoutId)
    return `checkout session ${c.checkoutId} is not the attempt's ${a.checkoutId ?? '(none)'}`;
  if (c.intentId && a.intentId && c.intentId !== a.intentId) return `PaymentIntent ${c.intentId} is not the attempt's ${a.intentId}`;
  if (c.amount !== a.amount) return `amount ${c.amount ?? '(none)'} is not the attempt's ${a.amount}`;
  if (!sameCurrency(c.currency, a.currency)) return `currency ${c.currency ?? '(none)'} is not the attempt's ${a.currency}`;
  return null;
}

/**
 * The facts of card payments (attempts and refunds, as the provider reports them) and the invoice's
 * payment status derived from them: whatever order events arrive in, the same facts give the same state.
 */
export function paymentLedgerRepository(db: DbOrTx) {
  const repo = {
    /** Records what the provider answered to our own request about an attempt (found by our id). */
    async attempt(attemptId: string, fact: AttemptFact): Promise<InvoicePaymentRow | undefined> {
      const [current] = await db.select().from(invoicePayments).where(eq(invoicePayments.id, attemptId)).for('update');
      return current ? apply(db, current, fact) : undefined;
    },

    /**
     * Records what an event says of an attempt: found by the object it is about (the checkout session,
     * the PaymentIntent), else by our id in its metadata, then checked against the attempt (account,
     * object, amount, currency). A PaymentIntent the attempt does not know yet (the event came before
     * the answer to our request) is bound to it once account and money agree.
     */
    async attemptOfEvent(c: AttemptClaim, fact: AttemptFact): Promise<Matched<InvoicePaymentRow>> {
      const current =
        (await lockedAttempt(db, c.checkoutId, 'checkout')) ??
        (await lockedAttempt(db, c.intentId, 'intent')) ??
        (await lockedAttempt(db, ourId(c.attemptId), 'id'));
      if (!current) return {};
      const why = attemptMismatch(current, c);
      if (why) return { ignored: why };
      return { row: await apply(db, current, fact) };
    },

    /**
     * Records a refund the provider reports: ours (by our id in its metadata, or its id once known) or one
     * made in Stripe's dashboard on the payment's account. Account, PaymentIntent, amount and currency
     * must be the payment's (and the refund's, for ours), else it is ignored.
     */
    async refund(r: RefundClaim): Promise<Matched<PaymentRefundRow>> {
      const rowId = ourId(r.refundRowId);
      const byOurs = rowId ? (await db.select().from(paymentRefunds).where(eq(paymentRefunds.id, rowId)).for('update'))[0] : undefined;
      const existing = byOurs ?? (await db.select().from(paymentRefunds).where(eq(paymentRefunds.refundId, r.refundId)).for('update'))[0];
      const [payment] = existing
        ? await db.select().from(invoicePayments).where(eq(invoicePayments.id, existing.paymentId))
        : await db.select().from(invoicePayments).where(eq(invoicePayments.intentId, r.paymentIntentId));
      if (!payment) return {};
      if (!r.account || r.account !== payment.accountId)
        return { ignored: `connected account ${r.account ?? '(none)'} is not the payment's ${payment.accountId}` };
      if (r.paymentIntentId !== payment.intentId)
        return { ignored: `PaymentIntent ${r.paymentIntentId} is not the payment's ${payment.intentId ?? '(none)'}` };
      if (!sameCurrency(r.currency, payment.currency))
        return { ignored: `currency ${r.currency ?? '(none)'} is not the payment's ${payment.currency}` };
      if (existing) {
        if (existing.refundId && existing.refundId !== r.refundId)
          return { ignored: `refund ${r.refundId} is not the row's ${existing.refundId}` };
        if (r.amount !== existing.amount) return { ignored: `refund amount ${r.amount} is not the row's ${existing.amount}` };
        // pending → succeeded/failed/canceled; a final state stays.
        const status = existing.status === 'pending' ? r.status : existing.status;
        const [row] = await db
          .update(paymentRefunds)
          .set({ refundId: r.refundId, status, updatedAt: new Date() })
          .where(eq(paymentRefunds.id, existing.id))
          .returning();
        return { row };
      }
      if (!Number.isSafeInteger(r.amount) || r.amount <= 0 || r.amount > payment.amount)
        return { ignored: `refund amount ${r.amount} does not fit the payment's ${payment.amount}` };
      const [row] = await db
        .insert(paymentRefunds)
        .values({
          workspaceId: payment.workspaceId,
          invoiceId: payment.invoiceId,
          paymentId: payment.id,
          refundId: r.refundId,
          amount: r.amount,
          status: r.status,
          reason: 'Devolución hecha desde Stripe',
        })
        .onConflictDoNothing()
        .returning();
      return { row };
    },

    /** An invoice's attempts and refunds, newest first (its payment panel). */
    attemptsOf(invoiceId: string): Promise<InvoicePaymentRow[]> {
      return db.select().from(invoicePayments).where(eq(invoicePayments.invoiceId, invoiceId)).orderBy(desc(invoicePayments.createdAt));
    },
    refundsOf(invoiceId: string): Promise<PaymentRefundRow[]> {
      return db.select().from(paymentRefunds).where(eq(paymentRefunds.invoiceId, invoiceId)).orderBy(desc(paymentRefunds.createdAt));
    },

    /** An invoice's latest attempt of a kind (the highest number). */
    async lastAttempt(invoiceId: string, kind: InvoicePaymentRow['kind']): Promise<InvoicePaymentRow | undefined> {
      const [last] = await db
        .select()
        .from(invoicePayments)
        .where(and(eq(invoicePayments.invoiceId, invoiceId), eq(invoicePayments.kind, kind)))
        .orderBy(desc(invoicePayments.attempt))
        .limit(1);
      return last;
    },

    async insertAttempt(values: typeof invoicePayments.$inferInsert): Promise<InvoicePaymentRow> {
      const [row] = await db.insert(invoicePayments).values(values).returning();
      return row!;
    },

    /** The Checkout Session an attempt is paid through, once the provider made it. */
    async setCheckout(attemptId: string, checkoutId: string): Promise<void> {
      await db.update(invoicePayments).set({ checkoutId, updatedAt: new Date() }).where(eq(invoicePayments.id, attemptId));
    },

    /** The invoice's latest succeeded payment (what a refund returns money from). */
    async lastSucceeded(invoiceId: string): Promise<InvoicePaymentRow | undefined> {
      const [payment] = await db
        .select()
        .from(invoicePayments)
        .where(and(eq(invoicePayments.invoiceId, invoiceId), eq(invoicePayments.status, 'succeeded')))
        .orderBy(desc(invoicePayments.updatedAt))
        .limit(1);
      return payment;
    },

    /** A refund we ask the provider for, pending until it answers. */
    async insertRefund(values: typeof paymentRefunds.$inferInsert): Promise<PaymentRefundRow> {
      const [row] = await db.insert(paymentRefunds).values(values).returning();
      return row!;
    },

    async updateRefund(id: string, values: Partial<Pick<PaymentRefundRow, 'status' | 'rectifyingInvoiceId'>>): Promise<void> {
      await db
        .update(paymentRefunds)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(paymentRefunds.id, id));
    },

    /** Charged and refunded so far (succeeded only), and what is still being refunded. */
    async sums(invoiceId: string) {
      const [p] = await db
        .select({
          charged: sql<number>`coalesce(sum(${invoicePayments.amount}) filter (where ${invoicePayments.status} = 'succeeded'), 0)::int`,
        })
        .from(invoicePayments)
        .where(eq(invoicePayments.invoiceId, invoiceId));
      const [r] = await db
        .select({
          refunded: sql<number>`coalesce(sum(${paymentRefunds.amount}) filter (where ${paymentRefunds.status} = 'succeeded'), 0)::int`,
          pending: sql<number>`coalesce(sum(${paymentRefunds.amount}) filter (where ${paymentRefunds.status} = 'pending'), 0)::int`,
        })
        .from(paymentRefunds)
        .where(eq(paymentRefunds.invoiceId, invoiceId));
      return { charged: p!.charged, refunded: r!.refunded, refunding: r!.pending };
    },

    /**
     * The invoice's payment status from the facts: paid once a card payment succeeded, refunded when
     * refunds cover it. Returns the invoice when its status changed (for the `invoice.paid` event).
     */
    async settle(invoiceId: string): Promise<{ row: InvoiceRow; becamePaid: boolean } | null> {
      const inv = await invoicePaymentState.find(db, invoiceId, true);
      if (!inv || inv.status === 'draft') return null;
      const { charged, refunded } = await repo.sums(invoiceId);
      if (charged <= 0) return null;
      const status = refunded >= charged ? 'refunded' : 'paid';
      if (inv.paymentStatus === status) return null;
      const row = await invoicePaymentState.set(db, invoiceId, {
        paymentStatus: status,
        // A payment recorded by hand keeps its type; one charged here is Stripe Connect.
        ...(inv.paymentStatus === 'pending' ? { paymentType: 'stripe_connect' as const, paidAt: new Date() } : {}),
      });
      return row ? { row, becamePaid: inv.paymentStatus === 'pending' && status === 'paid' } : null;
    },
  };
  return repo;
}

/** The attempt an event's object (or our id) names, locked. */
async function lockedAttempt(tx: DbOrTx, value: string | null, by: 'checkout' | 'intent' | 'id'): Promise<InvoicePaymentRow | undefined> {
  if (!value) return undefined;
  const col = by === 'checkout' ? invoicePayments.checkoutId : by === 'intent' ? invoicePayments.intentId : invoicePayments.id;
  const [row] = await tx.select().from(invoicePayments).where(eq(col, value)).for('update');
  return row;
}

/** An attempt's status moves forward only; its PaymentIntent, once known, stays. */
async function apply(tx: DbOrTx, current: InvoicePaymentRow, fact: AttemptFact): Promise<InvoicePaymentRow> {
  const forward = RANK[fact.status] > RANK[current.status];
  const [row] = await tx
    .update(invoicePayments)
    .set({
      intentId: current.intentId ?? fact.intentId ?? null,
      ...(forward ? { status: fact.status, errorCode: fact.errorCode ?? null, declineCode: fact.declineCode ?? null } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(invoicePayments.id, current.id), sql`${RANK_SQL} <= ${RANK[fact.status]}`))
    .returning();
  return row ?? current;
}
