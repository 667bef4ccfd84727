import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { patientExportResponse, patientIdParams } from '@divan/core';
import { contentDisposition } from '../../platform/http/content-disposition';
import { caller } from '../../platform/auth/caller';
import type { PatientExportService } from './patient-export.service';

const tags = ['patients'];
const P = '/api/v1/workspaces/:workspaceId/patients/:patientId';

export async function patientExportRoutes(app: FastifyInstance, { exporter }: { exporter: PatientExportService }) {
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
      const file = await exporter.pdf(caller(req), req.params.patientId);
      reply.header('content-disposition', contentDisposition(file.filename));
      reply.header('cache-control', 'private, no-store');
      return reply.type('application/pdf').send(file.stream);
    },
  );
}
