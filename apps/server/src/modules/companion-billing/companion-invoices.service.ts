import { payLinkBlockOf, type CompanionInvoice } from '@divan/core';
import { AppError } from '../../platform/errors';
import type { InvoicesService } from '../invoices/invoices.service';
import { renderInvoicePdf } from '../invoices/pdf/invoice-pdf';
import { invoiceFilename } from '../invoices/pdf/invoice-pdf-format';
import type { PatientAccountsService } from '../patient-accounts/patient-accounts.service';
import type { InvoicePayLinks } from '../payments/invoice-pay-links.service';
import type { PaymentAccounts } from '../payments/payment-accounts.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';

type InvoiceRow = Awaited<ReturnType<InvoicesService['ofPatient']>>[number];

type Deps = {
  accounts: PatientAccountsService;
  invoices: InvoicesService;
  payLinks: InvoicePayLinks;
  paymentAccounts: PaymentAccounts;
  workspaces: Pick<WorkspacesService, 'nameOf'>;
  publicUrl: string;
};

/**
 * The invoices of a connected file in the companion: the issued ones (never a draft), their PDF as the
 * therapist has it, and paying one by card through the payments module's checkout (the webhook marks it paid).
 */
export class CompanionInvoicesService {
  constructor(private readonly d: Deps) {}

  async list(accountId: string, patientFileId: string): Promise<{ items: CompanionInvoice[] }> {
    const f = await this.d.accounts.liveFileOf(accountId, patientFileId);
    const rows = await this.d.invoices.ofPatient(f.workspaceId, f.patientFileId);
    const sellers = [...new Set(rows.map((r) => r.sellerKey))];
    const chargeable = new Map(await Promise.all(sellers.map(async (k) => [k, !!(await this.d.paymentAccounts.chargeable(k))] as const)));
    const workspaceName = rows.some((r) => !r.seller?.fullName) ? ((await this.d.workspaces.nameOf(f.workspaceId)) ?? '') : '';
    return { items: rows.map((r) => present(r, chargeable.get(r.sellerKey) ?? false, workspaceName)) };
  }

  async pdf(accountId: string, patientFileId: string, invoiceId: string): Promise<{ filename: string; pdf: Buffer }> {
    const f = await this.d.accounts.liveFileOf(accountId, patientFileId);
    const row = await this.d.invoices.ofPatientOne(f.workspaceId, f.patientFileId, invoiceId);
    const invoice = await this.d.invoices.presentIn(f.workspaceId, row);
    const pdf = await renderInvoicePdf(invoice, { workspaceName: (await this.d.workspaces.nameOf(f.workspaceId)) ?? undefined });
    return { filename: invoiceFilename(invoice), pdf };
  }

  /** A checkout to pay the invoice by card; back to the companion's invoices afterwards. */
  async pay(accountId: string, patientFileId: string, invoiceId: string): Promise<{ url: string }> {
    const f = await this.d.accounts.liveFileOf(accountId, patientFileId);
    const row = await this.d.invoices.ofPatientOne(f.workspaceId, f.patientFileId, invoiceId);
    if (row.paymentStatus === 'paid') throw new AppError('companion_invoice_paid');
    if (await this.d.payLinks.blockOf(row)) throw new AppError('companion_invoice_not_payable');
    const back = `${this.d.publicUrl}/p/${f.patientFileId}/facturas`;
    return this.d.payLinks.invoiceCheckout(row, { successUrl: `${back}?estado=pagado`, cancelUrl: back });
  }
}

function present(r: InvoiceRow, sellerCanCharge: boolean, workspaceName: string): CompanionInvoice {
  const due = r.status === 'issued' && r.paymentStatus === 'pending';
  return {
    id: r.id,
    number: r.number ?? '',
    issueDate: r.issueDate ?? '',
    kind: r.kind,
    status: r.status === 'voided' ? 'voided' : 'issued',
    sellerName: r.seller?.fullName || workspaceName,
    totalCents: r.total,
    paymentStatus: r.paymentStatus,
    paidAt: r.paidAt?.toISOString() ?? null,
    amountDueCents: due ? Math.max(r.total, 0) : 0,
    payable: due && !payLinkBlockOf({ status: r.status, paymentStatus: r.paymentStatus, totalCents: r.total, sellerCanCharge }),
  };
}
