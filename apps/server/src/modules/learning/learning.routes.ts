import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  learningListQuery,
  learningListResponse,
  learningMediaResponse,
  learningProgressBody,
  learningProgressResponse,
  learningPurchaseResponse,
  learningPurchasesResponse,
  learningShortListResponse,
  learningVideoQuery,
  learningVideoResponse,
  workspaceIdParams,
} from '@divan/core';
import { caller } from '../../platform/auth/caller';
import { AppError } from '../../platform/errors';
import type { Storage } from '../../platform/storage/storage';
import { sendMedia, type MediaLinks } from './learning-media';
import type { LearningPurchases } from './learning-purchase.service';
import type { LearningService } from './learning.service';

const tags = ['learning'];
const L = '/api/v1/learning';
const videoParams = z.object({ videoId: z.uuid({ error: 'Vídeo no válido' }) });
const user = { access: 'user' as const };

/** The training library as therapists read it (issue 29): the catalogue, a video, its media, progress, favourites, purchases. */
export async function learningRoutes(
  app: FastifyInstance,
  d: { learning: LearningService; purchases: LearningPurchases; links: MediaLinks; storage: Storage; publicUrl: string; clock: () => Date },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const uid = (req: { user?: { id: string } }) => req.user!.id;
  const base = d.publicUrl.replace(/\/+$/, '');

  r.get(
    `${L}/videos`,
    {
      config: user,
      schema: { operationId: 'listLearningVideos', tags, querystring: learningListQuery, response: { 200: learningListResponse } },
    },
    (req) => d.learning.list(uid(req), req.query),
  );
  r.get(
    `${L}/popular`,
    {
      config: user,
      schema: {
        operationId: 'popularLearningVideos',
        tags,
        description: 'Bought or finished most in the last 30 days (≤ 8).',
        response: { 200: learningShortListResponse },
      },
    },
    (req) => d.learning.popular(uid(req)),
  );
  r.get(
    `${L}/continue`,
    {
      config: user,
      schema: {
        operationId: 'continueLearningVideos',
        tags,
        description: 'The caller’s videos in progress, latest first (≤ 6).',
        response: { 200: learningShortListResponse },
      },
    },
    (req) => d.learning.continueWatching(uid(req)),
  );
  r.get(
    `${L}/videos/:videoId`,
    {
      config: user,
      schema: {
        operationId: 'getLearningVideo',
        tags,
        description: 'A video; with `workspaceId`, what buying it would charge that workspace by its billing data (`charge`).',
        params: videoParams,
        querystring: learningVideoQuery,
        response: { 200: learningVideoResponse },
      },
    },
    async (req) => {
      const video = await d.learning.video(uid(req), req.params.videoId);
      const wid = req.query.workspaceId;
      return wid ? { ...video, charge: await d.purchases.chargeFor(uid(req), wid, video.priceCents) } : video;
    },
  );
  r.get(
    `${L}/videos/:videoId/media`,
    {
      config: user,
      schema: {
        operationId: 'getLearningMedia',
        tags,
        description: 'Signed links for the player: the preview for everyone, the full video for buyers only (expires).',
        params: videoParams,
        response: { 200: learningMediaResponse },
      },
    },
    (req) => d.learning.media(uid(req), req.params.videoId, base),
  );
  r.put(
    `${L}/videos/:videoId/progress`,
    {
      config: user,
      schema: {
        operationId: 'saveLearningProgress',
        tags,
        params: videoParams,
        body: learningProgressBody,
        response: { 200: learningProgressResponse },
      },
    },
    (req) => d.learning.saveProgress(uid(req), req.params.videoId, req.body),
  );
  for (const [method, on] of [
    ['post', true],
    ['delete', false],
  ] as const)
    r[method](
      `${L}/videos/:videoId/bookmark`,
      {
        config: user,
        schema: {
          operationId: on ? 'bookmarkLearningVideo' : 'unbookmarkLearningVideo',
          tags,
          params: videoParams,
          response: { 204: z.null() },
        },
      },
      async (req, reply) => {
        await d.learning.bookmark(uid(req), req.params.videoId, on);
        return reply.status(204).send(null);
      },
    );
  r.get(
    `${L}/purchases`,
    { config: user, schema: { operationId: 'listLearningPurchases', tags, response: { 200: learningPurchasesResponse } } },
    (req) => d.learning.purchases(uid(req)),
  );
  r.post(
    `/api/v1/workspaces/:workspaceId/learning/videos/:videoId/purchase`,
    {
      config: { access: { workspace: ['update', 'workspace_billing'] } },
      schema: {
        operationId: 'purchaseLearningVideo',
        tags,
        description:
          '«Continuar y pagar»: the workspace’s saved card charged off-session, Diván’s invoice with IVA; or the provider’s page when the bank asks for authentication.',
        params: workspaceIdParams.extend(videoParams.shape),
        response: { 200: learningPurchaseResponse },
      },
    },
    (req) => d.purchases.purchase(caller(req).member, caller(req).userId, req.params.videoId),
  );

  // The player's bytes: a signed link is the credential (<video src> sends no token).
  r.get(
    `${L}/media`,
    {
      config: { access: 'public' },
      schema: {
        operationId: 'getLearningMediaBytes',
        tags,
        description:
          'A rendition’s bytes by signed link, with HTTP range requests; 403 for a bad or expired link, or a full video without its purchase.',
        querystring: z.object({ token: z.string().max(2_000) }),
      },
    },
    async (req, reply) => {
      const claim = d.links.verify(req.query.token, d.clock().getTime());
      const key = claim ? await d.learning.mediaKey(claim) : null;
      if (!key) throw new AppError('learning_media_forbidden');
      return sendMedia(reply, d.storage, key, req.headers.range, 'private, max-age=300');
    },
  );
}
