import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invoiceSettingsBody, invoiceSettingsResponse, workspaceIdParams } from '@divan/core';
import { caller } from '../patients/patients.routes';
import type { AutoInvoices } from './invoice-auto';

const tags = ['invoices'];
const S = '/api/v1/workspaces/:workspaceId/invoice-settings';

/** The caller's own invoicing settings in a workspace: automatic invoices when a session is completed. */
export async function invoiceSettingsRoutes(app: FastifyInstance, { auto }: { auto: AutoInvoices }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    S,
    {
      config: { access: { workspace: ['read', 'invoices'] } },
      schema: { operationId: 'getMyInvoiceSettings', tags, description: 'Whether the caller’s completed sessions are invoiced automatically, whether the plan allows it, and the latest sessions it could not invoice.', params: workspaceIdParams, response: { 200: invoiceSettingsResponse } },
    },
    (req) => auto.settings(caller(req)),
  );
  r.put(
    S,
    {
      config: { access: { workspace: ['create', 'invoices'] } },
      schema: { operationId: 'updateMyInvoiceSettings', tags, description: 'Turns automatic invoices on or off for the caller (Advance and Team plans).', params: workspaceIdParams, body: invoiceSettingsBody, response: { 200: invoiceSettingsResponse } },
    },
    (req) => auto.update(caller(req), req.body),
  );
}
