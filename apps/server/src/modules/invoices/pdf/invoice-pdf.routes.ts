import { invoiceErrorMessages } from '@divan/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../../platform/errors';
import { contentDisposition } from '../../../platform/http/content-disposition';
import type { Mailer } from '../../../platform/mail/mailer';
import { caller } from '../../../platform/auth/caller';
import type { WorkspacesService } from '../../workspaces/workspaces.service';
import type { InvoicesService } from '../invoices.service';
import { invoiceMail } from './invoice-mail';
import { renderInvoicePdf } from './invoice-pdf';
import { invoiceFilename } from './invoice-pdf-format';
import { invoicePdfParams, invoicePdfResponse, sendInvoiceBody, sendInvoiceResponse, type SendInvoiceResult } from './invoice-pdf.schemas';

const tags = ['invoices'];
const ONE = '/api/v1/workspaces/:workspaceId/invoices/:invoiceId';

export type InvoicePdfDeps = {
  invoices: InvoicesService;
  /** The workspace's name printed on the PDF and shown as the mail's sender. */
  workspaces?: Pick<WorkspacesService, 'nameOf'>;
  /** The outbox the PDF is mailed through. */
  mailer: Pick<Mailer, 'send'>;
};

/** The invoice as a PDF download, and mailed to its buyer with the PDF attached. */
export async function invoicePdfRoutes(app: FastifyInstance, { invoices, workspaces, mailer }: InvoicePdfDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const workspaceName = async (workspaceId: string) => (await workspaces?.nameOf(workspaceId)) ?? undefined;

  r.get(
    `${ONE}/pdf`,
    {
      config: { access: { workspace: ['read', 'invoices'] } },
      schema: {
        operationId: 'getInvoicePdf',
        tags,
        description: 'The invoice as a printable A4 PDF in Spanish (a draft is watermarked «BORRADOR» and has no QR), sent as a download.',
        params: invoicePdfParams,
        produces: ['application/pdf'],
        response: { 200: invoicePdfResponse },
      },
    },
    async (req, reply) => {
      const invoice = await invoices.get(caller(req), req.params.invoiceId);
      const pdf = await renderInvoicePdf(invoice, { workspaceName: await workspaceName(req.params.workspaceId) });
      reply.header('content-disposition', contentDisposition(invoiceFilename(invoice)));
      reply.header('cache-control', 'private, no-store');
      // Bytes, not the JSON the schema types: a Buffer is sent as it is, never serialised.
      return reply.type('application/pdf').send(pdf as never);
    },
  );

  r.post(
    `${ONE}/send`,
    {
      config: { access: { workspace: ['update', 'invoices'] } },
      schema: {
        operationId: 'sendInvoice',
        tags,
        description:
          "Mails the issued invoice's PDF to `email`, by default the buyer's email (through the outbox: relayed, retried, never sent twice).",
        params: invoicePdfParams,
        body: sendInvoiceBody,
        response: { 200: sendInvoiceResponse },
      },
    },
    async (req): Promise<SendInvoiceResult> => {
      const c = caller(req);
      const invoice = await invoices.present(c, await invoices.accessible(c, req.params.invoiceId, 'update'));
      if (invoice.status !== 'issued') throw new AppError('invoice_not_issued', undefined, invoiceErrorMessages.sendNotIssued);
      const to = (req.body?.email ?? invoice.buyer?.email ?? '').trim();
      if (!to) {
        const message = 'El cliente de esta factura no tiene email: indica a qué dirección enviarla.';
        throw new AppError('invalid_argument', [{ path: 'email', message }], message);
      }
      const name = await workspaceName(req.params.workspaceId);
      const sellerName = invoice.seller?.fullName?.trim() || name || invoice.therapist.name;
      const pdf = await renderInvoicePdf(invoice, { workspaceName: name });
      const filename = invoiceFilename(invoice);
      const mail = invoiceMail({ to, invoice, sellerName, brand: { name: sellerName }, pdf, filename });
      const sent = await mailer.send(mail, { purpose: 'invoice', workspaceId: req.params.workspaceId });
      return { mailId: sent?.id ?? null, to, filename };
    },
  );
}
