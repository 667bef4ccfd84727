import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/database';
import type { EventBus } from '../../platform/events/event-bus';
import type { AuditService } from '../audit/audit.service';
import type { PatientsService } from '../patients/patients.service';
import type { SessionInvoicing } from '../sessions/session-invoicing';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { BillingProfiles } from './settings/billing-profiles.service';
import type { Jobs } from '../../platform/jobs/jobs';
import type { Mailer } from '../../platform/mail/mailer';
import { AutoInvoices } from './auto/invoice-auto.service';
import { InvoiceBatches } from './batches/invoice-batches.service';
import { BatchChecks } from './batches/invoice-batch-checks.service';
import { BatchIssuing } from './batches/batch-issuing.service';
import { invoiceBatchesRoutes } from './batches/invoice-batches.routes';
import { feeBalanceRoutes } from './fee-balance.routes';
import { InvoiceIssuing } from './issuing/invoice-issuing.service';
import { invoiceSettingsRoutes } from './settings/invoice-settings.routes';
import { InvoiceVoiding } from './issuing/invoice-voiding.service';
import { invoicesRoutes } from './invoices.routes';
import { invoicePdfRoutes } from './pdf/invoice-pdf.routes';
import { InvoiceDraftsService } from './invoice-drafts.service';
import { InvoicesService } from './invoices.service';
import { VERIFACTU_QR_BASE_URL } from './verifactu/qr';
import type { VerifactuAeatConfig } from '../../platform/config';
import type { VerifactuProducerConfig } from '../../platform/verifactu-producer';
import { softwareOf, VerifactuExport } from './verifactu/verifactu-export.service';
import { verifactuStatusRoutes } from './verifactu/aeat/verifactu-status.routes';
import { wireVerifactuSending } from './verifactu/aeat/verifactu-sending.service';
import { VerifactuStatusService } from './verifactu/aeat/verifactu-status.service';
import { InvoiceExport } from './invoice-export.service';
import { InvoiceSeries } from './settings/invoice-series.service';

type Deps = {
  db: Db;
  events: EventBus;
  audit: AuditService;
  patients: PatientsService;
  users: UsersService;
  workspaces: WorkspacesService;
  sessions: SessionInvoicing;
  /** The AEAT's QR validation URL (default production). */
  verifactuQrBase?: string;
  jobs: Jobs;
  mailer: Mailer;
  clock?: () => Date;
  /** Sending VERI*FACTU records to the AEAT; unset: off. */
  verifactuAeat?: VerifactuAeatConfig;
  /** The software producer the records name; unset: the development values (refused by the AEAT). */
  verifactuProducer?: VerifactuProducerConfig;
};

/** Invoices: billing profiles, drafts, issuing with VERI*FACTU records, payments, rectifying invoices. */
export function wireInvoices(d: Deps) {
  const billing = new BillingProfiles(d.db);
  const invoices = new InvoicesService({ ...d, qrBase: d.verifactuQrBase ?? VERIFACTU_QR_BASE_URL });
  const drafts = new InvoiceDraftsService({ ...d, invoices, billing });
  const issuing = new InvoiceIssuing({ ...d, invoices, drafts, billing });
  const voiding = new InvoiceVoiding({ ...d, invoices });
  const checks = new BatchChecks({ ...d, drafts, issuing, billing });
  const batchIssuing = new BatchIssuing({ ...d, drafts, issuing });
  const batches = new InvoiceBatches(d.db, d.jobs, batchIssuing, d.sessions, d.patients, d.workspaces, checks);
  const auto = new AutoInvoices(d.db, d.jobs, drafts, issuing, d.workspaces, d.sessions);
  const software = softwareOf(d.verifactuProducer);
  const sending = wireVerifactuSending({ db: d.db, jobs: d.jobs, aeat: d.verifactuAeat, clock: d.clock, software });
  const register = (app: FastifyInstance) =>
    app
      .register(invoicesRoutes, {
        invoices,
        drafts,
        issuing,
        voiding,
        billing,
        invoiceExport: new InvoiceExport(d.db),
        verifactuExport: new VerifactuExport({ ...d, billing, software }),
      })
      .register(invoiceBatchesRoutes, { batches })
      .register(invoiceSettingsRoutes, { auto, series: new InvoiceSeries(d.db) })
      .register(feeBalanceRoutes, { sessions: d.sessions, users: d.users })
      .register(invoicePdfRoutes, { invoices, workspaces: d.workspaces, mailer: d.mailer })
      .register(verifactuStatusRoutes, { status: new VerifactuStatusService({ db: d.db, invoices, sending: !!sending }) });
  // What the module entry registers: the batches', automatic invoices' and (when configured) the AEAT sending's queues, its handler and sweep.
  const jobs = [batches.queue, auto.queue, ...(sending?.jobs ?? [])];
  return {
    invoices,
    drafts,
    issuing,
    voiding,
    billing,
    batches,
    auto,
    register,
    jobs,
    on: sending?.on ?? [],
    sweeps: sending?.sweeps ?? {},
  };
}
