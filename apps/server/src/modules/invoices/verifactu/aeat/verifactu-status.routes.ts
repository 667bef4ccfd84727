import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invoiceIdParams, verifactuStatusResponse, type VerifactuStatus } from '@divan/core';
import type { VerifactuAeatConfig } from '../../../../platform/config';
import type { Db } from '../../../../platform/db/database';
import type { EventBus } from '../../../../platform/events/event-bus';
import type { Jobs } from '../../../../platform/jobs/jobs';
import { caller } from '../../../../platform/auth/caller';
import type { InvoicesService } from '../../invoices.service';
import { AeatSoapSender, type VerifactuSender } from './sender';
import { submissionsOfInvoice } from './submissions.repository';
import { VerifactuSending } from './verifactu-sending.service';
import type { SoftwareInfo } from '../types';

const tags = ['invoices'];

/**
 * Sending to the AEAT, when configured: the queue, the job queued after each issued invoice, and the
 * hourly catch-up. Unconfigured: nothing is defined, queued or sent (`undefined`).
 */
export function wireVerifactuSending(d: {
  db: Db;
  jobs: Jobs;
  events: EventBus;
  aeat?: VerifactuAeatConfig;
  sender?: VerifactuSender;
  clock?: () => Date;
  software?: SoftwareInfo;
}) {
  if (!d.aeat && !d.sender) return undefined;
  const sender = d.sender ?? new AeatSoapSender({ url: d.aeat!.url, tls: d.aeat!.tls });
  const sending = new VerifactuSending({ db: d.db, jobs: d.jobs, sender, now: d.clock, software: d.software });
  sending.define();
  d.events.on('invoice.issued', (e) => sending.onIssued(e.invoiceId), { scope: 'once' });
  d.jobs.sweep('verifactu.catch-up', () => sending.catchUp());
  return sending;
}

/** What became of an invoice's records at the AEAT, for its screen. */
export async function verifactuStatusRoutes(app: FastifyInstance, { invoices, sending }: { invoices: InvoicesService; sending: boolean }) {
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
    async (req): Promise<VerifactuStatus> => {
      const c = caller(req);
      const invoice = await invoices.accessible(c, req.params.invoiceId, 'read');
      const rows = await submissionsOfInvoice(invoices.d.db, c.member.workspaceId, invoice.id);
      return {
        sending,
        records: rows.map(({ record, submission: s }) => ({
          kind: record.recordType,
          number: record.invoiceNumber,
          issueDate: record.issueDate,
          state: s?.state ?? 'pending',
          csv: s?.csv ?? null,
          errorCode: s?.errorCode ?? null,
          errorDescription: s?.errorDescription ?? null,
          attempts: s?.attempts ?? 0,
          lastAttemptAt: s?.lastAttemptAt?.toISOString() ?? null,
          nextAttemptAt: s?.nextAttemptAt?.toISOString() ?? null,
        })),
      };
    },
  );
}
