import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invoiceIdParams, verifactuStatusResponse } from '@divan/core';
import { caller } from '../../../../platform/auth/caller';
import type { VerifactuStatusService } from './verifactu-status.service';

const tags = ['invoices'];

/** What became of an invoice's records at the AEAT, for its screen. */
export async function verifactuStatusRoutes(app: FastifyInstance, { status }: { status: VerifactuStatusService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/workspaces/:workspaceId/invoices/:invoiceId/verifactu-status',
    {
      config: { access: { workspace: ['read', 'invoices'] } },
      schema: {
        operationId: 'getInvoiceVerifactuStatus',
        tags,
        description: 'Whether the invoice’s VERI*FACTU records reached the AEAT: state, CSV, error, attempts.',
        params: invoiceIdParams,
        response: { 200: verifactuStatusResponse },
      },
    },
    (req) => status.of(caller(req), req.params.invoiceId),
  );
}
