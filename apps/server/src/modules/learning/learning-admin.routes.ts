import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import {
  IMAGE_MAX_BYTES,
  LEARNING_UPLOAD_MAX_BYTES,
  learningAdminListResponse,
  learningAdminPurchasesQuery,
  learningAdminPurchasesResponse,
  learningAdminVideo,
  learningPurchase,
  learningUploadBody,
  learningUploadState,
  learningVideoBody,
  learningVideoPatch,
} from '@divan/core';
import { AppError } from '../../platform/errors';
import { readUpload } from '../../platform/http/upload';
import type { LearningAdmin } from './learning-admin.service';
import type { LearningPurchases } from './learning-purchase.service';

const tags = ['learning-admin'];
const A = '/api/v1/learning/admin';
const videoParams = z.object({ videoId: z.uuid({ error: 'Vídeo no válido' }) });
const user = { access: 'user' as const };

/**
 * The upload tool's routes (issue 29): a signed-in account that is Diván's staff, with the upload token in
 * `X-Upload-Token` — refused to every workspace role, administrators and owners included.
 */
export async function learningAdminRoutes(app: FastifyInstance, d: { admin: LearningAdmin; purchases: LearningPurchases }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const uid = (req: FastifyRequest) => req.user!.id;
  const token = (req: FastifyRequest) => {
    const h = req.headers['x-upload-token'];
    return typeof h === 'string' ? h : undefined;
  };
  // Before the body is validated: a non-staff caller learns nothing of the fields.
  const staff = { preValidation: async (req: FastifyRequest) => d.admin.guard(uid(req), token(req)) };
  // A piece of a video arrives as it is: streamed to storage, counted on the way (never buffered here).
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));

  r.get(
    `${A}/access`,
    {
      config: user,
      schema: {
        operationId: 'learningAdminAccess',
        tags,
        description: 'Whether the caller is Diván staff (shows the upload tool) and the server has an upload token.',
        response: { 200: z.object({ staff: z.boolean(), uploadConfigured: z.boolean() }) },
      },
    },
    (req) => d.admin.access(uid(req)),
  );
  r.get(
    `${A}/videos`,
    { config: user, ...staff, schema: { operationId: 'listLearningAdminVideos', tags, response: { 200: learningAdminListResponse } } },
    () => d.admin.list(),
  );
  r.post(
    `${A}/videos`,
    {
      config: user,
      ...staff,
      schema: { operationId: 'createLearningVideo', tags, body: learningVideoBody, response: { 201: learningAdminVideo } },
    },
    async (req, reply) => reply.status(201).send(await d.admin.create(uid(req), req.body)),
  );
  r.patch(
    `${A}/videos/:videoId`,
    {
      config: user,
      ...staff,
      schema: {
        operationId: 'updateLearningVideo',
        tags,
        params: videoParams,
        body: learningVideoPatch,
        response: { 200: learningAdminVideo },
      },
    },
    (req) => d.admin.update(req.params.videoId, req.body),
  );
  r.post(
    `${A}/videos/:videoId/icon`,
    {
      config: user,
      ...staff,
      schema: {
        operationId: 'uploadLearningIcon',
        tags,
        params: videoParams,
        consumes: ['multipart/form-data'],
        response: { 200: learningAdminVideo },
      },
    },
    async (req) => {
      const { file } = await readUpload(req, { maxBytes: IMAGE_MAX_BYTES });
      if (!file) throw new AppError('unexpected_file');
      return d.admin.setIcon(req.params.videoId, uid(req), file.data);
    },
  );
  for (const [path, on] of [
    ['publish', true],
    ['unpublish', false],
  ] as const)
    r.post(
      `${A}/videos/:videoId/${path}`,
      {
        config: user,
        ...staff,
        schema: {
          operationId: on ? 'publishLearningVideo' : 'unpublishLearningVideo',
          tags,
          params: videoParams,
          response: { 200: learningAdminVideo },
        },
      },
      (req) => d.admin.publish(req.params.videoId, on),
    );
  r.post(
    `${A}/videos/:videoId/upload`,
    {
      config: user,
      ...staff,
      schema: {
        operationId: 'beginLearningUpload',
        tags,
        description: 'Begins (or resumes, same size) a file’s upload: where the next piece starts.',
        params: videoParams,
        body: learningUploadBody,
        response: { 200: learningUploadState },
      },
    },
    (req) => d.admin.beginUpload(req.params.videoId, req.body.size),
  );
  r.put(
    `${A}/videos/:videoId/upload`,
    {
      config: user,
      ...staff,
      schema: {
        operationId: 'putLearningUploadPiece',
        tags,
        description: 'The next piece of the file (application/octet-stream) at `offset`; the last one queues the transcoding.',
        params: videoParams,
        querystring: z.object({ offset: z.coerce.number().int().min(0).max(LEARNING_UPLOAD_MAX_BYTES) }),
        consumes: ['application/octet-stream'],
        response: { 200: learningUploadState },
      },
    },
    (req) => {
      if (req.headers['content-type'] !== 'application/octet-stream') throw new AppError('invalid_type');
      return d.admin.putChunk(req.params.videoId, req.query.offset, req.body as Readable);
    },
  );
  r.get(
    `${A}/purchases`,
    {
      config: user,
      ...staff,
      schema: {
        operationId: 'listLearningAdminPurchases',
        tags,
        description: 'The refunds screen: the latest paid and refunded purchases (≤ 100) with their buyer, or a buyer’s by email.',
        querystring: learningAdminPurchasesQuery,
        response: { 200: learningAdminPurchasesResponse },
      },
    },
    (req) => d.purchases.recent(req.query),
  );
  r.post(
    `${A}/purchases/:purchaseId/refund`,
    {
      config: user,
      ...staff,
      schema: {
        operationId: 'refundLearningPurchase',
        tags,
        description: 'The operator’s refund: the payment returned in full, the access ended.',
        params: z.object({ purchaseId: z.uuid() }),
        response: { 200: learningPurchase },
      },
    },
    (req) => d.purchases.refund(req.params.purchaseId),
  );
}
