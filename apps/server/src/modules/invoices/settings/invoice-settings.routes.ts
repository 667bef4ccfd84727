import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invoiceSeriesCountersResponse, invoiceSettingsBody, invoiceSettingsResponse, workspaceIdParams } from '@divan/core';
import { caller } from '../../../platform/auth/caller';
import type { AutoInvoices } from '../auto/invoice-auto.service';
import type { InvoiceSeries } from './invoice-series.service';

const tags = ['invoices'];
const S = '/api/v1/workspaces/:workspaceId/invoice-settings';

/**
 * The caller's own invoicing settings in a workspace (automatic invoices when a session is completed), and
 * the series' counters the billing settings say the next number from (the caller's own, the workspace's).
 */
export async function invoiceSettingsRoutes(app: FastifyInstance, { auto, series }: { auto: AutoInvoices; series: InvoiceSeries }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/me/invoice-series',
    {
      config: { access: 'user' },
      schema: {
        operationId: 'getMyInvoiceSeries',
        tags,
        description: 'This year’s counters of the caller’s own series (the invoices they issue as themselves): the last number each gave.',
        response: { 200: invoiceSeriesCountersResponse },
      },
    },
    (req) => series.counters(`user:${req.user!.id}`),
  );
  r.get(
    '/api/v1/workspaces/:workspaceId/invoice-series',
    {
      config: { access: { workspace: ['read', 'workspace_billing'] } },
      schema: {
        operationId: 'getWorkspaceInvoiceSeries',
        tags,
        description: 'This year’s counters of the workspace’s series (the invoices it issues): the last number each gave.',
        params: workspaceIdParams,
        response: { 200: invoiceSeriesCountersResponse },
      },
    },
    (req) => series.counters(`workspace:${caller(req).member.workspaceId}`),
  );
  r.get(
    S,
    {
      config: { access: { workspace: ['read', 'invoices'] } },
      schema: {
        operationId: 'getMyInvoiceSettings',
        tags,
        description:
          'Whether the caller’s completed sessions are invoiced automatically, whether the plan allows it, and the latest sessions it could not invoice.',
        params: workspaceIdParams,
        response: { 200: invoiceSettingsResponse },
      },
    },
    (req) => auto.settings(caller(req)),
  );
  r.put(
    S,
    {
      config: { access: { workspace: ['create', 'invoices'] } },
      schema: {
        operationId: 'updateMyInvoiceSettings',
        tags,
        description: 'Turns automatic invoices on or off for the caller (Advance and Team plans).',
        params: workspaceIdParams,
        body: invoiceSettingsBody,
        response: { 200: invoiceSettingsResponse },
      },
    },
    (req) => auto.update(caller(req), req.body),
  );
}
