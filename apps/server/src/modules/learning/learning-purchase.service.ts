import type { FastifyBaseLogger } from 'fastify';
import type {
  LearningAdminPurchase,
  LearningAdminPurchasesQuery,
  LearningCharge,
  LearningPurchase,
  LearningPurchaseResult,
} from '@divan/core';
import type { Membership } from '../../platform/auth/access';
import type { Db } from '../../platform/db/database';
import { isUniqueViolation } from '../../platform/db/pg-errors';
import { AppError } from '../../platform/errors';
import type { Metadata } from '../../platform/payments/gateway';
import type { OneOffSales, SalePaid } from '../billing/one-off-sales.service';
import type { UsersService } from '../users/users.service';
import { purchaseOf } from './learning-presenter';
import { purchaseQueries } from './learning-purchase.queries';

const METADATA_KEY = 'divan_learning_purchase';
const descriptionOf = (title: string) => `Formación Diván: ${title}`.slice(0, 300);

/**
 * «Continuar y pagar» (issue 29): a published video bought by a therapist, paid by the saved card of the
 * workspace they manage the plan of, without them present; Diván's invoice with IVA from the price the
 * uploader typed; access without limit. When the bank asks for authentication the provider's page takes
 * the payment and its webhook finishes the purchase. A purchase is one row per attempt, keyed by its id
 * everywhere (the charge, the Checkout, the invoice): asking again while one is pending replays the same
 * attempt, and the database holds one live purchase per user and video.
 */
export class LearningPurchases {
  constructor(
    private readonly d: {
      db: Db;
      sales: OneOffSales;
      users: Pick<UsersService, 'findManyByIds' | 'findByEmail'>;
      membership: (workspaceId: string, userId: string) => Promise<Membership | null>;
      publicUrl: string;
      log: FastifyBaseLogger;
      clock: () => Date;
    },
  ) {
    d.sales.takeCheckouts(METADATA_KEY, (sessionId, metadata) => this.checkoutPaid(sessionId, metadata));
  }

  async purchase(m: Membership, userId: string, videoId: string): Promise<LearningPurchaseResult> {
    const q = purchaseQueries(this.d.db);
    const video = await q.video(videoId);
    const live = video ? await q.live(userId, videoId) : null;
    // A buyer is told they have it, even of a video unpublished since.
    if (live?.status === 'paid') throw new AppError('learning_already_purchased');
    if (!video || video.status !== 'published') throw new AppError('learning_content_not_found');
    if (!video.fullKey && !video.vimeoUrl) throw new AppError('learning_not_ready');
    const tax = await this.d.sales.taxOf(m.workspaceId, video.priceCents);
    const row = live ?? (await this.begin(userId, video.id, m.workspaceId, video.priceCents, tax));
    const base = this.d.publicUrl.replace(/\/+$/, '');
    let outcome;
    try {
      outcome = await this.d.sales.sell(m, {
        key: `learning:${row.id}`,
        description: descriptionOf(video.title),
        subtotal: row.baseCents,
        metadata: { [METADATA_KEY]: row.id },
        successUrl: `${base}/learn/video/${video.id}?purchase=done`,
        cancelUrl: `${base}/learn/video/${video.id}?purchase=canceled`,
      });
    } catch (err) {
      // Nothing was charged (the provider refused before, or the caller may not pay): no purchase stays.
      await this.fail(row.id);
      throw err;
    }
    if (outcome.status === 'declined') {
      await this.fail(row.id);
      throw new AppError('learning_purchase_failed');
    }
    if (outcome.status === 'authenticate') {
      await q.setCheckout(row.id, outcome.sessionId);
      return { status: 'authenticate', url: outcome.url };
    }
    return { status: 'purchased', purchase: await this.paid(row.id, outcome, video.title) };
  }

  /**
   * What «Continuar y pagar» would charge `workspaceId` for a video of `priceCents` (VAT excluded), by its
   * billing data — the base alone for an EU business with reverse charge. Null for someone not in it, or a
   * workspace without billing data (the page then shows the price with IVA).
   */
  async chargeFor(userId: string, workspaceId: string, priceCents: number): Promise<LearningCharge | null> {
    const m = await this.d.membership(workspaceId, userId);
    if (!m) return null;
    try {
      const tax = await this.d.sales.taxOf(workspaceId, priceCents);
      return {
        baseCents: priceCents,
        vatCents: tax.vat,
        totalCents: tax.total,
        vatRate: tax.vatRate,
        taxCase: tax.case,
        legend: tax.legend,
      };
    } catch (err) {
      if (err instanceof AppError && err.code === 'billing_details_missing') return null;
      throw err;
    }
  }

  /** The webhook's Checkout of a purchase that needed the bank's authentication. */
  private async checkoutPaid(sessionId: string, metadata: Metadata): Promise<string> {
    const id = metadata[METADATA_KEY];
    const q = purchaseQueries(this.d.db);
    const row = id ? await q.purchase(id) : null;
    if (!row) return 'no such purchase';
    if (row.status === 'paid' || row.status === 'refunded') return 'paid';
    const video = await q.video(row.videoId);
    const sale = await this.d.sales.checkoutPaid(sessionId, descriptionOf(video?.title ?? ''));
    if (!sale) return 'not paid';
    await this.paid(row.id, sale, video?.title ?? '');
    return 'paid';
  }

  /**
   * The operator's refund: the payment returned in full, the access ended at once and Diván's invoice
   * rectified in full in the same transaction (`OneOffSales.rectifyIn`, once) — whether the saved card
   * paid it or the provider's page did (its PaymentIntent stored when its webhook marked it paid; a purchase
   * paid before that was stored has it read from its Checkout).
   */
  async refund(purchaseId: string): Promise<LearningPurchase> {
    const q = purchaseQueries(this.d.db);
    const row = await q.purchase(purchaseId);
    if (!row || row.status !== 'paid') throw new AppError('learning_purchase_not_found');
    let intent = row.paymentIntentId?.startsWith('pi_') ? row.paymentIntentId : null;
    const session = row.checkoutSessionId ?? (row.paymentIntentId?.startsWith('cs_') ? row.paymentIntentId : null);
    if (!intent && session) intent = await this.d.sales.paymentOfCheckout(session);
    if (!intent)
      throw new AppError(
        'learning_purchase_not_found',
        undefined,
        'El proveedor no indica el pago de esta compra: devuélvela desde su panel.',
      );
    await this.d.sales.refund(intent);
    const video = await q.video(row.videoId);
    const title = video?.title ?? '';
    const op = row.invoiceId ? await this.d.sales.operator() : null;
    // Refunded and Diván's invoice rectified together; a call that finds it refunded already does neither.
    const { done, rectifying } = await this.d.db.transaction(async (tx) => {
      const done = await purchaseQueries(tx).markRefunded(row.id, this.d.clock());
      if (!done?.invoiceId || !op) return { done, rectifying: null };
      const rectifying = await this.d.sales.rectifyIn(tx, op, {
        workspaceId: done.workspaceId,
        invoiceId: done.invoiceId,
        reason: `Reembolso de la formación «${title}»`,
      });
      return { done, rectifying };
    });
    if (rectifying && done)
      await this.d.sales.afterRectify(rectifying, done.workspaceId).catch((err: unknown) => {
        this.d.log.error({ err, purchaseId: row.id }, 'learning: the rectifying invoice of a refund was not mailed');
      });
    // Refunded meanwhile by another call: as that one left it.
    return purchaseOf(done ?? (await q.purchase(row.id)) ?? row, title);
  }

  /**
   * The staff's refunds screen: the latest paid and refunded purchases (≤ 100) with their buyer, or those
   * whose buyer's email contains `email` (a whole address reaches all of that buyer's, however old).
   */
  async recent(query: LearningAdminPurchasesQuery): Promise<{ items: LearningAdminPurchase[] }> {
    const needle = query.email?.trim().toLowerCase() ?? '';
    const exact = needle.includes('@') ? await this.d.users.findByEmail(needle) : undefined;
    const rows = await purchaseQueries(this.d.db).recent(exact ? { userId: exact.id, limit: 200 } : { limit: needle ? 1000 : 100 });
    const buyers = new Map((await this.d.users.findManyByIds([...new Set(rows.map((r) => r.purchase.userId))])).map((u) => [u.id, u]));
    const items: LearningAdminPurchase[] = [];
    for (const { purchase: p, title } of rows) {
      const u = buyers.get(p.userId);
      if (!u || (needle && !u.email.toLowerCase().includes(needle))) continue;
      items.push({
        ...purchaseOf(p, title),
        status: p.status === 'refunded' ? 'refunded' : 'paid',
        buyer: { id: u.id, name: [u.firstName, u.lastName].filter(Boolean).join(' '), email: u.email },
        paidOn: p.checkoutSessionId ? 'checkout' : 'saved_card',
      });
      if (items.length === 100) break;
    }
    return { items };
  }

  private async begin(userId: string, videoId: string, workspaceId: string, base: number, tax: { vat: number; total: number }) {
    try {
      const row = await purchaseQueries(this.d.db).insertPending({
        userId,
        videoId,
        workspaceId,
        baseCents: base,
        vatCents: tax.vat,
        totalCents: tax.total,
      });
      return row!;
    } catch (err) {
      // Two clicks at once: the other one holds the live purchase.
      if (isUniqueViolation(err)) throw new AppError('learning_already_purchased');
      throw err;
    }
  }

  private async fail(id: string) {
    await purchaseQueries(this.d.db).failPending(id);
  }

  private async paid(id: string, sale: SalePaid, title: string): Promise<LearningPurchase> {
    const row = await purchaseQueries(this.d.db).markPaid(id, {
      paidAt: this.d.clock(),
      // The money's PaymentIntent, what a refund names (the invoice stays keyed by `sale.key`).
      paymentIntentId: sale.paymentIntentId ?? sale.key,
      invoiceId: sale.invoiceId,
      invoiceNumber: sale.invoiceNumber,
      vatCents: sale.vat,
      totalCents: sale.total,
    });
    return purchaseOf(row, title);
  }
}
