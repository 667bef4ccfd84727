/**
 * Fee balances (§5/§6, workspaces): for a period, what the workspace owes each therapist and what each
 * owes the workspace, from their completed sessions. A session's `fee` is the therapist's share (their
 * commission, sessions module); whoever received the payment (`paymentsReceiver`) owes the other party
 * theirs: the workspace owes the therapist the fee of what it collected, the therapist owes the workspace
 * the rest of what they collected. A session without a fee (no commission agreed) moves no money.
 */
import { z } from 'zod';
import { daysBetween, isIsoDay, isoDaySchema, todayIn } from '../time/zoned';
import { INVOICE_BATCH_MAX_AGE_DAYS } from './invoice.contracts';

/** The sums of one therapist's completed sessions of the period, by who received the payment. */
export type FeeBalanceInput = {
  therapistId: string;
  receiver: 'therapist' | 'workspace';
  sessions: number;
  priceCents: number;
  /** Sum of the fees of the sessions that have one. */
  feeCents: number;
  /** Sum of the prices of the sessions that have a fee. */
  pricedWithFeeCents: number;
};

export type FeeBalanceRow = {
  therapistId: string;
  sessions: number;
  billedCents: number;
  feeCents: number;
  collectedByWorkspaceCents: number;
  collectedByTherapistCents: number;
  /** What the workspace owes the therapist (fees of what it collected). */
  workspaceOwesCents: number;
  /** What the therapist owes the workspace (the rest of what they collected). */
  therapistOwesCents: number;
  /** workspaceOwes − therapistOwes: positive, the workspace pays the therapist. */
  balanceCents: number;
};

export function feeBalances(inputs: readonly FeeBalanceInput[]): FeeBalanceRow[] {
  const rows = new Map<string, FeeBalanceRow>();
  for (const i of inputs) {
    const r = rows.get(i.therapistId) ?? { therapistId: i.therapistId, sessions: 0, billedCents: 0, feeCents: 0, collectedByWorkspaceCents: 0, collectedByTherapistCents: 0, workspaceOwesCents: 0, therapistOwesCents: 0, balanceCents: 0 };
    r.sessions += i.sessions;
    r.billedCents += i.priceCents;
    r.feeCents += i.feeCents;
    if (i.receiver === 'workspace') {
      r.collectedByWorkspaceCents += i.priceCents;
      r.workspaceOwesCents += i.feeCents;
    } else {
      r.collectedByTherapistCents += i.priceCents;
      r.therapistOwesCents += i.pricedWithFeeCents - i.feeCents;
    }
    r.balanceCents = r.workspaceOwesCents - r.therapistOwesCents;
    rows.set(i.therapistId, r);
  }
  return [...rows.values()];
}

/** A fee balance's period (default: this month up to today), with a batch's rules (§5). */
export const feeBalanceQuery = z
  .object({ from: isoDaySchema.optional(), to: isoDaySchema.optional(), format: z.enum(['json', 'csv'], { error: 'Formato no válido (json o csv).' }).default('json') })
  .transform((b) => {
    const today = todayIn('Europe/Madrid');
    return { ...b, from: b.from ?? `${today.slice(0, 8)}01`, to: b.to ?? today };
  })
  .superRefine((b, ctx) => {
    if (!isIsoDay(b.from) || !isIsoDay(b.to)) return;
    if (daysBetween(b.from, todayIn('Europe/Madrid')) > INVOICE_BATCH_MAX_AGE_DAYS) ctx.addIssue({ code: 'custom', path: ['from'], message: 'La fecha de inicio es demasiado antigua: como mucho, hace 400 días.' });
    if (b.to < b.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'La fecha de fin no puede ser anterior a la de inicio.' });
    else if (daysBetween(b.from, b.to) > 366) ctx.addIssue({ code: 'custom', path: ['to'], message: 'El periodo es demasiado largo: como mucho, un año.' });
  });
export const feeBalanceResponse = z.object({
  from: z.string(),
  to: z.string(),
  rows: z.array(
    z.object({
      therapist: z.object({ id: z.uuid(), name: z.string() }),
      sessions: z.number().int(),
      billedCents: z.number().int(),
      feeCents: z.number().int(),
      collectedByWorkspaceCents: z.number().int(),
      collectedByTherapistCents: z.number().int(),
      workspaceOwesCents: z.number().int(),
      therapistOwesCents: z.number().int(),
      balanceCents: z.number().int(),
    }),
  ),
});
export type FeeBalance = z.infer<typeof feeBalanceResponse>;
