import { cardMandateText, payLinkBlockOf, type PayLinkBlock } from '@divan/core';
import type { Db } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mail/mailer';
import { invoicePaymentState } from '../invoices/invoice-payment-state';
import type { InvoiceRow } from '../invoices/invoice-payment-state';
import type { InvoicesService } from '../invoices/invoices.service';
import type { Caller } from '../../platform/auth/caller';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { viaGateway, type PaymentAccounts } from './payment-accounts.service';
import { paymentLedgerRepository } from './payment-ledger.repository';
import { paymentLinksRepository, type PaymentLinkRow } from './payment-links.repository';
import type { PatientCards } from './patient-cards.service';
import { payLinkMail } from './payments.mails';

export type PayLinkDeps = {
  db: Db;
  accounts: PaymentAccounts;
  cards: PatientCards;
  invoices: InvoicesService;
  patients: PatientsService;
  users: UsersService;
  workspaces: WorkspacesService;
  mailer: Mailer;
  publicUrl: string;
  clock?: () => Date;
};

/** A checkout left open is offered again for this long (Stripe keeps an idempotency key 24 h; a session lives 24 h). */
const CHECKOUT_REUSE_MS = 20 * 3_600_000;

/**
 * Pay-by-link: any pending invoice can be mailed with a link (`/pago/<token>`); the public page shows
 * the invoice and, on «Pagar», opens a Checkout Session in payment mode on the seller's account.
 * The invoice is marked paid by the webhook, never by the redirect back.
 */
export class InvoicePayLinks {
  constructor(private readonly d: PayLinkDeps) {}

  async blockOf(inv: InvoiceRow): Promise<PayLinkBlock | null> {
    return payLinkBlockOf({
      status: inv.status,
      paymentStatus: inv.paymentStatus,
      totalCents: inv.total,
      sellerCanCharge: !!(await this.d.accounts.chargeable(inv.sellerKey)),
    });
  }

  /** Where a pay link of the invoice is mailed: its buyer's email, else the patient's. */
  async recipientOf(inv: InvoiceRow): Promise<string | null> {
    if (inv.buyer?.email) return inv.buyer.email;
    return inv.patientId ? ((await this.d.patients.contactOf(inv.workspaceId, inv.patientId))?.email ?? null) : null;
  }

  async send(c: Caller, id: string, send: boolean) {
    const inv = await this.d.invoices.accessible(c, id, 'update');
    return this.create(inv, send, c.userId);
  }

  /** A link for the invoice, mailed to its buyer (or the patient) unless `send` is false. */
  async create(
    inv: InvoiceRow,
    send: boolean,
    createdBy: string | null,
    why?: string,
  ): Promise<{ url: string; expiresAt: string; mailedTo: string | null }> {
    const block = await this.blockOf(inv);
    if (block) throw new AppError(block);
    const contact = inv.patientId ? await this.d.patients.contactOf(inv.workspaceId, inv.patientId) : null;
    const to = send ? await this.recipientOf(inv) : null;
    if (send && !to)
      throw new AppError('invalid_argument', [
        { path: 'send', message: 'La factura no tiene email de destino: copia el enlace y envíalo tú.' },
      ]);
    const brand = await this.d.workspaces.brandOf(inv.workspaceId);
    const seller = inv.seller?.fullName ?? brand.name;
    return this.d.db.transaction(async (tx) => {
      const { token, expiresAt } = await paymentLinksRepository(tx).create(
        { kind: 'invoice', workspaceId: inv.workspaceId, holderKey: inv.sellerKey, invoiceId: inv.id, mailedTo: to, createdBy },
        this.now(),
      );
      const url = `${this.d.publicUrl}/pago/${token}`;
      const greeting = contact?.firstName ?? inv.buyer?.fullName ?? '';
      if (to)
        await this.d.mailer.send(payLinkMail(to, greeting, seller, { number: inv.number!, totalCents: inv.total }, url, brand, why), {
          tx,
          purpose: 'payments.pay-link',
          workspaceId: inv.workspaceId,
        });
      return { url, expiresAt: expiresAt.toISOString(), mailedTo: to };
    });
  }

  /** The public page of a link: who asks, and the mandate (card) or the invoice. */
  async info(token: string) {
    const link = await paymentLinksRepository(this.d.db).resolve(token, this.now());
    const mode = this.d.accounts.gateway.mode;
    if (link.kind === 'card') {
      const seller = await this.holderName(link);
      return {
        kind: 'card' as const,
        mode,
        sellerName: seller,
        mandate: cardMandateText(seller),
        invoice: null,
        expiresAt: link.expiresAt.toISOString(),
      };
    }
    const inv = (await invoicePaymentState.find(this.d.db, link.invoiceId!))!;
    return {
      kind: 'invoice' as const,
      mode,
      sellerName: inv.seller?.fullName ?? (await this.holderName(link)),
      mandate: null,
      invoice: { number: inv.number ?? '', issueDate: inv.issueDate ?? '', totalCents: inv.total, paid: inv.paymentStatus !== 'pending' },
      expiresAt: link.expiresAt.toISOString(),
    };
  }

  /** «Continuar»: a fresh Checkout Session (setup mode for a card, payment mode for an invoice). */
  async checkout(token: string): Promise<{ url: string }> {
    const link = await paymentLinksRepository(this.d.db).resolve(token, this.now());
    const back = `${this.d.publicUrl}/pago/${token}`;
    if (!(await this.d.accounts.chargeable(link.holderKey))) throw new AppError('charge_not_connected');
    if (link.kind === 'card')
      return this.d.cards.setupCheckout(link.workspaceId, link.patientId!, link.holderKey, {
        successUrl: `${back}?estado=tarjeta`,
        cancelUrl: back,
      });
    const inv = (await invoicePaymentState.find(this.d.db, link.invoiceId!))!;
    if (inv.paymentStatus !== 'pending') throw new AppError('payment_link_used');
    return this.invoiceCheckout(inv, { successUrl: `${back}?estado=pagado`, cancelUrl: back });
  }

  /**
   * A Checkout Session in payment mode for a pending invoice, on its seller's account (the pay link's,
   * or the companion's): an attempt left open is offered again. The webhook marks the invoice paid.
   */
  async invoiceCheckout(inv: InvoiceRow, urls: { successUrl: string; cancelUrl: string }): Promise<{ url: string }> {
    const block = await this.blockOf(inv);
    if (block) throw new AppError(block);
    const account = await this.d.accounts.chargeable(inv.sellerKey);
    if (!account) throw new AppError('charge_not_connected');
    const attempt = await this.d.db.transaction(async (tx) => {
      await invoicePaymentState.find(tx, inv.id, true);
      const last = await paymentLedgerRepository(tx).lastAttempt(inv.id, 'checkout');
      if (last && last.status === 'processing' && this.now().getTime() - last.createdAt.getTime() < CHECKOUT_REUSE_MS) return last;
      const n = (last?.attempt ?? 0) + 1;
      return paymentLedgerRepository(tx).insertAttempt({
        invoiceId: inv.id,
        workspaceId: inv.workspaceId,
        holderKey: inv.sellerKey,
        accountId: account.accountId,
        kind: 'checkout',
        attempt: n,
        idempotencyKey: `invoice-${inv.id}-checkout-${n}`,
        amount: inv.total,
        status: 'processing',
      });
    });
    const session = await viaGateway(() =>
      this.d.accounts.gateway.checkoutPayment(account.accountId, {
        customerId: null,
        customerEmail: inv.buyer?.email ?? null,
        amount: attempt.amount,
        description: `Factura ${inv.number} · ${inv.seller?.fullName ?? ''}`.trim(),
        ...urls,
        metadata: { invoiceId: inv.id, attemptId: attempt.id, workspaceId: inv.workspaceId },
        idempotencyKey: attempt.idempotencyKey,
      }),
    );
    await paymentLedgerRepository(this.d.db).setCheckout(attempt.id, session.id);
    return { url: session.url };
  }

  private async holderName(link: PaymentLinkRow) {
    if (link.holderKey.startsWith('user:')) {
      const u = await this.d.users.findById(link.holderKey.slice(5));
      if (u) return [u.firstName, u.lastName].filter(Boolean).join(' ');
    }
    return (await this.d.workspaces.brandOf(link.workspaceId)).name;
  }

  private now() {
    return this.d.clock?.() ?? new Date();
  }
}
