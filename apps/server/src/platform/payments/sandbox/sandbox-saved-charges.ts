/**
 * One-off charges of a platform customer's saved card without them present (`chargeSaved`), and their
 * refunds, as Stripe's `paymentIntents.create({ off_session: true, confirm: true })` and `refunds.create`
 * make them: the PaymentIntent, its charge and the refund stored on the platform (account null),
 * confirmed as every off-session charge of the sandbox is (`confirmPayment`: each test card's
 * `offSession` outcome, as the renewals), their events sent to the platform endpoint.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { SavedChargeResult } from '../../billing/platform-billing';
import type { Db, DbOrTx } from '../../db/database';
import type { Metadata } from '../gateway';
import { confirmPayment, MIN_AMOUNT, newPaymentIntent, nowOf, refundPayment, type SandboxContext } from './sandbox-charges';
import type { SandboxCharge, SandboxCustomer, SandboxPaymentIntent, SandboxPaymentMethod, SandboxRefund } from './sandbox-objects';
import {
  findByKey,
  findObject,
  getObject,
  insertObject,
  lockKey,
  looksLikeId,
  noSuch,
  SandboxRequestError,
  type StripeObject,
} from './sandbox-store';
import { sandboxObjects } from './sandbox.tables';

/**
 * `refundPayment` is typed for a connected account's PaymentIntent; the platform's objects are the same
 * rows with account null, which its reads and writes take as well.
 */
const PLATFORM = null as unknown as string;

export class SandboxSavedCharges {
  constructor(
    private readonly db: Db,
    private readonly ctx: SandboxContext,
  ) {}

  /**
   * The customer's default card charged off session. The key is held for the transaction and names the
   * PaymentIntent it made: a repeat answers that intent as it is (one charge), another request under it is
   * refused as Stripe refuses it. Without a card nothing is stored, so the key may be used again once one is saved.
   */
  charge(input: {
    customerId: string;
    amount: number;
    description: string;
    metadata: Metadata;
    idempotencyKey: string;
  }): Promise<SavedChargeResult> {
    return this.db.transaction(async (tx) => {
      await lockKey(tx, null, input.idempotencyKey);
      const again = await findByKey<StripeObject>(tx, null, input.idempotencyKey);
      if (again)
        return savedChargeResult(
          replayed<SandboxPaymentIntent>(
            again,
            'payment_intent',
            input.idempotencyKey,
            (pi) => pi.amount === input.amount && pi.customer === input.customerId,
          ),
        );
      if (!Number.isSafeInteger(input.amount) || input.amount < MIN_AMOUNT)
        throw new SandboxRequestError('amount_too_small', 'Amount must be at least €0.50 eur');
      const customer = await getObject<SandboxCustomer>(tx, 'customer', input.customerId, { account: null });
      const pm = await savedCard(tx, customer);
      if (!pm) return { status: 'no_payment_method' };
      const pi = newPaymentIntent({
        amount: input.amount,
        customer: customer.id,
        description: input.description,
        metadata: input.metadata,
        created: nowOf(this.ctx),
      });
      await insertObject(tx, pi, { account: null, idempotencyKey: input.idempotencyKey });
      return savedChargeResult(await confirmPayment(tx, this.ctx, null, pi, pm, 'off'));
    });
  }

  /** All that is left of a succeeded charge refunded; an unknown intent, or one that did not succeed, is Stripe's refusal. */
  refund(input: { paymentIntentId: string; idempotencyKey: string }): Promise<{ refundId: string; amount: number }> {
    return this.db.transaction(async (tx) => {
      await lockKey(tx, null, input.idempotencyKey);
      const again = await findByKey<StripeObject>(tx, null, input.idempotencyKey);
      const refund = again
        ? replayed<SandboxRefund>(again, 'refund', input.idempotencyKey, (r) => r.payment_intent === input.paymentIntentId)
        : await this.refundNew(tx, input);
      return { refundId: refund.id, amount: refund.amount };
    });
  }

  private async refundNew(tx: DbOrTx, input: { paymentIntentId: string; idempotencyKey: string }): Promise<SandboxRefund> {
    if (!looksLikeId(input.paymentIntentId, 'pi_')) throw noSuch('payment_intent', input.paymentIntentId);
    const pi = await getObject<SandboxPaymentIntent>(tx, 'payment_intent', input.paymentIntentId, { account: null, lock: true });
    // Nothing left: Stripe's own refusal, before `refundPayment` would read the whole of nothing as an invalid amount.
    const charge =
      pi.status === 'succeeded' && pi.latest_charge
        ? await findObject<SandboxCharge>(tx, 'charge', pi.latest_charge, { account: null })
        : null;
    if (charge && charge.amount_refunded >= charge.amount)
      throw new SandboxRequestError('charge_already_refunded', `Charge ${charge.id} has already been refunded.`);
    return refundPayment(tx, this.ctx, PLATFORM, pi, { metadata: {}, idempotencyKey: input.idempotencyKey });
  }
}

/**
 * The card an off-session charge uses, as the Stripe implementation picks it: the customer's
 * `invoice_settings.default_payment_method` while still attached to it, else its newest card (the first
 * Stripe lists; the one the sandbox's portal made the plan's default); null when none is attached.
 */
async function savedCard(tx: DbOrTx, customer: SandboxCustomer): Promise<SandboxPaymentMethod | null> {
  const settings = customer.invoice_settings as { default_payment_method?: string | null } | null | undefined;
  const chosen = settings?.default_payment_method;
  const pm = chosen ? await findObject<SandboxPaymentMethod>(tx, 'payment_method', chosen, { account: null }) : null;
  if (pm?.customer === customer.id) return pm;
  const [row] = await tx
    .select({ data: sandboxObjects.data })
    .from(sandboxObjects)
    .where(
      and(
        eq(sandboxObjects.type, 'payment_method'),
        isNull(sandboxObjects.account),
        sql`${sandboxObjects.data}->>'customer' = ${customer.id}`,
      ),
    )
    .orderBy(desc(sandboxObjects.createdAt), desc(sandboxObjects.id))
    .limit(1);
  return (row?.data as SandboxPaymentMethod | undefined) ?? null;
}

/** The stored PaymentIntent as the outcome of the charge (off session, an authentication fails as `authentication_required`). */
function savedChargeResult(pi: SandboxPaymentIntent): SavedChargeResult {
  if (pi.status === 'succeeded') return { status: 'succeeded', paymentIntentId: pi.id, amount: pi.amount };
  const error = pi.last_payment_error;
  if (pi.status === 'requires_action' || error?.code === 'authentication_required')
    return { status: 'requires_authentication', paymentIntentId: pi.id };
  return { status: 'declined', paymentIntentId: pi.id, declineCode: error?.decline_code ?? error?.code ?? null };
}

/** The first request's object under this key, unless the key was used for another request (Stripe's idempotency_error). */
function replayed<T extends StripeObject>(existing: StripeObject, type: string, key: string, sameRequest: (o: T) => boolean): T {
  if (existing.object !== type || !sameRequest(existing as T))
    throw new SandboxRequestError(
      'idempotency_key_in_use',
      `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    );
  return existing as T;
}
