import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { randomToken } from '../../platform/auth/tokens';
import { AppError } from '../../platform/errors';
import { paymentLinks } from './payments.tables';

export const CARD_LINK_DAYS = 7;
export const PAY_LINK_DAYS = 30;
const DAY = 86_400_000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');
export type PaymentLinkRow = typeof paymentLinks.$inferSelect;

/** The links mailed to patients (`/pago/<token>`): only the token's hash is kept; they expire. */
export function paymentLinksRepository(db: DbOrTx) {
  return {
    async create(
      v: {
        kind: 'card' | 'invoice';
        workspaceId: string;
        holderKey: string;
        patientId?: string | null;
        invoiceId?: string | null;
        mailedTo: string | null;
        createdBy: string | null;
      },
      now = new Date(),
    ): Promise<{ token: string; expiresAt: Date }> {
      const token = randomToken(32);
      const expiresAt = new Date(now.getTime() + (v.kind === 'card' ? CARD_LINK_DAYS : PAY_LINK_DAYS) * DAY);
      await db.insert(paymentLinks).values({
        tokenHash: hashOf(token),
        kind: v.kind,
        workspaceId: v.workspaceId,
        holderKey: v.holderKey,
        patientId: v.kind === 'card' ? (v.patientId ?? null) : null,
        invoiceId: v.kind === 'invoice' ? (v.invoiceId ?? null) : null,
        mailedTo: v.mailedTo,
        expiresAt,
        createdBy: v.createdBy,
      });
      return { token, expiresAt };
    },

    /** The link of a token, unexpired (`payment_link_invalid` otherwise: unknown and expired look the same). */
    async resolve(token: string, now = new Date()): Promise<PaymentLinkRow> {
      const [row] = await db
        .select()
        .from(paymentLinks)
        .where(eq(paymentLinks.tokenHash, hashOf(token)));
      if (!row || row.expiresAt <= now) throw new AppError('payment_link_invalid');
      return row;
    },

    /** The latest unexpired card link of a patient on a holder's account (the billing tab says it waits). */
    async pendingCardLink(patientId: string, holderKey: string, now = new Date()): Promise<Date | null> {
      const rows = await db
        .select({ expiresAt: paymentLinks.expiresAt, holderKey: paymentLinks.holderKey })
        .from(paymentLinks)
        .where(eq(paymentLinks.patientId, patientId));
      const live = rows.filter((r) => r.holderKey === holderKey && r.expiresAt > now).map((r) => r.expiresAt.getTime());
      return live.length ? new Date(Math.max(...live)) : null;
    },
  };
}
