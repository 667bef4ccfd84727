import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DOCUMENT_MAX_BYTES,
  documentIdParams,
  documentResponse,
  documentTagResponse,
  documentTagsQuery,
  msg,
  patientIdParams,
  shareDocumentBody,
  updateDocumentBody,
  workspaceIdParams,
} from '@divan/core';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { streamUpload } from '../../platform/http/upload';
import { contentDisposition } from '../../platform/http/content-disposition';
import { caller } from '../../platform/auth/caller';
import type { DocumentsService } from './documents.service';

const tags = ['documents'];
const W = '/api/v1/workspaces/:workspaceId';
const D = `${W}/patients/:patientId/documents`;

export async function documentsRoutes(app: FastifyInstance, { documents }: { documents: DocumentsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    D,
    {
      config: { access: { workspace: ['read', 'patient_documents'] } },
      schema: { operationId: 'listDocuments', tags, params: patientIdParams, response: { 200: z.array(documentResponse) } },
    },
    (req) => documents.list(caller(req), req.params.patientId),
  );
  r.post(
    D,
    {
      config: { access: { workspace: ['create', 'patient_documents'] } },
      schema: {
        operationId: 'uploadDocument',
        tags,
        description:
          'Multipart: optional `tags` (JSON array or comma-separated, sent before the file), then `file`. The type is read from the content (PDF, PNG, JPEG, WebP, GIF, DOCX, XLSX, ODT, UTF-8 text); 413 `document_too_large` past the limit.',
        consumes: ['multipart/form-data'],
        params: patientIdParams,
        response: { 201: documentResponse },
      },
    },
    async (req, reply) => {
      try {
        // One byte past the limit, so the service sees (and reports) the overflow itself.
        const part = await streamUpload(req, { maxBytes: DOCUMENT_MAX_BYTES + 1 });
        if (!part) throw new AppError('invalid_argument', [{ path: 'file', message: msg.required('archivo') }], msg.required('archivo'));
        const doc = await documents.upload(caller(req), req.params.patientId, {
          filename: part.filename,
          stream: part.stream,
          truncated: part.truncated,
          tags: part.fields.tags,
        });
        return reply.status(201).send(doc);
      } catch (err) {
        // The rest of a refused upload is never read: close the connection rather than leave it hanging.
        reply.header('connection', 'close');
        throw err;
      }
    },
  );
  r.patch(
    `${D}/:documentId`,
    {
      config: { access: { workspace: ['update', 'patient_documents'] } },
      schema: {
        operationId: 'updateDocument',
        tags,
        description: 'Rename and/or replace the tags.',
        params: documentIdParams,
        body: updateDocumentBody,
        response: { 200: documentResponse },
      },
    },
    (req) => documents.update(caller(req), req.params.patientId, req.params.documentId, req.body),
  );
  r.put(
    `${D}/:documentId/sharing`,
    {
      config: { access: { workspace: ['update', 'patient_documents'] } },
      schema: {
        operationId: 'shareDocument',
        tags,
        params: documentIdParams,
        body: shareDocumentBody,
        response: { 200: documentResponse },
      },
    },
    (req) => documents.share(caller(req), req.params.patientId, req.params.documentId, req.body.shared),
  );
  r.get(
    `${D}/:documentId/download`,
    {
      config: { access: { workspace: ['read', 'patient_documents'] } },
      schema: {
        operationId: 'downloadDocument',
        tags,
        description: 'The original bytes, decrypted as they stream. `disposition=inline` to show it in the browser.',
        params: documentIdParams,
        querystring: z.object({ disposition: z.enum(['attachment', 'inline']).default('attachment') }),
      },
    },
    async (req, reply) => {
      const file = await documents.download(caller(req), req.params.patientId, req.params.documentId);
      reply.header('content-disposition', contentDisposition(file.name, req.query.disposition));
      reply.header('content-length', file.size);
      reply.header('cache-control', 'private, no-store');
      reply.header('x-content-type-options', 'nosniff');
      return reply.type(file.contentType).send(file.stream);
    },
  );
  r.delete(
    `${D}/:documentId`,
    {
      config: { access: { workspace: ['delete', 'patient_documents'] } },
      schema: { operationId: 'deleteDocument', tags, params: documentIdParams, response: { 204: z.null() } },
    },
    async (req, reply) => {
      await documents.delete(caller(req), req.params.patientId, req.params.documentId);
      return reply.status(204).send(null);
    },
  );
  r.get(
    `${W}/document-tags`,
    {
      config: { access: { workspace: ['read', 'patient_documents'] } },
      schema: {
        operationId: 'listDocumentTags',
        tags,
        description: 'The workspace’s tags, for autocomplete.',
        params: workspaceIdParams,
        querystring: documentTagsQuery,
        response: { 200: z.array(documentTagResponse) },
      },
    },
    (req) => documents.tags(req.params.workspaceId, req.query.q),
  );
}
