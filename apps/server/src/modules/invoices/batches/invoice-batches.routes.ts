import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  invoiceBatchBody,
  invoiceBatchIdParams,
  invoiceBatchPreviewResponse,
  invoiceBatchStatusResponse,
  workspaceIdParams,
} from '@divan/core';
import { caller } from '../../../platform/auth/caller';
import type { InvoiceBatches } from './invoice-batches.service';

const tags = ['invoices'];
const B = '/api/v1/workspaces/:workspaceId/invoice-batches';

export async function invoiceBatchesRoutes(app: FastifyInstance, { batches }: { batches: InvoiceBatches }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    `${B}/preview`,
    {
      config: { access: { workspace: ['create', 'invoices'] } },
      schema: {
        operationId: 'previewInvoiceBatch',
        tags,
        description:
          'What a batch would issue: one invoice per patient and therapist (Advance plan), each with its issuer and what issuing would refuse (the same checks, nothing written); issuers with incomplete billing data first.',
        params: workspaceIdParams,
        body: invoiceBatchBody,
        response: { 200: invoiceBatchPreviewResponse },
      },
    },
    (req) => batches.preview(caller(req), req.body),
  );
  r.post(
    B,
    {
      config: { access: { workspace: ['create', 'invoices'] } },
      schema: {
        operationId: 'createInvoiceBatch',
        tags,
        description:
          'Issues the batch in a job; poll it for its progress. Refused (invoice_batch_nothing_issuable) when issuing would refuse every invoice.',
        params: workspaceIdParams,
        body: invoiceBatchBody,
        response: { 202: invoiceBatchStatusResponse },
      },
    },
    async (req, reply) => reply.status(202).send(await batches.create(caller(req), req.body)),
  );
  r.get(
    `${B}/:batchId`,
    {
      config: { access: { workspace: ['read', 'invoices'] } },
      schema: {
        operationId: 'getInvoiceBatch',
        tags,
        description: 'A batch’s progress; a batch that issued nothing ends failed. Each error names its patient.',
        params: invoiceBatchIdParams,
        response: { 200: invoiceBatchStatusResponse },
      },
    },
    (req) => batches.get(caller(req), req.params.batchId),
  );
}
