import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linkId } from '@divan/core';
import { AppError } from '../errors';
import type { PublicImageStore } from './public-image-store';

/**
 * Public images (profile pictures, logos) by unguessable id, so `<img src>` works without a token.
 * Only PublicImageStore's rows are found here: any other id (a private file's included) is a 404.
 * Private files have no route of their own; their module serves them after its permission check.
 */
export async function filesRoutes(app: FastifyInstance, { publicImages }: { publicImages: PublicImageStore }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/files/:id',
    {
      config: { access: 'public' },
      schema: { operationId: 'getPublicFile', tags: ['files'], params: z.object({ id: linkId() }) },
    },
    async (req, reply) => {
      const file = await publicImages.open(req.params.id);
      if (!file) throw new AppError('not_found');
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
      return reply.type(file.contentType).send(file.stream);
    },
  );
}
