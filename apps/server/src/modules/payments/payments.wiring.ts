import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/database';
import type { EventBus } from '../../platform/events/event-bus';
import { handle } from '../../platform/modules/define-module';
import type { Jobs } from '../../platform/jobs/jobs';
import type { Mailer } from '../../platform/mail/mailer';
import type { PaymentsGateway } from '../../platform/payments/gateway';
import type { AutoInvoices } from '../invoices/auto/invoice-auto.service';
import type { InvoiceIssuing } from '../invoices/issuing/invoice-issuing.service';
import type { InvoiceDraftsService } from '../invoices/invoice-drafts.service';
import type { InvoicesService } from '../invoices/invoices.service';
import type { PatientsService } from '../patients/patients.service';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import { AutoCharges } from './auto-charge.service';
import { BookingPayments } from './booking-payments.service';
import { InvoiceCharging } from './invoice-charging.service';
import { InvoicePayLinks } from './invoice-pay-links.service';
import { InvoiceRefunds } from './invoice-refunds.service';
import { PaymentAccounts } from './payment-accounts.service';
import { paymentPublicRoutes } from './payment-public.routes';
import { PaymentWebhooks } from './webhooks/payment-webhooks.service';
import { PatientCards } from './patient-cards.service';
import { paymentsRoutes } from './payments.routes';
import { SessionPacks } from './packs/session-packs.service';
import { sessionPacksRoutes } from './packs/session-packs.routes';
import type { SessionInvoicing } from '../sessions/session-invoicing';

type Deps = {
  db: Db;
  gateway: PaymentsGateway;
  events: EventBus;
  jobs: Jobs;
  mailer: Mailer;
  log: FastifyBaseLogger;
  patients: PatientsService;
  users: UsersService;
  workspaces: WorkspacesService;
  invoices: InvoicesService;
  drafts: InvoiceDraftsService;
  issuing: InvoiceIssuing;
  auto: AutoInvoices;
  sessions: SessionInvoicing;
  publicUrl: string;
  perIpPerMinute: number;
  clock?: () => Date;
};

/** Card payments (issue 12): accounts, patients' cards, charging, pay-by-link, refunds, webhooks, the automatic charge. */
export function wirePayments(d: Deps) {
  const onSettled = (workspaceId: string, invoiceId: string, amountCents = 0) => {
    if (amountCents > 0) void d.events.emit('invoice.paid', { workspaceId, invoiceId, amountCents });
  };
  const accounts = new PaymentAccounts(d.db, d.gateway, d.publicUrl);
  const cards = new PatientCards({ ...d, accounts });
  const charging = new InvoiceCharging({ db: d.db, accounts, cards, invoices: d.invoices, onSettled });
  const payLinks = new InvoicePayLinks({ ...d, accounts, cards });
  const refunds = new InvoiceRefunds({ db: d.db, accounts, invoices: d.invoices, issuing: d.issuing, onSettled });
  const bookings = new BookingPayments(d.db, accounts, cards);
  const webhooks = new PaymentWebhooks({ db: d.db, gateway: d.gateway, accounts, cards, bookings, log: d.log, onSettled });
  const autoCharges = new AutoCharges({ ...d, charging });
  const packs = new SessionPacks({ ...d, refunds });
  // A canceled session gives its pack's session back (registered by the module entry).
  const on = [handle('session.canceled', 'once', (e) => packs.release(e.workspaceId, e.sessionId))];
  // The bank asked for authentication: the patient pays through a checkout, which handles 3-D Secure.
  charging.askToAuthenticate = async (inv) => {
    await payLinks
      .create(inv, true, null, 'Tu banco pide que confirmes este pago antes de cobrarlo.')
      .catch((err: unknown) => d.log.warn({ err, invoiceId: inv.id }, 'authentication link not sent'));
  };
  d.auto.onIssued(autoCharges.onAutoIssued);
  const register = (app: FastifyInstance) =>
    app
      .register(paymentsRoutes, { accounts, cards, charging, payLinks, refunds, users: d.users, workspaces: d.workspaces })
      .register(paymentPublicRoutes, { payLinks, webhooks, perIpPerMinute: d.perIpPerMinute })
      .register(sessionPacksRoutes, { packs });
  return { accounts, cards, charging, payLinks, refunds, webhooks, autoCharges, packs, bookings, register, on, jobs: [autoCharges.queue] };
}

/** What the payments module offers (`app.services.payments`). */
export type Payments = ReturnType<typeof wirePayments>;
