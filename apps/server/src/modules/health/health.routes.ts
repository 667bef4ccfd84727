import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { APP_VERSION, healthResponse } from '@divan/core';

export async function healthRoutes(app: FastifyInstance, { database }: { database: 'pglite' | 'postgres' }) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/v1/health',
      { config: { access: 'public' }, schema: { operationId: 'health', tags: ['system'], response: { 200: healthResponse } } },
      async () => ({ status: 'ok' as const, version: APP_VERSION, database }),
    );
}
