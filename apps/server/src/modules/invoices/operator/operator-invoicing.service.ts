import { lineTotals, refundLinesOfStored, type DivanTax, type Invoice } from '@divan/core';
import type { Caller } from '../../../platform/auth/caller';
import type { Db, Tx } from '../../../platform/db/database';
import type { OperatorSeller } from '../../../platform/operator-seller';
import type { UsersService } from '../../users/users.service';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import type { InvoiceIssuing } from '../issuing/invoice-issuing.service';
import { invoicesRepository } from '../invoices.repository';
import type { InvoicesService } from '../invoices.service';
import type { InvoiceParty, InvoiceRow } from '../invoices.tables';
import type { Mailer } from '../../../platform/mail/mailer';
import { renderInvoicePdf } from '../pdf/invoice-pdf';
import { invoiceMail } from '../pdf/invoice-mail';
import { invoiceFilename } from '../pdf/invoice-pdf-format';
import { operatorRepository } from './operator.repository';

/** Diván's own series: D2026-0001, D2026-0002… (its rectifying series RD2026-…). */
export const OPERATOR_SERIES_PREFIX = 'D';
/** The operator's account when OPERATOR_EMAIL is unset (a development server). */
export const DEV_OPERATOR_EMAIL = 'operador@divan.localhost';

/** Who Diván invoices (the workspace's billing data of Ajustes › Pagos). */
export type OperatorBuyer = {
  name: string;
  /** A Spanish NIF, an EU VAT id, or another country's tax id; null outside the EU without one. */
  taxId: string | null;
  line1: string;
  city: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2 and the country's Spanish name, as printed. */
  countryCode: string;
  countryName: string;
  email: string | null;
};

export type OperatorInvoiceInput = {
  buyer: OperatorBuyer;
  /** The charge's lines before tax (the provider's invoice lines), cents; a proration credit is negative. */
  lines: { description: string; amountCents: number }[];
  tax: DivanTax;
  paidAt: Date;
};

/** Diván's invoice as issued (a row of Diván's own workspace). */
export type OperatorInvoice = InvoiceRow;

/** The operator's workspace and a caller acting in it as its owner (resolved outside any transaction). */
export type Operator = { workspaceId: string; caller: Caller };

export type OperatorInvoicingDeps = {
  db: Db;
  users: UsersService;
  workspaces: WorkspacesService;
  issuing: InvoiceIssuing;
  invoices: InvoicesService;
  seller: OperatorSeller;
  operatorEmail: string;
  mailer: Mailer;
};

/**
 * Diván as a seller (issue 27, decision 0026 §7): each paid charge of a plan becomes an invoice of
 * Diván's own series, in Diván's own workspace, issued by the same code as every invoice (its number
 * gapless, its VERI*FACTU record chained under Diván's NIF), taxed by `divanTax` — 21 % IVA, or not
 * subject (N2) with the case's legend on the invoice. The billing module calls it inside its own
 * transaction, so the charge's row and the invoice commit together.
 */
export class OperatorInvoicing {
  private operator: Promise<Operator> | null = null;

  constructor(private readonly d: OperatorInvoicingDeps) {}

  /** The operator's workspace, made the first time (and its owner's account if there is none), and its owner as caller. */
  ensureOperator(): Promise<Operator> {
    if (!this.operator) {
      this.operator = this.makeOperator();
      this.operator.catch(() => (this.operator = null));
    }
    return this.operator;
  }

  private async makeOperator(): Promise<Operator> {
    const { workspaceId, ownerId } = await this.d.db.transaction(async (tx) => {
      // One server makes it: the others wait on the lock and read the row.
      const repo = operatorRepository(tx);
      await repo.lock();
      const known = await repo.get();
      if (known) return known;
      const email = this.d.operatorEmail.toLowerCase();
      // The operator's account, made here when they have none: they set a password with «¿Olvidaste tu contraseña?».
      let user = await this.d.users.findByEmail(email, tx);
      if (!user) {
        const made = await this.d.users.create({ email, firstName: 'Diván', passwordHash: null }, tx);
        if (!made) throw new Error(`operator invoicing: no account for ${email}`);
        user = (await this.d.users.markVerified(made.id, tx)) ?? made;
      }
      const workspaceId = await this.d.workspaces.createIn(tx, user.id, 'Diván — facturas propias', 'clinic');
      return repo.insert(workspaceId, user.id);
    });
    const member = await this.d.workspaces.resolveMembership(workspaceId, ownerId);
    if (!member) throw new Error(`operator invoicing: ${ownerId} is no member of ${workspaceId}`);
    return { workspaceId, caller: { member, userId: ownerId } };
  }

  /** Issues Diván's invoice for one charge inside `tx` (an `ensureOperator()` answer given). */
  async issueIn(tx: Tx, op: Operator, input: OperatorInvoiceInput): Promise<OperatorInvoice> {
    const repo = invoicesRepository(tx);
    const notSubject = input.tax.vatRate === 0;
    const rows = input.lines.map((l, i) => {
      const taxes = { vatRate: input.tax.vatRate, withholdingRate: 0, exemption: notSubject ? ('N2' as const) : null };
      const t = lineTotals({ description: l.description, unitPriceCents: l.amountCents, quantity: 1, ...taxes });
      return {
        position: i + 1,
        description: l.description.slice(0, 300) || 'Suscripción a Diván',
        itemKind: 'other' as const,
        unitPrice: l.amountCents,
        quantityHundredths: 100,
        vatRate: taxes.vatRate,
        withholdingRate: 0,
        exemption: taxes.exemption,
        base: t.baseCents,
        vat: t.vatCents,
        withholding: 0,
        total: t.totalCents,
      };
    });
    const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((a, r) => a + pick(r), 0);
    const draft = await repo.insert({
      workspaceId: op.workspaceId,
      ownerId: op.caller.userId,
      sellerType: 'workspace',
      sellerKey: `workspace:${op.workspaceId}`,
      buyer: partyOf(input.buyer),
      subtotal: sum((r) => r.base),
      vat: sum((r) => r.vat),
      total: sum((r) => r.total),
      paymentStatus: 'paid',
      paymentType: 'card',
      paidAt: input.paidAt,
      footer: input.tax.legend,
      createdBy: op.caller.userId,
    });
    const lines = await repo.insertLines(draft, rows);
    const issued = await this.d.issuing.issueWith(tx, op.caller, draft, this.sellerBilling(), { lines });
    return issued.row;
  }

  /**
   * Diván's invoice `invoiceId` rectified in full inside `tx` (a refund of its whole charge): a rectifying
   * invoice by difference in Diván's rectifying series, its lines the refund's as for a therapist's card
   * refund (`refundLinesOf`: the same taxes, the total exactly the original's, negative).
   */
  async rectifyIn(tx: Tx, op: Operator, invoiceId: string, reason: string): Promise<OperatorInvoice> {
    const lines = await invoicesRepository(tx).lines(invoiceId);
    const total = lines.reduce((a, l) => a + l.total, 0);
    const plan = refundLinesOfStored(lines, total);
    const body = {
      method: 'difference' as const,
      reason: reason.slice(0, 300),
      lines: plan.lines.map((l) => ({
        ...l,
        itemKind: 'other' as const,
        vatRate: l.vatRate as 0 | 4 | 10 | 21,
        withholdingRate: l.withholdingRate as 0 | 7 | 15 | 19,
        exemption: l.exemption ?? null,
      })),
    };
    return this.d.issuing.rectifyIn(tx, op.caller, invoiceId, body, this.sellerBilling());
  }

  private sellerBilling() {
    const s = this.d.seller;
    return {
      fullName: s.name,
      taxId: s.taxId,
      line1: s.line1,
      city: s.city,
      zipCode: s.zipCode,
      country: s.country,
      seriesPrefix: OPERATOR_SERIES_PREFIX,
    };
  }

  /** After the commit of `issueIn`'s transaction: the issue's event (the operator's own screens follow). */
  afterIssue(row: OperatorInvoice) {
    return this.d.issuing.afterIssue(row);
  }

  /** Mails one of Diván's invoices, its PDF attached, once (the outbox's key), through the outbox. */
  async mail(invoiceId: string, to: string, workspaceId: string): Promise<void> {
    const file = await this.pdf(invoiceId);
    if (!file) return;
    const mail = invoiceMail({ to, sellerName: this.d.seller.name, brand: { name: 'Diván' }, ...file });
    await this.d.mailer.send(mail, { key: `divan-invoice:${invoiceId}`, purpose: 'invoice', workspaceId });
  }

  /** One of Diván's invoices (issued) as a PDF, with the file name the download takes; null for none. */
  async pdf(invoiceId: string): Promise<{ invoice: Invoice; pdf: Buffer; filename: string } | null> {
    const op = await this.ensureOperator();
    const row = await invoicesRepository(this.d.db).find(op.workspaceId, invoiceId, { therapist: { kind: 'all' }, workspace: true });
    if (!row || row.status === 'draft') return null;
    const invoice = await this.d.invoices.presentIn(op.workspaceId, row);
    return { invoice, pdf: await renderInvoicePdf(invoice), filename: invoiceFilename(invoice) };
  }
}

/** A buyer as printed: a business by its CIF or VAT id, anyone else as a professional (no withholding either way). */
function partyOf(b: OperatorBuyer): InvoiceParty {
  const business = !!b.taxId && (b.countryCode !== 'ES' || /^[A-HJNP-SUVW]/i.test(b.taxId));
  return {
    kind: business ? 'company' : 'professional',
    fullName: b.name,
    taxId: b.taxId,
    line1: b.line1,
    line2: null,
    city: b.city,
    zipCode: b.postalCode,
    country: b.countryName,
    email: b.email,
    ...(b.countryCode !== 'ES' ? { countryCode: b.countryCode } : {}),
  };
}
