import { defineModule, handle } from '../../platform/modules/define-module';
import { createPaymentsGateway } from '../../platform/payments/create-gateway';
import type { SandboxGateway } from '../../platform/payments/sandbox/sandbox-gateway';
import { sandboxPagesRoutes } from '../../platform/payments/sandbox/sandbox-pages.routes';
import { AutoCharges } from './auto-charge.service';
import { BookingPayments } from './booking-payments.service';
import { InvoiceCharging } from './invoice-charging.service';
import { InvoicePayLinks } from './invoice-pay-links.service';
import { InvoiceRefunds } from './invoice-refunds.service';
import { sessionPacksRoutes } from './packs/session-packs.routes';
import { SessionPacks } from './packs/session-packs.service';
import { PatientCards } from './patient-cards.service';
import { PaymentAccounts } from './payment-accounts.service';
import { paymentPublicRoutes } from './payment-public.routes';
import { paymentsRoutes } from './payments.routes';
import { PaymentWebhooks } from './webhooks/payment-webhooks.service';

/** What the payments module offers (`app.services.payments`). */
export type Payments = {
  accounts: PaymentAccounts;
  cards: PatientCards;
  charging: InvoiceCharging;
  payLinks: InvoicePayLinks;
  refunds: InvoiceRefunds;
  webhooks: PaymentWebhooks;
  autoCharges: AutoCharges;
  packs: SessionPacks;
  bookings: BookingPayments;
};

declare module '../../platform/modules/define-module' {
  interface Provided {
    /** Card payments: accounts, cards, charging, pay links, refunds, webhooks, packs. */
    payments: Payments;
    /** The built-in provider when no Stripe keys are set (tests drive its hosted pages); null with Stripe. */
    paymentsSandbox: SandboxGateway | null;
    /** The port booking takes payments through (a paid booking's checkout, its refund). */
    bookingPayments: BookingPayments;
  }
}

/**
 * Card payments (issue 12), on Stripe or the built-in sandbox: accounts, patients' cards, charging,
 * pay-by-link, refunds, webhooks, the automatic charge, session packs. The sandbox delivers its signed
 * events to this module's webhook handler, as Stripe would over the network: both live here, so the
 * delivery is connected when the module is built, not by a later module.
 */
export const paymentsModule = defineModule({
  name: 'payments',
  needs: ['patients', 'users', 'workspaces', 'invoices', 'invoiceDrafts', 'invoiceIssuing', 'autoInvoices', 'sessionInvoicing'],
  build: (d, p) => {
    const { config, db, log } = p;
    const { publicUrl } = config;
    const { gateway, sandbox } = createPaymentsGateway({
      stripe: config.stripe,
      db,
      jobs: p.jobs,
      publicUrl,
      appSecret: config.appSecret,
      clock: p.clock,
    });
    const base = {
      db,
      jobs: p.jobs,
      mailer: p.mailer,
      log,
      patients: d.patients,
      users: d.users,
      workspaces: d.workspaces,
      invoices: d.invoices,
      drafts: d.invoiceDrafts,
      issuing: d.invoiceIssuing,
      sessions: d.sessionInvoicing,
      publicUrl,
      clock: p.clock,
    };
    const onSettled = async (workspaceId: string, invoiceId: string, amountCents = 0) => {
      if (amountCents > 0) await p.events.emit('invoice.paid', { workspaceId, invoiceId, amountCents });
    };
    const accounts = new PaymentAccounts(db, gateway, publicUrl);
    const cards = new PatientCards({ ...base, accounts });
    const charging = new InvoiceCharging({ db, accounts, cards, invoices: d.invoices, onSettled });
    const payLinks = new InvoicePayLinks({ ...base, accounts, cards });
    const refunds = new InvoiceRefunds({ db, accounts, invoices: d.invoices, issuing: d.invoiceIssuing, onSettled });
    const bookings = new BookingPayments(db, accounts, cards);
    const webhooks = new PaymentWebhooks({ db, gateway, accounts, cards, bookings, log, onSettled });
    const autoCharges = new AutoCharges({ ...base, charging });
    const packs = new SessionPacks({ ...base, refunds });
    // The bank asked for authentication: the patient pays through a checkout, which handles 3-D Secure.
    charging.askToAuthenticate = async (inv) => {
      await payLinks
        .create(inv, true, null, 'Tu banco pide que confirmes este pago antes de cobrarlo.')
        .catch((err: unknown) => log.warn({ err, invoiceId: inv.id }, 'authentication link not sent'));
    };
    d.autoInvoices.onIssued(autoCharges.onAutoIssued);
    sandbox?.deliverTo(async (raw, signature) => void (await webhooks.receive(raw, signature)));
    const payments: Payments = { accounts, cards, charging, payLinks, refunds, webhooks, autoCharges, packs, bookings };
    return {
      provides: { payments, paymentsSandbox: sandbox, bookingPayments: bookings },
      routes: async (app) => {
        await app
          .register(paymentsRoutes, { accounts, cards, charging, payLinks, refunds, users: d.users, workspaces: d.workspaces })
          .register(paymentPublicRoutes, { payLinks, webhooks, perIpPerMinute: config.rateLimit.perIpPerMinute })
          .register(sessionPacksRoutes, { packs });
        if (sandbox) await app.register(sandboxPagesRoutes, { sandbox });
      },
      jobs: [autoCharges.queue],
      // A canceled session gives its pack's session back.
      on: [handle('session.canceled', 'once', (e) => packs.release(e.workspaceId, e.sessionId))],
      sockets: ['invoice.paid'],
    };
  },
});
