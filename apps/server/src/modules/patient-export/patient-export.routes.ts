import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { patientExportResponse, patientIdParams } from '@divan/core';
import { contentDisposition } from '../../platform/http/content-disposition';
import { caller } from '../../platform/auth/caller';
import type { RequestUser } from '../../platform/auth/access';
import type { PatientExportService } from './patient-export.service';

const tags = ['patients'];
const P = '/api/v1/workspaces/:workspaceId/patients/:patientId';

/** `stepUp`: a whole file leaving Diván is a sensitive action (issue 32): a second factor within the last 10 minutes. */
export async function patientExportRoutes(
  app: FastifyInstance,
  { exporter, stepUp }: { exporter: PatientExportService; stepUp: (user: RequestUser) => Promise<void> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    `${P}/export.json`,
    {
      config: { access: { workspace: ['read', 'patient_files'] } },
      schema: {
        operationId: 'exportPatientJson',
        tags,
        description: 'The full file as the caller may read it (private history entries never); sent as a download.',
        params: patientIdParams,
        response: { 200: patientExportResponse },
      },
    },
    async (req, reply) => {
      await stepUp(req.user!);
      const data = await exporter.json(caller(req), req.params.patientId);
      reply.header('content-disposition', contentDisposition(exporter.filename(data, 'json')));
      reply.header('cache-control', 'private, no-store');
      return data;
    },
  );
  r.get(
    `${P}/export.pdf`,
    {
      config: { access: { workspace: ['read', 'patient_files'] } },
      schema: {
        operationId: 'exportPatientPdf',
        tags,
        description: 'The same file as a printable A4 PDF in Spanish.',
        params: patientIdParams,
      },
    },
    async (req, reply) => {
      await stepUp(req.user!);
      const file = await exporter.pdf(caller(req), req.params.patientId);
      reply.header('content-disposition', contentDisposition(file.filename));
      reply.header('cache-control', 'private, no-store');
      return reply.type('application/pdf').send(file.stream);
    },
  );
}
