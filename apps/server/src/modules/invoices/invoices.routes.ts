import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createInvoiceBody,
  DEFAULT_TIME_ZONE,
  todayIn,
  invoiceFromSessionsBody,
  invoiceExportQuery,
  invoiceIdParams,
  invoiceListQuery,
  invoiceListResponse,
  invoiceResponse,
  invoiceSeriesResponse,
  payInvoiceBody,
  rectifyInvoiceBody,
  therapistBillingBody,
  therapistBillingResponse,
  updateInvoiceBody,
  verifactuExportQuery,
  voidInvoiceBody,
  workspaceIdParams,
} from '@divan/core';
import { z } from 'zod';
import { caller } from '../../platform/auth/caller';
import type { BillingProfiles } from './settings/billing-profiles.service';
import type { InvoiceIssuing } from './issuing/invoice-issuing.service';
import type { InvoiceVoiding } from './issuing/invoice-voiding.service';
import type { InvoiceDraftsService } from './invoice-drafts.service';
import type { InvoicesService } from './invoices.service';
import type { VerifactuExport } from './verifactu/verifactu-export.service';
import type { InvoiceExport } from './invoice-export.service';

const tags = ['invoices'];
const I = '/api/v1/workspaces/:workspaceId/invoices';
const ONE = `${I}/:invoiceId`;

type Deps = {
  invoices: InvoicesService;
  drafts: InvoiceDraftsService;
  issuing: InvoiceIssuing;
  voiding: InvoiceVoiding;
  billing: BillingProfiles;
  invoiceExport: InvoiceExport;
  verifactuExport: VerifactuExport;
};

export async function invoicesRoutes(
  app: FastifyInstance,
  { invoices, drafts, issuing, voiding, billing, invoiceExport, verifactuExport }: Deps,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/v1/me/billing',
    { config: { access: 'user' }, schema: { operationId: 'getMyBilling', tags, response: { 200: therapistBillingResponse } } },
    (req) => billing.get(req.user!.id),
  );
  r.put(
    '/api/v1/me/billing',
    {
      config: { access: 'user' },
      schema: { operationId: 'updateMyBilling', tags, body: therapistBillingBody, response: { 200: therapistBillingResponse } },
    },
    (req) => billing.update(req.user!.id, req.body),
  );

  r.get(
    I,
    {
      config: { access: { workspace: ['read', 'invoices'] } },
      schema: {
        operationId: 'listInvoices',
        tags,
        description: 'Drafts first, then by issue date and number, newest first; with the count and sums of every match.',
        params: workspaceIdParams,
        querystring: invoiceListQuery,
        response: { 200: invoiceListResponse },
      },
    },
    (req) => invoices.list(caller(req), req.query),
  );
  r.post(
    I,
    {
      config: { access: { workspace: ['create', 'invoices'] } },
      schema: {
        operationId: 'createInvoice',
        tags,
        description: 'A draft: no number until it is issued.',
        params: workspaceIdParams,
        body: createInvoiceBody,
        response: { 201: invoiceResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await drafts.createDraft(caller(req), req.body)),
  );
  r.post(
    `${I}/from-sessions`,
    {
      config: { access: { workspace: ['create', 'invoices'] } },
      schema: {
        operationId: 'createInvoiceFromSessions',
        tags,
        description: 'A draft with one line per completed, not-yet-invoiced session of the patient (they become invoiced).',
        params: workspaceIdParams,
        body: invoiceFromSessionsBody,
        response: { 201: invoiceResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await drafts.fromSessions(caller(req), req.body.patientId, req.body.sessionIds)),
  );
  r.get(
    `${I}/verifactu`,
    {
      config: { access: { workspace: ['read', 'invoices'] } },
      schema: {
        operationId: 'exportVerifactuRecords',
        tags,
        description:
          "The VERI*FACTU records of one issuer (tax id) for a period, as the AEAT's RegFactuSistemaFacturacion XML (at most 1,000).",
        params: workspaceIdParams,
        querystring: verifactuExportQuery,
        response: { 200: z.string(), 204: z.null() },
      },
    },
    async (req, reply) => {
      const c = caller(req);
      const q = await verifactuExport.period(c, req.query);
      const out = q && (await verifactuExport.xml(c, q));
      // Nothing to export (no records of that issuer the member reads in the period, or no issuer at all).
      if (!q || !out) return reply.status(204).send(null);
      const { xml } = out;
      const name = `verifactu-${q.issuerTaxId.toUpperCase().replace(/[^0-9A-Z]/g, '')}-${q.from}-${q.to}.xml`;
      return reply.type('application/xml; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`).send(xml);
    },
  );
  r.get(
    `${I}/export`,
    {
      config: { access: { workspace: ['read', 'invoices'] } },
      schema: {
        operationId: 'exportInvoices',
        tags,
        description: 'The issued invoices matching the list filters, as xlsx (default) or CSV, for the accountant.',
        params: workspaceIdParams,
        querystring: invoiceExportQuery,
        response: { 200: z.string() },
      },
    },
    async (req, reply) => {
      const { format, ...filters } = req.query;
      const file = await invoiceExport.export(caller(req), filters, format);
      const day = todayIn(DEFAULT_TIME_ZONE);
      return reply
        .type(file.type)
        .header('content-disposition', `attachment; filename="facturas-${day}.${file.ext}"`)
        .send(file.body as never);
    },
  );
  r.get(
    `${I}/series`,
    {
      config: { access: { workspace: ['read', 'invoices'] } },
      schema: {
        operationId: 'listInvoiceSeries',
        tags,
        description: 'The series of the invoices the member reads (for the list filter), newest year first.',
        params: workspaceIdParams,
        response: { 200: invoiceSeriesResponse },
      },
    },
    (req) => invoices.series(caller(req)),
  );
  r.get(
    ONE,
    {
      config: { access: { workspace: ['read', 'invoices'] } },
      schema: { operationId: 'getInvoice', tags, params: invoiceIdParams, response: { 200: invoiceResponse } },
    },
    (req) => invoices.get(caller(req), req.params.invoiceId),
  );
  r.patch(
    ONE,
    {
      config: { access: { workspace: ['update', 'invoices'] } },
      schema: {
        operationId: 'updateInvoice',
        tags,
        description: 'Drafts only.',
        params: invoiceIdParams,
        body: updateInvoiceBody,
        response: { 200: invoiceResponse },
      },
    },
    (req) => drafts.updateDraft(caller(req), req.params.invoiceId, req.body),
  );
  r.delete(
    ONE,
    {
      config: { access: { workspace: ['delete', 'invoices'] } },
      schema: {
        operationId: 'deleteInvoice',
        tags,
        description: 'Drafts only: an issued invoice is corrected by a rectifying one.',
        params: invoiceIdParams,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      await drafts.deleteDraft(caller(req), req.params.invoiceId);
      return reply.status(204).send(null);
    },
  );
  r.post(
    `${ONE}/issue`,
    {
      config: { access: { workspace: ['update', 'invoices'] } },
      schema: { operationId: 'issueInvoice', tags, params: invoiceIdParams, response: { 200: invoiceResponse } },
    },
    (req) => issuing.issue(caller(req), req.params.invoiceId),
  );
  r.post(
    `${ONE}/payment`,
    {
      config: { access: { workspace: ['update', 'invoices'] } },
      schema: { operationId: 'payInvoice', tags, params: invoiceIdParams, body: payInvoiceBody, response: { 200: invoiceResponse } },
    },
    (req) => issuing.pay(caller(req), req.params.invoiceId, req.body),
  );
  r.post(
    `${ONE}/rectify`,
    {
      config: { access: { workspace: ['update', 'invoices'] } },
      schema: {
        operationId: 'rectifyInvoice',
        tags,
        description: 'Issues a rectifying invoice of this one.',
        params: invoiceIdParams,
        body: rectifyInvoiceBody,
        response: { 201: invoiceResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await issuing.rectify(caller(req), req.params.invoiceId, req.body)),
  );
  r.post(
    `${ONE}/void`,
    {
      config: { access: { workspace: ['update', 'invoices'] } },
      schema: {
        operationId: 'voidInvoice',
        tags,
        description:
          'Voids a wrongly issued invoice: a VERI*FACTU cancellation record (RegistroAnulacion) is chained, the invoice stays, marked voided, and its sessions can be invoiced again.',
        params: invoiceIdParams,
        body: voidInvoiceBody,
        response: { 200: invoiceResponse },
      },
    },
    (req) => voiding.void(caller(req), req.params.invoiceId, req.body.reason),
  );
}
