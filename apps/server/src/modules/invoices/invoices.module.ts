import { defineModule } from '../../platform/modules/define-module';
import type { AutoInvoices } from './auto/invoice-auto.service';
import type { InvoiceIssuing } from './issuing/invoice-issuing.service';
import type { InvoicesService } from './invoices.service';
import { wireInvoices } from './invoices.wiring';

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Drafts, the buyer and seller, access to an invoice, its PDF. */
    invoices: InvoicesService;
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
    const { invoices, issuing, auto, register, jobs, on, sweeps } = wireInvoices({
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
    return { provides: { invoices, invoiceIssuing: issuing, autoInvoices: auto }, routes: register, jobs, on, sweeps };
  },
});
