import {
  BILLING_COUNTRIES,
  divanTax,
  type BillingDetails,
  type BillingDetailsResponse,
  type DivanInvoices,
  type DivanTax,
} from '@divan/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Membership } from '../../platform/auth/access';
import { IVA_21, type BillingCustomerDetails, type PlatformBilling } from '../../platform/billing/platform-billing';
import type { Db, Tx } from '../../platform/db/database';
import { AppError } from '../../platform/errors';
import type { Operator, OperatorInvoice, OperatorInvoicing } from '../invoices/operator/operator-invoicing.service';
import { billingDetailsRepository, type BillingDetailsChecked } from './billing-details.repository';
import { isLive } from './billing-sync';
import { billingRepository } from './billing.repository';
import type { BillingDetailsRow } from './billing.tables';
import { canManageBilling } from './billing.service';

const countryName = (code: string) => BILLING_COUNTRIES.find((c) => c.code === code)?.name ?? code;

/**
 * How Diván's invoices to these data are taxed. A VAT id that VIES does not know (the provider's check
 * says `unverified`) is not a business's: no reverse charge, IVA as to a consumer, until it is corrected.
 */
export const taxOfDetails = (
  d: Pick<BillingDetailsRow, 'country' | 'postalCode' | 'vatId'> & Partial<Pick<BillingDetailsChecked, 'vatCheck'>>,
): DivanTax => divanTax({ country: d.country, postalCode: d.postalCode, vatId: d.vatCheck?.status === 'unverified' ? null : d.vatId });

/** The tax id the provider keeps for its receipts and its VIES check: an EU VAT id, or a Spanish company's CIF. */
export function providerTaxIdOf(row: Pick<BillingDetailsRow, 'country' | 'taxId' | 'vatId'>): BillingCustomerDetails['taxId'] {
  if (row.vatId) return { type: 'eu_vat', value: row.vatId };
  if (row.country === 'ES' && row.taxId && /^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/.test(row.taxId))
    return { type: 'es_cif', value: row.taxId };
  return null;
}

function present(row: BillingDetailsChecked | null): BillingDetailsResponse {
  if (!row) return { details: null, tax: null, vatCheck: null };
  const { name, country, taxId, vatId, line1, city, postalCode, email } = row;
  const c = row.vatCheck;
  return {
    details: { name, country, taxId, vatId, line1, city, postalCode, email },
    tax: taxOfDetails(row),
    // An EU VAT id the provider has not answered about yet is being checked.
    vatCheck: vatId
      ? c
        ? { status: c.status, verifiedName: c.verifiedName, checkedAt: c.checkedAt.toISOString() }
        : { status: 'pending', verifiedName: null, checkedAt: null }
      : null,
  };
}

export type BillingDetailsDeps = {
  db: Db;
  billing: PlatformBilling | null;
  operator: OperatorInvoicing;
  log: FastifyBaseLogger;
  /** Where Diván's invoices go when the billing data name no email: the workspace owner's. */
  ownerEmailOf: (workspaceId: string) => Promise<string | null>;
};

/**
 * Ajustes › Pagos (issue 27, slice 3): who Diván invoices for a workspace (name, NIF or EU VAT id,
 * address), the provider's tax rates that follow from it (`divanTax`), and Diván's invoices: one for each
 * paid charge (`invoice.paid`), issued in Diván's own series with its VERI*FACTU record.
 */
export class BillingDetailsService {
  constructor(private readonly d: BillingDetailsDeps) {}

  async get(m: Membership): Promise<BillingDetailsResponse> {
    if (!canManageBilling(m)) throw new AppError('access_denied');
    return present(await billingDetailsRepository(this.d.db).detailsOf(m.workspaceId));
  }

  /** Saves the data; a live subscription's tax rates follow a changed tax case from its next invoice. */
  async put(m: Membership, userId: string, body: BillingDetails): Promise<BillingDetailsResponse> {
    if (!canManageBilling(m)) throw new AppError('access_denied');
    const repo = billingDetailsRepository(this.d.db);
    const before = await repo.detailsOf(m.workspaceId);
    const written = await repo.saveDetails({ workspaceId: m.workspaceId, ...body, updatedBy: userId });
    const saved = (await repo.detailsOf(m.workspaceId))!;
    await this.pushToCustomer(written);
    await this.followTaxCase(before, saved, `${saved.updatedAt.getTime()}`);
    return present(saved);
  }

  /**
   * The provider's `customer.tax_id.*` event: its verdict on the EU VAT id read again from it (the latest,
   * whatever the order of the events), kept when it is about the billing data's VAT id, and the
   * subscription's tax rates following a tax case it changed (VIES not knowing the id: IVA again).
   */
  async taxIdChecked(customerId: string, taxIdId: string): Promise<string> {
    const billing = this.d.billing;
    if (!billing) return 'billing not configured';
    const workspaceId = await billingRepository(this.d.db).workspaceOfCustomer(customerId);
    if (!workspaceId) return 'unknown customer';
    const fact = await billing.retrieveTaxId(customerId, taxIdId);
    if (!fact) return 'tax id removed';
    if (fact.type !== 'eu_vat' || !fact.verification) return 'not checked by the provider';
    const repo = billingDetailsRepository(this.d.db);
    const before = await repo.detailsOf(workspaceId);
    if (!before || before.vatId !== fact.value) return 'not the VAT id of the billing data';
    const { status, verifiedName } = fact.verification;
    await repo.saveVatCheck({ workspaceId, value: fact.value, status, verifiedName, checkedAt: new Date() });
    const after = (await repo.detailsOf(workspaceId))!;
    await this.followTaxCase(before, after, `vies:${taxIdId}:${status}`);
    this.d.log.info({ workspaceId, status }, 'billing: VIES check of the VAT id');
    return status;
  }

  /** A live subscription's tax rates follow a changed tax case, from its next invoice. */
  private async followTaxCase(before: BillingDetailsChecked | null, after: BillingDetailsChecked, key: string) {
    if (before && taxOfDetails(before).vatRate === taxOfDetails(after).vatRate) return;
    const sub = await billingRepository(this.d.db).subscriptionOf(after.workspaceId);
    if (!sub || !isLive(sub.status) || !this.d.billing) return;
    await this.d.billing.updateSubscription(sub.subscriptionId, {
      proration: 'none',
      taxRateIds: await this.taxRateIds(after),
      idempotencyKey: `divan-tax:${sub.subscriptionId}:${key}`,
    });
  }

  /** A customer just made for the workspace: given its billing data at once. */
  async customerCreated(workspaceId: string, customerId: string): Promise<void> {
    const row = await billingDetailsRepository(this.d.db).detailsOf(workspaceId);
    if (row) await this.pushToCustomer(row, customerId);
  }

  /** The provider's customer says what the billing data say (its receipts and portal), once there is one. */
  async pushToCustomer(row: BillingDetailsRow, customerId?: string): Promise<void> {
    const customer = customerId ?? (await billingRepository(this.d.db).customerOf(row.workspaceId));
    if (!customer || !this.d.billing) return;
    const { taxIdRefused } = await this.d.billing.updateCustomer(customer, {
      name: row.name,
      email: row.email,
      address: { line1: row.line1, city: row.city, postalCode: row.postalCode, country: row.country },
      taxId: providerTaxIdOf(row),
      idempotencyKey: `divan-customer-details:${row.workspaceId}:${row.updatedAt.getTime()}`,
    });
    if (taxIdRefused) this.d.log.warn({ workspaceId: row.workspaceId, reason: taxIdRefused }, 'billing: the provider refused the tax id');
  }

  /** The provider's tax rates of a workspace's subscription; `billing_details_missing` before the data are given. */
  async taxRateIdsOf(workspaceId: string): Promise<string[]> {
    const row = await billingDetailsRepository(this.d.db).detailsOf(workspaceId);
    if (!row) throw new AppError('billing_details_missing');
    return this.taxRateIds(row);
  }

  private async taxRateIds(row: BillingDetailsChecked): Promise<string[]> {
    if (taxOfDetails(row).vatRate === 0 || !this.d.billing) return [];
    return [(await this.d.billing.ensureTaxRate(IVA_21)).id];
  }

  async invoices(m: Membership): Promise<DivanInvoices> {
    if (!canManageBilling(m)) throw new AppError('access_denied');
    const rows = await billingDetailsRepository(this.d.db).invoicesOf(m.workspaceId);
    return {
      items: rows.map((r) => ({
        id: r.invoiceId,
        number: r.number,
        issueDate: r.issueDate,
        description: r.description,
        subtotal: r.subtotal,
        vat: r.vat,
        total: r.total,
        vatRate: r.vatRate,
      })),
    };
  }

  async pdf(m: Membership, invoiceId: string): Promise<{ pdf: Buffer; filename: string }> {
    if (!canManageBilling(m)) throw new AppError('access_denied');
    const row = await billingDetailsRepository(this.d.db).invoiceOf(m.workspaceId, invoiceId);
    const file = row ? await this.d.operator.pdf(row.invoiceId) : null;
    if (!file) throw new AppError('billing_invoice_not_found');
    return file;
  }

  /**
   * Diván's invoice for a paid charge of the provider (`invoice.paid`): once per provider invoice
   * whatever the webhooks do (the key is locked and checked in the issuing transaction), nothing for a
   * charge of 0 (a free month, a credit), the lines before tax as the provider wrote them, the tax by the
   * workspace's billing data. Diván's arithmetic is the invoice's; a provider total that differs is kept
   * beside it and logged.
   */
  async invoicePaid(providerInvoiceId: string): Promise<'issued' | 'duplicate' | string> {
    const billing = this.d.billing;
    if (!billing) return 'billing not configured';
    // A replay of a charge already invoiced asks the provider nothing (the lock below still decides a race).
    if (await billingDetailsRepository(this.d.db).hasInvoice(providerInvoiceId)) return 'duplicate';
    const fact = await billing.retrieveInvoice(providerInvoiceId);
    if (fact.status !== 'paid') return `invoice ${fact.status}`;
    if (fact.amountPaid <= 0) return 'nothing charged';
    const workspaceId = await billingRepository(this.d.db).workspaceOfCustomer(fact.customerId);
    if (!workspaceId) return 'unknown customer';
    return this.issueCharge({
      key: fact.id,
      workspaceId,
      lines: fact.lines.filter((l) => l.amount !== 0).map((l) => ({ description: l.description, amountCents: l.amount })),
      paidAt: new Date((fact.paidAt ?? fact.created) * 1000),
      providerTotal: fact.total,
    });
  }

  /** Diván's own workspace, made the first time: what `rectifyChargeIn` is given (resolved outside any transaction). */
  operator(): Promise<Operator> {
    return this.d.operator.ensureOperator();
  }

  /**
   * Diván's invoice `invoiceId` to the workspace rectified in full inside the caller's transaction (a sale
   * refunded in full): once whatever is asked again (its key locked and checked as an issue's), listed
   * with the workspace's invoices. Null when it was rectified already, or is no invoice of Diván's to it.
   * `afterRectify` after the commit.
   */
  async rectifyChargeIn(
    tx: Tx,
    op: Operator,
    c: { workspaceId: string | null; invoiceId: string; reason: string },
  ): Promise<OperatorInvoice | null> {
    const repo = billingDetailsRepository(tx);
    const key = `rectifies:${c.invoiceId}`;
    if (!(await repo.takeInvoice(key))) return null;
    // A workspace deleted since took its list of invoices with it: the books are rectified all the same.
    const original = c.workspaceId ? await repo.invoiceOf(c.workspaceId, c.invoiceId) : null;
    if (c.workspaceId && !original) return null;
    const row = await this.d.operator.rectifyIn(tx, op, c.invoiceId, c.reason);
    if (c.workspaceId && original)
      await repo.insertInvoice({
        providerInvoiceId: key,
        workspaceId: c.workspaceId,
        invoiceId: row.id,
        number: row.number!,
        issueDate: row.issueDate!,
        description: `Rectificativa de ${original.number}: ${original.description}`.slice(0, 300),
        subtotal: row.subtotal,
        vat: row.vat,
        total: row.total,
        vatRate: original.vatRate,
        providerTotal: null,
      });
    return row;
  }

  /** After the commit of `rectifyChargeIn`'s transaction: the issue's event, and the invoice mailed as the original was. */
  async afterRectify(row: OperatorInvoice, workspaceId: string | null): Promise<void> {
    await this.d.operator.afterIssue(row);
    if (!workspaceId) return;
    const details = await billingDetailsRepository(this.d.db).detailsOf(workspaceId);
    const to = details?.email ?? (await this.d.ownerEmailOf(workspaceId));
    if (to) await this.d.operator.mail(row.id, to, workspaceId);
  }

  /**
   * Diván's invoice for one paid charge — a provider invoice of the plan (`in_…`) or a gift's Checkout
   * (`cs_…`) — once per key whatever the webhooks do (the key locked and checked in the issuing
   * transaction), taxed by the workspace's billing data, mailed with its PDF.
   */
  async issueCharge(c: {
    key: string;
    workspaceId: string;
    lines: { description: string; amountCents: number }[];
    paidAt: Date;
    providerTotal: number;
  }): Promise<'issued' | 'duplicate' | string> {
    const { workspaceId, lines } = c;
    if (await billingDetailsRepository(this.d.db).hasInvoice(c.key)) return 'duplicate';
    const details = await billingDetailsRepository(this.d.db).detailsOf(workspaceId);
    if (!details) return 'no billing data';
    const tax = taxOfDetails(details);
    const op = await this.d.operator.ensureOperator();
    const issued = await this.d.db.transaction(async (tx) => {
      const repo = billingDetailsRepository(tx);
      if (!(await repo.takeInvoice(c.key))) return null;
      const row = await this.d.operator.issueIn(tx, op, {
        buyer: {
          name: details.name,
          taxId: details.vatId ?? details.taxId,
          line1: details.line1,
          city: details.city,
          postalCode: details.postalCode,
          countryCode: details.country,
          countryName: countryName(details.country),
          email: details.email,
        },
        lines,
        tax,
        paidAt: c.paidAt,
      });
      const differs = row.total !== c.providerTotal;
      if (differs)
        this.d.log.error(
          { providerInvoiceId: c.key, providerTotal: c.providerTotal, total: row.total },
          "billing: the provider charged a total other than Diván's invoice",
        );
      await repo.insertInvoice({
        providerInvoiceId: c.key,
        workspaceId,
        invoiceId: row.id,
        number: row.number!,
        issueDate: row.issueDate!,
        description: lines
          .map((l) => l.description)
          .join('; ')
          .slice(0, 300),
        subtotal: row.subtotal,
        vat: row.vat,
        total: row.total,
        vatRate: tax.vatRate,
        providerTotal: differs ? c.providerTotal : null,
      });
      return row;
    });
    if (!issued) return 'duplicate';
    await this.d.operator.afterIssue(issued);
    const to = details.email ?? (await this.d.ownerEmailOf(workspaceId));
    if (to) await this.d.operator.mail(issued.id, to, workspaceId);
    return 'issued';
  }
}
