import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { billingDetailsBody, billingDetailsResponse, divanInvoicesResponse, workspaceIdParams } from '@divan/core';
import { caller } from '../../platform/auth/caller';
import { contentDisposition } from '../../platform/http/content-disposition';
import type { BillingDetailsService } from './billing-details.service';

const tags = ['billing'];
const W = '/api/v1/workspaces/:workspaceId/billing';
// The owner or a role with workspace billing: the same as changing the plan (a member sees the plan only).
const manage = { access: { workspace: ['update', 'workspace_billing'] as ['update', 'workspace_billing'] } };

/** Ajustes › Pagos: the workspace's billing data for Diván, and Diván's invoices to it. */
export async function billingDetailsRoutes(app: FastifyInstance, { details }: { details: BillingDetailsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    `${W}/details`,
    {
      config: manage,
      schema: {
        operationId: 'getBillingDetails',
        tags,
        description: 'Whom Diván invoices for the plan, and how those invoices are taxed (21 % IVA, or not subject with its legend).',
        params: workspaceIdParams,
        response: { 200: billingDetailsResponse },
      },
    },
    (req) => details.get(caller(req).member),
  );
  r.put(
    `${W}/details`,
    {
      config: manage,
      schema: {
        operationId: 'saveBillingDetails',
        tags,
        description:
          'Saves the billing data (a valid NIF in Spain, an EU VAT id of the country elsewhere in the EU); a live plan’s tax follows from its next invoice.',
        params: workspaceIdParams,
        body: billingDetailsBody,
        response: { 200: billingDetailsResponse },
      },
    },
    (req) => details.put(caller(req).member, caller(req).userId, req.body),
  );
  r.get(
    `${W}/invoices`,
    {
      config: manage,
      schema: {
        operationId: 'listDivanInvoices',
        tags,
        description: 'Diván’s invoices to the workspace, one per paid charge of the plan, newest first.',
        params: workspaceIdParams,
        response: { 200: divanInvoicesResponse },
      },
    },
    (req) => details.invoices(caller(req).member),
  );
  r.get(
    `${W}/invoices/:divanInvoiceId/pdf`,
    {
      config: manage,
      schema: {
        operationId: 'getDivanInvoicePdf',
        tags,
        description: 'One of Diván’s invoices to the workspace as a PDF download.',
        params: workspaceIdParams.extend({ divanInvoiceId: z.uuid({ error: 'Factura no válida' }) }),
        produces: ['application/pdf'],
        response: { 200: z.string().describe('La factura de Diván (application/pdf), como descarga.') },
      },
    },
    async (req, reply) => {
      const { pdf, filename } = await details.pdf(caller(req).member, req.params.divanInvoiceId);
      reply.header('content-disposition', contentDisposition(filename));
      reply.header('cache-control', 'private, no-store');
      return reply.type('application/pdf').send(pdf as never);
    },
  );
}
