/**
 * Fee balances (§5/§6, workspaces): for a period, what the workspace owes each therapist and what each
 * owes the workspace, from their completed sessions. A session's `fee` is the therapist's share: its price
 * less the workspace's commission (`sessionFee`, decision 0024). Whoever received the payment
 * (`paymentsReceiver`) owes the other party theirs: the workspace owes the therapist the fees of what it
 * collected, the therapist owes the workspace the commissions of what they collected. A session without a
 * fee (no commission agreed) moves no money, and the balance says so.
 */
import { z } from 'zod';
import { formatCents } from '../money/format';
import { daysBetween, isIsoDay, todayIn } from '../time/zoned';
import { isoDaySchema } from '../time/time.contracts';
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
  /** How many sessions have a fee. */
  sessionsWithFee: number;
};

export type FeeBalanceRow = {
  therapistId: string;
  sessions: number;
  billedCents: number;
  /** The therapist's share of the sessions with a commission (their fees). */
  feeCents: number;
  /** The workspace's commission of those sessions: price − fee. */
  commissionCents: number;
  collectedByWorkspaceCents: number;
  collectedByTherapistCents: number;
  /** What the workspace owes the therapist: the fees of what it collected. */
  workspaceOwesCents: number;
  /** What the therapist owes the workspace: the commissions of what they collected. */
  therapistOwesCents: number;
  /** workspaceOwes − therapistOwes: positive, the workspace pays the therapist. */
  balanceCents: number;
  /** Sessions without a commission agreed, and their prices: not settled by the balance. */
  unsettledSessions: number;
  unsettledCents: number;
  /** Who owes whom, in Spanish: «El espacio debe 49,00 € a Tere», «Tere debe 21,00 € al espacio», «Nadie debe nada». */
  verdict: string;
  /** Why, in Spanish: one sentence per who collected, and one for the sessions left out. */
  reasons: string[];
};

type Sums = { sessions: number; price: number; withFee: number; priced: number; fee: number };
const zero = (): Sums => ({ sessions: 0, price: 0, withFee: 0, priced: 0, fee: 0 });
const sessionsLabel = (n: number) => (n === 1 ? '1 sesión' : `${n} sesiones`);

/** Rows by therapist; `nameOf` names them in the sentences (the server knows the names). */
export function feeBalances(
  inputs: readonly FeeBalanceInput[],
  nameOf: (therapistId: string) => string = () => 'El terapeuta',
): FeeBalanceRow[] {
  const sums = new Map<string, { workspace: Sums; therapist: Sums }>();
  for (const i of inputs) {
    const by = sums.get(i.therapistId) ?? { workspace: zero(), therapist: zero() };
    const s = by[i.receiver];
    s.sessions += i.sessions;
    s.price += i.priceCents;
    s.withFee += i.sessionsWithFee;
    s.priced += i.pricedWithFeeCents;
    s.fee += i.feeCents;
    sums.set(i.therapistId, by);
  }
  return [...sums].map(([therapistId, { workspace: w, therapist: t }]) => {
    const workspaceOwesCents = w.fee;
    const therapistOwesCents = t.priced - t.fee;
    const balanceCents = workspaceOwesCents - therapistOwesCents;
    const unsettledSessions = w.sessions - w.withFee + (t.sessions - t.withFee);
    const unsettledCents = w.price - w.priced + (t.price - t.priced);
    const name = nameOf(therapistId);
    const reasons: string[] = [];
    if (w.withFee)
      reasons.push(
        `Cobra el espacio: cobró ${formatCents(w.priced)} de ${sessionsLabel(w.withFee)} y debe a ${name} su parte, ${formatCents(w.fee)} (se queda ${formatCents(w.priced - w.fee)} de comisión).`,
      );
    if (t.withFee)
      reasons.push(
        `Cobra ${name}: cobró ${formatCents(t.priced)} de ${sessionsLabel(t.withFee)} y debe al espacio su comisión, ${formatCents(t.priced - t.fee)} (su parte: ${formatCents(t.fee)}).`,
      );
    if (unsettledSessions)
      reasons.push(
        `${unsettledSessions === 1 ? '1 sesión' : `${unsettledSessions} sesiones`} sin comisión acordada (${formatCents(unsettledCents)}) no ${unsettledSessions === 1 ? 'entra' : 'entran'} en el saldo.`,
      );
    if (w.withFee && t.withFee) reasons.push('Lo que se deben se compensa: queda el saldo.');
    const verdict =
      balanceCents > 0
        ? `El espacio debe ${formatCents(balanceCents)} a ${name}`
        : balanceCents < 0
          ? `${name} debe ${formatCents(-balanceCents)} al espacio`
          : 'Nadie debe nada';
    return {
      therapistId,
      sessions: w.sessions + t.sessions,
      billedCents: w.price + t.price,
      feeCents: w.fee + t.fee,
      commissionCents: w.priced - w.fee + (t.priced - t.fee),
      collectedByWorkspaceCents: w.price,
      collectedByTherapistCents: t.price,
      workspaceOwesCents,
      therapistOwesCents,
      balanceCents,
      unsettledSessions,
      unsettledCents,
      verdict,
      reasons,
    };
  });
}

/** A fee balance's period (default: this month up to today), with a batch's rules (§5). */
export const feeBalanceQuery = z
  .object({
    from: isoDaySchema.optional(),
    to: isoDaySchema.optional(),
    format: z.enum(['json', 'csv'], { error: 'Formato no válido (json o csv).' }).default('json'),
  })
  .transform((b) => {
    const today = todayIn('Europe/Madrid');
    return { ...b, from: b.from ?? `${today.slice(0, 8)}01`, to: b.to ?? today };
  })
  .superRefine((b, ctx) => {
    if (!isIsoDay(b.from) || !isIsoDay(b.to)) return;
    if (daysBetween(b.from, todayIn('Europe/Madrid')) > INVOICE_BATCH_MAX_AGE_DAYS)
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'La fecha de inicio es demasiado antigua: como mucho, hace 400 días.' });
    if (b.to < b.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'La fecha de fin no puede ser anterior a la de inicio.' });
    else if (daysBetween(b.from, b.to) > 366)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'El periodo es demasiado largo: como mucho, un año.' });
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
      commissionCents: z.number().int(),
      collectedByWorkspaceCents: z.number().int(),
      collectedByTherapistCents: z.number().int(),
      workspaceOwesCents: z.number().int(),
      therapistOwesCents: z.number().int(),
      balanceCents: z.number().int(),
      unsettledSessions: z.number().int(),
      unsettledCents: z.number().int(),
      verdict: z.string(),
      reasons: z.array(z.string()),
    }),
  ),
});
export type FeeBalance = z.infer<typeof feeBalanceResponse>;
