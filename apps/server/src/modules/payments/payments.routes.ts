import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cardLinkBody,
  chargeInvoiceResponse,
  invoiceIdParams,
  invoicePaymentsResponse,
  patientIdParams,
  patientPaymentMethodResponse,
  payLinkBody,
  paymentAccountResponse,
  paymentLinkResponse,
  paymentUrlResponse,
  refundInvoiceBody,
  refundInvoiceResponse,
  updatePaymentMethodBody,
  workspaceIdParams,
} from '@divan/core';
import type { Access } from '../../platform/auth/access';
import { caller } from '../../platform/auth/caller';
import type { UsersService } from '../users/users.service';
import type { WorkspacesService } from '../workspaces/workspaces.service';
import type { InvoiceCharging } from './invoice-charging.service';
import type { InvoicePayLinks } from './invoice-pay-links.service';
import type { InvoiceRefunds } from './invoice-refunds.service';
import type { Holder, PaymentAccounts } from './payment-accounts.service';
import type { PatientCards } from './patient-cards.service';

const tags = ['payments'];
type Deps = {
  accounts: PaymentAccounts;
  cards: PatientCards;
  charging: InvoiceCharging;
  payLinks: InvoicePayLinks;
  refunds: InvoiceRefunds;
  users: UsersService;
  workspaces: WorkspacesService;
};

/** The member's routes: payment accounts (their own and the workspace's), the patient's card, and an invoice's payments. */
export async function paymentsRoutes(app: FastifyInstance, d: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // The therapist's own account and the workspace's: the same five routes under two prefixes.
  const accountRoutes = (
    prefix: string,
    holder: (req: FastifyRequest) => Holder,
    read: Access,
    write: Access,
    params?: typeof workspaceIdParams,
    name = 'My',
  ) => {
    const who = async (req: FastifyRequest) => {
      const h = holder(req);
      if (h.kind === 'therapist') {
        const u = await d.users.findById(h.userId);
        return { email: u?.email ?? null, businessName: u ? [u.firstName, u.lastName].filter(Boolean).join(' ') : null };
      }
      const info = await d.workspaces.billingInfo(h.workspaceId);
      return { email: null, businessName: info.fullName ?? (await d.workspaces.nameOf(h.workspaceId)) };
    };
    const p = params ? { params } : {};
    r.get(
      prefix,
      {
        config: { access: read },
        schema: { operationId: `get${name}PaymentAccount`, tags, ...p, response: { 200: paymentAccountResponse } },
      },
      (req) => d.accounts.get(holder(req)),
    );
    r.post(
      prefix,
      {
        config: { access: write },
        schema: {
          operationId: `connect${name}PaymentAccount`,
          tags,
          description: 'Creates the Stripe Express account (once).',
          ...p,
          response: { 201: paymentAccountResponse },
        },
      },
      async (req, reply) => reply.status(201).send(await d.accounts.connect(holder(req), await who(req))),
    );
    r.post(
      `${prefix}/onboarding-link`,
      {
        config: { access: write },
        schema: { operationId: `${name.toLowerCase()}PaymentOnboardingLink`, tags, ...p, response: { 200: paymentUrlResponse } },
      },
      (req) => d.accounts.onboardingLink(holder(req)),
    );
    r.post(
      `${prefix}/dashboard-link`,
      {
        config: { access: read },
        schema: { operationId: `${name.toLowerCase()}PaymentDashboardLink`, tags, ...p, response: { 200: paymentUrlResponse } },
      },
      (req) => d.accounts.dashboardLink(holder(req)),
    );
    r.post(
      `${prefix}/sync`,
      {
        config: { access: read },
        schema: {
          operationId: `sync${name}PaymentAccount`,
          tags,
          description: "Reads the account's state from the provider now.",
          ...p,
          response: { 200: paymentAccountResponse },
        },
      },
      (req) => d.accounts.sync(holder(req)),
    );
  };
  accountRoutes('/api/v1/me/payment-account', (req) => ({ kind: 'therapist', userId: req.user!.id }), 'user', 'user');
  accountRoutes(
    '/api/v1/workspaces/:workspaceId/payment-account',
    (req) => ({ kind: 'workspace', workspaceId: (req.params as { workspaceId: string }).workspaceId }),
    { workspace: ['read', 'workspace_billing'] },
    { workspace: ['update', 'workspace_billing'] },
    workspaceIdParams,
    'Workspace',
  );

  const PM = '/api/v1/workspaces/:workspaceId/patients/:patientId/payment-method';
  r.get(
    PM,
    {
      config: { access: { workspace: ['read', 'patient_billing'] } },
      schema: { operationId: 'getPatientPaymentMethod', tags, params: patientIdParams, response: { 200: patientPaymentMethodResponse } },
    },
    (req) => d.cards.get(caller(req), req.params.patientId),
  );
  r.put(
    PM,
    {
      config: { access: { workspace: ['update', 'patient_billing'] } },
      schema: {
        operationId: 'updatePatientPaymentMethod',
        tags,
        description: '«Cobros automáticos» on or off.',
        params: patientIdParams,
        body: updatePaymentMethodBody,
        response: { 200: patientPaymentMethodResponse },
      },
    },
    (req) => d.cards.setAutoCharge(caller(req), req.params.patientId, req.body.autoCharge),
  );
  r.delete(
    PM,
    {
      config: { access: { workspace: ['update', 'patient_billing'] } },
      schema: { operationId: 'removePatientPaymentMethod', tags, params: patientIdParams, response: { 200: patientPaymentMethodResponse } },
    },
    (req) => d.cards.remove(caller(req), req.params.patientId),
  );
  r.post(
    `${PM}/link`,
    {
      config: { access: { workspace: ['update', 'patient_billing'] } },
      schema: {
        operationId: 'createCardLink',
        tags,
        description: "A link for the patient to save a card on their therapist's account; mailed unless `send` is false.",
        params: patientIdParams,
        body: cardLinkBody,
        response: { 201: paymentLinkResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await d.cards.link(caller(req), req.params.patientId, req.body.send)),
  );

  const ONE = '/api/v1/workspaces/:workspaceId/invoices/:invoiceId';
  r.get(
    `${ONE}/payments`,
    {
      config: { access: { workspace: ['read', 'invoices'] } },
      schema: { operationId: 'getInvoicePayments', tags, params: invoiceIdParams, response: { 200: invoicePaymentsResponse } },
    },
    (req) => d.charging.payments(caller(req), req.params.invoiceId, d.payLinks),
  );
  r.post(
    `${ONE}/charge`,
    {
      config: { access: { workspace: ['update', 'invoices'] } },
      schema: {
        operationId: 'chargeInvoice',
        tags,
        description: "Charges the patient's saved card, off-session (spec §5 says when it cannot).",
        params: invoiceIdParams,
        response: { 200: chargeInvoiceResponse },
      },
    },
    (req) => d.charging.charge(caller(req), req.params.invoiceId),
  );
  r.post(
    `${ONE}/pay-link`,
    {
      config: { access: { workspace: ['update', 'invoices'] } },
      schema: {
        operationId: 'createInvoicePayLink',
        tags,
        description: 'A link to pay the invoice by card; mailed to its buyer unless `send` is false.',
        params: invoiceIdParams,
        body: payLinkBody,
        response: { 201: paymentLinkResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await d.payLinks.send(caller(req), req.params.invoiceId, req.body.send)),
  );
  r.post(
    `${ONE}/refund`,
    {
      config: { access: { workspace: ['update', 'invoices'] } },
      schema: {
        operationId: 'refundInvoice',
        tags,
        description: 'Refunds a card payment (whole or partial) and issues the rectifying invoice for it.',
        params: invoiceIdParams,
        body: refundInvoiceBody,
        response: { 200: refundInvoiceResponse },
      },
    },
    (req) => d.refunds.refund(caller(req), req.params.invoiceId, req.body),
  );
}
