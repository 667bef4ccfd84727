import { randomUUID } from 'node:crypto';
import {
  addMonthsUtc,
  formatCents,
  formatGiftCode,
  GIFT_VALID_MONTHS,
  giftPriceOf,
  isGiftCode,
  monthsLabel,
  type GiftCheckout,
  type GiftCheckoutBody,
  type GiftPurchase,
  type GiftView,
  type RedeemGift,
} from '@divan/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Membership } from '../../platform/auth/access';
import type { TokenService } from '../../platform/auth/tokens';
import type { PlatformBilling } from '../../platform/billing/platform-billing';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import { renderMail, type Mail } from '../../platform/mail/layout';
import type { Mailer } from '../../platform/mail/mailer';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { taxOfDetails, type BillingDetailsService } from './billing-details.service';
import { billingDetailsRepository } from './billing-details.repository';
import { isLive } from './billing-sync';
import { billingRepository } from './billing.repository';
import type { GiftCodeRow } from './billing.tables';
import { canManageBilling } from './billing.service';
import { placeCreditLine, takesCredit } from './credit-line';
import { giftRepository } from './gift.repository';

const MANAGED_PLAN =
  'El plan de este espacio lo gestiona el equipo de Diván (plan Team): canjea el regalo en otro espacio tuyo, o pídenos que lo descontemos de tu factura.';
const CREDIT_FAILED = 'No hemos podido descontar el regalo de tu próxima factura: vuelve a intentarlo en unos minutos.';
const CREDIT_STRANDED = 'Este regalo se estaba descontando de la factura de un plan que ya no está en vigor: escríbenos y lo resolvemos.';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** 128 bits as 26 characters of RFC 4648 base32 (the last carries 3 bits). */
function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function giftMail(
  to: string,
  o: { months: number; from: string; message: string | null; code: string; url: string; until: Date },
): Mail {
  const months = o.months === 1 ? 'un mes' : `${o.months} meses`;
  return renderMail({
    to,
    subject: `${o.from} te regala ${months} de Diván Premium`,
    greeting: 'Hola:',
    blocks: [
      { kind: 'p', text: `${o.from} te regala ${months} de Diván Premium, la consulta de psicología en un solo sitio.` },
      ...(o.message ? [{ kind: 'note' as const, text: `«${o.message}»` }] : []),
      { kind: 'p', text: 'Tu código de regalo:' },
      { kind: 'code', code: formatGiftCode(o.code) },
      { kind: 'button', url: o.url, label: 'Canjear el regalo' },
    ],
    footer: `Se puede canjear una vez, hasta el ${o.until.toLocaleDateString('es-ES', { timeZone: 'Europe/Madrid' })}: se suma a la prueba gratis o, si el espacio ya paga un plan, se descuenta de su próxima factura.`,
  });
}

export type GiftDeps = {
  db: Db;
  billing: PlatformBilling | null;
  tokens: TokenService;
  mailer: Mailer;
  workspaces: WorkspacesService;
  users: UsersService;
  details: BillingDetailsService;
  customerFor: (workspaceId: string) => Promise<string>;
  publicUrl: string;
  log: FastifyBaseLogger;
  clock: () => Date;
};

/**
 * Gift codes (issue 27 slice 5, decision 0026 §9): months of Premium bought through a Checkout in
 * payment mode by a workspace — Diván's invoice with IVA at the sale, to its billing data — the code
 * derived from the gift's id with the server's key (so it is never stored: only its keyed hash is),
 * shown once to the buyer and mailed; redeemed once by the owner of a workspace: as months of free trial
 * (the trial has Premium's features), or as a credit on the next invoice of a plan that renews.
 */
export class GiftService {
  constructor(private readonly d: GiftDeps) {}

  private codeOf = (giftId: string) =>
    base32(Buffer.from(this.d.tokens.hashSecret(`divan-gift-code:${giftId}`), 'base64url').subarray(0, 16));
  private hashOf = (code: string) => this.d.tokens.hashSecret(`divan-gift:${code}`);
  private linkOf = (code: string) => `${this.d.publicUrl.replace(/\/+$/, '')}/gift/${code}`;

  async checkout(m: Membership, userId: string, body: { months: number } & Omit<GiftCheckoutBody, 'months'>): Promise<GiftCheckout> {
    const billing = this.d.billing;
    if (!billing) throw new AppError('billing_unavailable');
    if (!canManageBilling(m)) throw new AppError('access_denied');
    const wid = m.workspaceId;
    const details = await billingDetailsRepository(this.d.db).detailsOf(wid);
    const taxRateIds = await this.d.details.taxRateIdsOf(wid);
    const tax = taxOfDetails(details!);
    const subtotal = giftPriceOf(body.months);
    const vat = Math.round((subtotal * tax.vatRate) / 100);
    const customerId = await this.d.customerFor(wid);
    const id = randomUUID();
    const base = this.d.publicUrl.replace(/\/+$/, '');
    const session = await billing.checkoutPayment({
      customerId,
      description: `Regalo: ${monthsLabel(body.months)} de Diván Premium`,
      amount: subtotal,
      taxRateIds,
      successUrl: `${base}/gift/purchased?session_id={CHECKOUT_SESSION_ID}&workspace=${wid}`,
      cancelUrl: `${base}/gift?canceled=1`,
      metadata: { divan_gift: id, divan_workspace: wid },
      idempotencyKey: `divan-gift:${id}`,
    });
    await giftRepository(this.d.db).insert({
      id,
      codeHash: this.hashOf(this.codeOf(id)),
      checkoutSessionId: session.id,
      buyerWorkspaceId: wid,
      buyerUserId: userId,
      months: body.months,
      subtotal,
      vat,
      total: subtotal + vat,
      recipientEmail: body.recipientEmail ?? null,
      recipientName: body.recipientName ?? null,
      message: body.message ?? null,
    });
    return { url: session.url, sessionId: session.id };
  }

  /** The buyer's return page: paid once the webhook said so; the code on the first read after that, to its buyer only. */
  async purchase(m: Membership, userId: string, sessionId: string): Promise<GiftPurchase> {
    const row = await giftRepository(this.d.db).ofSession(sessionId);
    if (!row || row.buyerWorkspaceId !== m.workspaceId) throw new AppError('gift_checkout_not_found');
    const common = {
      months: row.months,
      subtotal: row.subtotal,
      vat: row.vat,
      total: row.total,
      recipientEmail: row.recipientEmail,
      expiresAt: row.expiresAt?.toISOString() ?? null,
    };
    if (!row.paidAt) {
      // Not paid yet: whether the provider's page expired (the provider out of reach: still waiting).
      const fact = await this.d.billing?.retrieveCheckout(sessionId).catch((err: unknown) => {
        this.d.log.warn({ err, sessionId }, 'gift: the provider could not say how its Checkout is');
        return null;
      });
      return { ...common, status: fact?.status === 'expired' ? 'expired' : 'open', code: null, link: null, revealed: false };
    }
    const shown = row.buyerUserId === userId && (await giftRepository(this.d.db).markRevealed(row.id, this.d.clock()));
    const code = shown ? this.codeOf(row.id) : null;
    return { ...common, status: 'paid', code, link: code ? this.linkOf(code) : null, revealed: !shown };
  }

  /**
   * The provider's `checkout.session.completed` of a gift: paid only when the provider says so (read
   * again), once (a replay finds it paid); Diván's invoice and the mails are keyed, so a redelivery after
   * a failure finishes them and never doubles them.
   */
  async checkoutPaid(sessionId: string): Promise<'paid' | string> {
    const billing = this.d.billing;
    if (!billing) return 'billing not configured';
    const row = await giftRepository(this.d.db).ofSession(sessionId);
    if (!row) return 'not a gift';
    const fact = await billing.retrieveCheckout(sessionId);
    if (fact.mode !== 'payment' || !fact.paid) return 'not paid';
    if (!row.buyerWorkspaceId) return 'buyer workspace gone';
    // Its invoice and mails first, then paid: the buyer's page shows the code once all of it is done,
    // and a failure leaves it unpaid for the provider's redelivery to finish (each keyed: never twice).
    const paidAt = row.paidAt ?? this.d.clock();
    const paid = { ...row, paidAt, expiresAt: row.expiresAt ?? addMonthsUtc(paidAt, GIFT_VALID_MONTHS) };
    const invoiced = await this.d.details.issueCharge({
      key: sessionId,
      workspaceId: row.buyerWorkspaceId,
      lines: [
        {
          description: `Tarjeta regalo: ${monthsLabel(row.months)} de Diván Premium`,
          amountCents: row.subtotal,
        },
      ],
      paidAt,
      providerTotal: fact.amountTotal ?? row.total,
    });
    if (invoiced !== 'issued' && invoiced !== 'duplicate')
      this.d.log.warn({ sessionId, reason: invoiced }, 'gift: no Diván invoice for this sale');
    await this.mail(paid);
    await giftRepository(this.d.db).markPaid(row.id, paidAt, paid.expiresAt);
    return 'paid';
  }

  private async mail(row: GiftCodeRow) {
    const code = this.codeOf(row.id);
    const from = await this.fromName(row);
    const content = { months: row.months, from, message: row.message, code, url: this.linkOf(code), until: row.expiresAt! };
    const [buyer] = row.buyerUserId ? await this.d.users.findManyByIds([row.buyerUserId]) : [];
    const opts = { purpose: 'billing', workspaceId: row.buyerWorkspaceId ?? undefined };
    if (buyer) await this.d.mailer.send(giftMail(buyer.email, content), { ...opts, key: `divan-gift-buyer:${row.id}` });
    if (row.recipientEmail && row.recipientEmail !== buyer?.email)
      await this.d.mailer.send(giftMail(row.recipientEmail, content), { ...opts, key: `divan-gift-recipient:${row.id}` });
  }

  private async fromName(row: GiftCodeRow): Promise<string> {
    const [buyer] = row.buyerUserId ? await this.d.users.namesByIds([row.buyerUserId]) : [];
    return buyer ? [buyer.firstName, buyer.lastName].filter(Boolean).join(' ') : 'Un colega';
  }

  /** The `/gift/{code}` page: what the gift is and whether it can still be redeemed. */
  async view(code: string): Promise<GiftView> {
    if (!isGiftCode(code)) throw new AppError('gift_not_found');
    const row = await giftRepository(this.d.db).paidOfHash(this.hashOf(code));
    if (!row) throw new AppError('gift_not_found');
    return {
      status: row.redeemedAt ? 'redeemed' : row.expiresAt! <= this.d.clock() ? 'expired' : 'available',
      months: row.months,
      fromName: await this.fromName(row),
      recipientName: row.recipientName,
      message: row.message,
      expiresAt: row.expiresAt!.toISOString(),
    };
  }

  /**
   * Redeemed once, by the owner (decision 0026, slice 5): on a workspace without a paid plan in force the
   * gift's months are added to its free trial (Premium's features); on one whose plan's renewal is off they
   * follow its paid period, as trial (there is no next invoice to take a credit, and the trial's features
   * apply once the plan has ended); on one whose plan renews, what the gift is worth before IVA — what its
   * buyer paid before IVA — is a credit line on that plan's next invoice. Refused while the plan's last
   * charge is unpaid (`past_due`: the provider retries it, and the subscription may end before the next
   * invoice the credit would wait for), and on a plan Diván's team set by hand (Team: billed as agreed,
   * not by the provider's subscription, so neither a credit nor a trial after it is there to give).
   */
  async redeem(m: Membership, userId: string, code: string): Promise<RedeemGift> {
    if (!m.isOwner) throw new AppError('access_denied');
    const wid = m.workspaceId;
    const step = await this.d.db.transaction(async (tx) => {
      const row = await giftRepository(tx).paidOfHash(this.hashOf(code), { lock: true });
      if (!row) throw new AppError('gift_not_found');
      // Redeemed, or taken by another workspace for its credit (see below): once.
      if (row.redeemedAt || (row.redeemedWorkspaceId && row.redeemedWorkspaceId !== wid)) throw new AppError('gift_redeemed');
      const sub = await billingRepository(tx).subscriptionOf(wid);
      const live = sub && isLive(sub.status) ? sub : null;
      // Taken by this workspace before and its credit not confirmed (the provider failed, or its answer was
      // lost): the same credit again, under the same key — the gift's value was promised to this workspace,
      // so neither its expiry since nor a change of the plan makes it a trial now.
      if (row.redeemedWorkspaceId === wid) {
        if (!live || !this.d.billing) {
          this.d.log.error({ giftId: row.id, workspaceId: wid }, 'gift: a credit taken for a plan no longer in force');
          throw new AppError('billing_unavailable', undefined, CREDIT_STRANDED);
        }
        return { kind: 'credit' as const, row, sub: live };
      }
      if (row.expiresAt! <= this.d.clock()) throw new AppError('gift_expired');
      if (!live && (await this.d.workspaces.planIdOf(wid, tx))) throw new AppError('gift_workspace_subscribed', undefined, MANAGED_PLAN);
      if (live && takesCredit(live)) {
        if (live.status === 'past_due') throw new AppError('gift_workspace_subscribed');
        if (!this.d.billing) throw new AppError('billing_unavailable');
        await giftRepository(tx).claim(row.id, { userId, workspaceId: wid });
        return { kind: 'credit' as const, row, sub: live };
      }
      // No plan, or one whose renewal is off: months of trial, after its paid period.
      const planEnd = live?.currentPeriodEnd ?? null;
      const until = await this.d.workspaces.extendTrial(wid, { months: row.months }, 'gift', tx, { after: planEnd });
      await giftRepository(tx).markRedeemed(row.id, { userId, workspaceId: wid, at: this.d.clock() });
      return { kind: 'trial' as const, row, until, planEnd };
    });
    const { row } = step;
    if (step.kind === 'trial') {
      this.d.log.info({ giftId: row.id, workspaceId: wid, value: formatCents(row.subtotal), applied: 'trial' }, 'gift redeemed');
      return {
        months: row.months,
        applied: 'trial',
        freeTrialEnd: step.until.toISOString(),
        planEnd: step.planEnd?.toISOString() ?? null,
        creditCents: null,
      };
    }
    // The credit. Claimed in the lock (above), sent to the provider after it (a provider call inside the
    // transaction would hold the row — and PGlite's one connection — for as long as the network takes),
    // marked redeemed last: a failure in between leaves the gift not redeemed and still this workspace's,
    // so a retry here sends the same line under the gift's own key (the provider answers the first one:
    // never two credits) and only then redeems it; no other workspace can redeem it meanwhile (its credit
    // may have reached the provider unanswered). Never a gift redeemed without its credit, never two.
    const customerId = await billingRepository(this.d.db).customerOf(wid);
    try {
      if (!customerId) throw new Error('no customer for a workspace with a subscription');
      await placeCreditLine(this.d.billing!, {
        customerId,
        subscriptionId: step.sub.subscriptionId,
        cents: row.subtotal,
        description: `Tarjeta regalo: ${monthsLabel(row.months)} de Diván Premium`,
        metadata: { divan_gift: row.id, divan_workspace: wid },
        idempotencyKey: `divan-gift-credit:${row.id}`,
      });
    } catch (err) {
      this.d.log.error({ err, giftId: row.id, workspaceId: wid }, 'gift: its credit could not be placed on the subscription');
      throw new AppError('billing_unavailable', undefined, CREDIT_FAILED);
    }
    // Two redemptions of this workspace at once both placed the one line: only one of them redeemed it.
    if (!(await giftRepository(this.d.db).markRedeemed(row.id, { userId, workspaceId: wid, at: this.d.clock() })))
      throw new AppError('gift_redeemed');
    this.d.log.info({ giftId: row.id, workspaceId: wid, value: formatCents(row.subtotal), applied: 'credit' }, 'gift redeemed');
    return { months: row.months, applied: 'credit', freeTrialEnd: null, planEnd: null, creditCents: row.subtotal };
  }
}
