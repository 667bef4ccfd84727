import { defineModule, handle } from '../../platform/modules/define-module';
import { InvoiceMonthStats } from './invoice-month-stats';
import { InvoiceStats } from './invoice-stats';
import { AutoInvoices } from './auto/invoice-auto.service';
import { BatchIssuing } from './batches/batch-issuing.service';
import { BatchChecks } from './batches/invoice-batch-checks.service';
import { InvoiceBatches } from './batches/invoice-batches.service';
import { invoiceBatchesRoutes } from './batches/invoice-batches.routes';
import { feeBalanceRoutes } from './fee-balance.routes';
import { InvoiceDraftsService } from './invoice-drafts.service';
import { InvoiceExport } from './invoice-export.service';
import { InvoiceIssuing } from './issuing/invoice-issuing.service';
import { InvoiceVoiding } from './issuing/invoice-voiding.service';
import { DEV_OPERATOR_EMAIL, OperatorInvoicing } from './operator/operator-invoicing.service';
import { DEV_OPERATOR_SELLER } from '../../platform/operator-seller';
import { invoicesRoutes } from './invoices.routes';
import { InvoicesService } from './invoices.service';
import { invoicePdfRoutes } from './pdf/invoice-pdf.routes';
import { BillingProfiles } from './settings/billing-profiles.service';
import { InvoiceSeries } from './settings/invoice-series.service';
import { invoiceSettingsRoutes } from './settings/invoice-settings.routes';
import { wireVerifactuSending } from './verifactu/aeat/verifactu-sending.service';
import { verifactuStatusRoutes } from './verifactu/aeat/verifactu-status.routes';
import { VerifactuStatusService } from './verifactu/aeat/verifactu-status.service';
import { VERIFACTU_QR_BASE_URL } from './verifactu/qr';
import { softwareOf, VerifactuExport } from './verifactu/verifactu-export.service';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Access to an invoice, the list, an invoice presented (its PDF, the patient's copy). */
    invoices: InvoicesService;
    /** Drafts: the buyer, the seller's terms, the lines and their sessions (a pack's sale drafts its invoice). */
    invoiceDrafts: InvoiceDraftsService;
    /** Issuing (and rectifying) with its VERI*FACTU record, in one statement. */
    invoiceIssuing: InvoiceIssuing;
    /** The automatic invoice after a completed session (payments charges it: `onIssued`). */
    autoInvoices: AutoInvoices;
    /** Diván as a seller: the invoice of each paid charge of a plan, in Diván's own workspace and series. */
    operatorInvoicing: OperatorInvoicing;
    /** The statistics' sums of invoices, in the caller's scope (analytics). */
    invoiceStats: InvoiceStats;
    /** The invoices' summary of months and its refresh (tests and the bench refresh it at will). */
    invoiceMonthStats: InvoiceMonthStats;
  }
}

/** Invoices: billing profiles, drafts, issuing with VERI*FACTU records and sending them to the AEAT, batches, rectifying invoices. */
export const invoicesModule = defineModule({
  name: 'invoices',
  needs: ['audit', 'patients', 'users', 'workspaces', 'sessionInvoicing'],
  build: (d, p) => {
    const { db, jobs, clock, config } = p;
    const { patients, users, workspaces } = d;
    const sessions = d.sessionInvoicing;
    const base = { db, events: p.events, jobs, mailer: p.mailer, audit: d.audit, patients, users, workspaces, sessions, clock };
    const billing = new BillingProfiles(db);
    const invoices = new InvoicesService({ ...base, qrBase: VERIFACTU_QR_BASE_URL });
    const drafts = new InvoiceDraftsService({ ...base, invoices, billing });
    const issuing = new InvoiceIssuing({ ...base, invoices, drafts, billing });
    const voiding = new InvoiceVoiding({ ...base, invoices });
    const checks = new BatchChecks({ ...base, drafts, issuing, billing });
    const batchIssuing = new BatchIssuing({ ...base, drafts, issuing });
    const batches = new InvoiceBatches(db, jobs, batchIssuing, sessions, patients, workspaces, checks);
    const auto = new AutoInvoices(db, jobs, drafts, issuing, workspaces, sessions);
    // The software producer the records name; unset: the development values (refused by the AEAT).
    const software = softwareOf(config.verifactuProducer);
    // Sending VERI*FACTU records to the AEAT; unset: off.
    const sending = wireVerifactuSending({ db, jobs, aeat: config.verifactuAeat, clock, software });
    // The statistics' summary of months, refreshed a little after an invoice is issued or paid (exact meanwhile).
    const monthStats = new InvoiceMonthStats(db, jobs);
    const refreshSoon = ({ workspaceId }: { workspaceId: string }) =>
      monthStats
        .changed(workspaceId)
        .catch((err: unknown) => p.log.warn({ err, workspaceId }, 'invoice month stats: refresh not enqueued'));
    return {
      provides: {
        invoices,
        invoiceDrafts: drafts,
        invoiceIssuing: issuing,
        autoInvoices: auto,
        invoiceStats: new InvoiceStats(p.database.reads),
        invoiceMonthStats: monthStats,
        operatorInvoicing: new OperatorInvoicing({
          db,
          users,
          workspaces,
          issuing,
          invoices,
          seller: config.operatorSeller ?? DEV_OPERATOR_SELLER,
          operatorEmail: config.operatorEmail ?? DEV_OPERATOR_EMAIL,
          mailer: p.mailer,
        }),
      },
      routes: (app) =>
        app
          .register(invoicesRoutes, {
            invoices,
            drafts,
            issuing,
            voiding,
            billing,
            invoiceExport: new InvoiceExport(db),
            verifactuExport: new VerifactuExport({ ...base, billing, software }),
          })
          .register(invoiceBatchesRoutes, { batches })
          .register(invoiceSettingsRoutes, { auto, series: new InvoiceSeries(db) })
          .register(feeBalanceRoutes, { sessions, users })
          .register(invoicePdfRoutes, { invoices, workspaces, mailer: p.mailer })
          .register(verifactuStatusRoutes, { status: new VerifactuStatusService({ db, invoices, sending: !!sending }) }),
      // The batches', automatic invoices', the summary's and (when configured) the AEAT sending's queues, its handler and sweep.
      jobs: [batches.queue, auto.queue, monthStats.queue, ...(sending?.jobs ?? [])],
      on: [...(sending?.on ?? []), handle('invoice.issued', 'once', refreshSoon), handle('invoice.paid', 'once', refreshSoon)],
      // Months left stale while no server ran (a restore, migration 0052's backfill) are summed soon.
      start: () => monthStats.catchUp(),
      sweeps: sending?.sweeps ?? {},
    };
  },
});
