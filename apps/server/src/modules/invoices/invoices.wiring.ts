import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/database';
import type { EventBus } from '../../platform/events/event-bus';
import type { AuditService } from '../audit/audit.service';
import type { PatientsService } from '../patients/patients.service';
import type { SessionInvoicing } from '../sessions/session-invoicing';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { BillingProfiles } from './billing-profile';
import { InvoiceIssuing } from './invoice-issuing';
import { invoicesRoutes } from './invoices.routes';
import { InvoicesService } from './invoices.service';
import { VERIFACTU_QR_BASE_URL } from './verifactu/qr';

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
  clock?: () => Date;
};

/** Invoices: billing profiles, drafts, issuing with VERI*FACTU records, payments, rectifying invoices. */
export function wireInvoices(d: Deps) {
  const billing = new BillingProfiles(d.db);
  const invoices = new InvoicesService({ ...d, billing, qrBase: d.verifactuQrBase ?? VERIFACTU_QR_BASE_URL });
  const issuing = new InvoiceIssuing(invoices, d.events, d.clock);
  const register = (app: FastifyInstance) => app.register(invoicesRoutes, { invoices, issuing, billing });
  return { invoices, issuing, billing, register };
}
