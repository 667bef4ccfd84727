import { allocateCents } from '../invoices/invoice-math';

/**
 * What a pack's unused sessions are worth: its price split into `total` shares to the cent (the
 * shares add up to the price exactly), and the `unused` last ones summed. Using every session and
 * refunding none, or refunding all, always accounts for the whole price.
 */
export function packRefundCents(priceCents: number, total: number, unused: number): number {
  if (!Number.isInteger(total) || total < 1 || !Number.isInteger(unused) || unused < 0 || unused > total)
    throw new RangeError(`A pack refund is 0…${total} sessions, got ${unused}`);
  if (unused === 0) return 0;
  const shares = allocateCents(
    priceCents,
    Array.from({ length: total }, () => 1),
  );
  return shares.slice(total - unused).reduce((a, b) => a + b, 0);
}

export type PackState = { sessionsTotal: number; used: number; refundedSessions: number; expiresOn: string | null };
/** Active while sessions are left and it has not expired (`today` in the practice's zone). */
export function packStatusOf(p: PackState, today: string): 'active' | 'used' | 'expired' | 'refunded' {
  if (p.refundedSessions > 0) return 'refunded';
  if (p.used >= p.sessionsTotal) return 'used';
  if (p.expiresOn && p.expiresOn < today) return 'expired';
  return 'active';
}
