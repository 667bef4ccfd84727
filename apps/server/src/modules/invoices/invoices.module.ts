import { defineModule } from '../../platform/modules/define-module';
import type { AutoInvoices } from './auto/invoice-auto.service';
import type { InvoiceIssuing } from './issuing/invoice-issuing.service';
import type { InvoiceDraftsService } from './invoice-drafts.service';
import type { InvoicesService } from './invoices.service';
import { wireInvoices } from './invoices.wiring';

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
  }
}

/** Invoices: billing profiles, drafts, issuing with VERI*FACTU records and sending them to the AEAT, batches, rectifying invoices. */
export const invoicesModule = defineModule({
  name: 'invoices',
  needs: ['audit', 'patients', 'users', 'workspaces', 'sessionInvoicing'],
  build: (d, p) => {
    const { invoices, drafts, issuing, auto, register, jobs, on, sweeps } = wireInvoices({
      db: p.db,
      events: p.events,
      jobs: p.jobs,
      mailer: p.mailer,
      audit: d.audit,
      patients: d.patients,
      users: d.users,
      workspaces: d.workspaces,
      sessions: d.sessionInvoicing,
      clock: p.clock,
      verifactuAeat: p.config.verifactuAeat,
      verifactuProducer: p.config.verifactuProducer,
    });
    return {
      provides: { invoices, invoiceDrafts: drafts, invoiceIssuing: issuing, autoInvoices: auto },
      routes: register,
      jobs,
      on,
      sweeps,
    };
  },
});
