import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  IMPORT_MAX_MB,
  importCommitBody,
  importIdParams,
  importStatusResponse,
  importUploadResponse,
  workspaceIdParams,
} from '@divan/core';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { readUpload } from '../../platform/http/upload';
import { caller } from '../../platform/auth/caller';
import type { PatientImportService } from './patient-import.service';

const tags = ['patient-import'];
const I = '/api/v1/workspaces/:workspaceId/patient-imports';

export async function patientImportRoutes(app: FastifyInstance, { imports }: { imports: PatientImportService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    I,
    {
      config: { access: { workspace: ['create', 'patient_files'] } },
      schema: {
        operationId: 'uploadPatientImport',
        tags,
        description: `Multipart: \`file\` (.xlsx, up to ${IMPORT_MAX_MB} MB). Answers the columns, a sample and a suggested mapping; the rows wait 30 minutes for the commit.`,
        consumes: ['multipart/form-data'],
        params: workspaceIdParams,
        response: { 201: importUploadResponse },
      },
    },
    async (req, reply) => {
      let upload;
      try {
        upload = await readUpload(req, { maxBytes: IMPORT_MAX_MB * 1024 * 1024 });
      } catch (err) {
        // The rest of a refused upload is never read: close the connection rather than leave it hanging.
        reply.header('connection', 'close');
        throw err;
      }
      if (!upload.file) throw new AppError('invalid_import_file');
      return reply.status(201).send(await imports.upload(caller(req), upload.file.data));
    },
  );
  r.post(
    `${I}/:importId/commit`,
    {
      config: { access: { workspace: ['create', 'patient_files'] } },
      schema: {
        operationId: 'commitPatientImport',
        tags,
        description: 'Validates and imports in the background; poll `GET …/patient-imports/:importId`.',
        params: importIdParams,
        body: importCommitBody,
        response: { 202: z.object({ importId: z.uuid() }) },
      },
    },
    async (req, reply) => reply.status(202).send(await imports.commit(caller(req), req.params.importId, req.body.mapping)),
  );
  r.get(
    `${I}/:importId`,
    {
      config: { access: { workspace: ['create', 'patient_files'] } },
      schema: { operationId: 'getPatientImport', tags, params: importIdParams, response: { 200: importStatusResponse } },
    },
    (req) => imports.status(caller(req), req.params.importId),
  );
}
