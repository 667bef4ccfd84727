import type { PlatformBilling } from '../../platform/billing/platform-billing';
import type { Metadata } from '../../platform/payments/gateway';
import { isLive } from './billing-sync';

/** A subscription with a next invoice to take a credit: in force and renewing (renewal off: it ends, no invoice follows). */
export const takesCredit = (sub: { status: string; cancelAtPeriodEnd: boolean }) => isLive(sub.status) && !sub.cancelAtPeriodEnd;

/**
 * A credit before tax on a subscription's next invoice (decision 0026 §8: the referrer's month off, a gift
 * redeemed on a workspace that pays): a negative one-off line, so the invoice's taxable base drops and
 * Diván's invoice shows it as its own line. Under the caller's idempotency key — the referral's or the
 * gift's own — two placements at once, or one retried, make one line. Answers the provider's item id.
 */
export async function placeCreditLine(
  billing: PlatformBilling,
  line: { customerId: string; subscriptionId: string; cents: number; description: string; metadata: Metadata; idempotencyKey: string },
): Promise<string> {
  if (!Number.isInteger(line.cents) || line.cents <= 0) throw new Error(`credit line: ${line.cents} is no credit`);
  const item = await billing.addInvoiceItem({
    customerId: line.customerId,
    subscriptionId: line.subscriptionId,
    amount: -line.cents,
    description: line.description,
    metadata: line.metadata,
    idempotencyKey: line.idempotencyKey,
  });
  return item.id;
}
