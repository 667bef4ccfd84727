import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../errors';
import type { FileStore } from './file-store';

/**
 * Public images (profile pictures, logos) by unguessable id, so `<img src>` works without a token.
 * Clinical documents will not use this route: they are served behind workspace permissions.
 */
export async function filesRoutes(app: FastifyInstance, { fileStore }: { fileStore: FileStore }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/files/:id',
    {
      config: { access: 'public' },
      schema: { operationId: 'getPublicFile', tags: ['files'], params: z.object({ id: z.uuid() }) },
    },
    async (req, reply) => {
      const file = await fileStore.open(req.params.id);
      if (!file) throw new AppError('not_found');
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
      return reply.type(file.contentType).send(file.stream);
    },
  );
}
