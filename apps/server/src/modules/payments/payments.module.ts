import { defineModule } from '../../platform/modules/define-module';
import { createPaymentsGateway } from '../../platform/payments/create-gateway';
import type { SandboxGateway } from '../../platform/payments/sandbox/sandbox-gateway';
import { sandboxPagesRoutes } from '../../platform/payments/sandbox/sandbox-pages.routes';
import type { BookingPayments } from './booking-payments.service';
import { wirePayments, type Payments } from './payments.wiring';

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
 * Card payments (issue 12), on Stripe or the built-in sandbox. The sandbox delivers its signed events
 * to this module's webhook handler, as Stripe would over the network: both live here, so the delivery
 * is connected when the module is built, not by a later module.
 */
export const paymentsModule = defineModule({
  name: 'payments',
  needs: ['patients', 'users', 'workspaces', 'invoices', 'invoiceDrafts', 'invoiceIssuing', 'autoInvoices', 'sessionInvoicing'],
  build: (d, p) => {
    const { config } = p;
    const { gateway, sandbox } = createPaymentsGateway({
      stripe: config.stripe,
      db: p.db,
      jobs: p.jobs,
      publicUrl: config.publicUrl,
      appSecret: config.appSecret,
      clock: p.clock,
    });
    const payments = wirePayments({
      db: p.db,
      gateway,
      events: p.events,
      jobs: p.jobs,
      mailer: p.mailer,
      log: p.log,
      patients: d.patients,
      users: d.users,
      workspaces: d.workspaces,
      invoices: d.invoices,
      drafts: d.invoiceDrafts,
      issuing: d.invoiceIssuing,
      auto: d.autoInvoices,
      sessions: d.sessionInvoicing,
      publicUrl: config.publicUrl,
      perIpPerMinute: config.rateLimit.perIpPerMinute,
      clock: p.clock,
    });
    sandbox?.deliverTo(async (raw, signature) => void (await payments.webhooks.receive(raw, signature)));
    return {
      provides: { payments, paymentsSandbox: sandbox, bookingPayments: payments.bookings },
      routes: async (app) => {
        await payments.register(app);
        if (sandbox) await app.register(sandboxPagesRoutes, { sandbox });
      },
      jobs: payments.jobs,
      on: payments.on,
      sockets: ['invoice.paid'],
    };
  },
});
