import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { APP_VERSION, healthResponse } from '@divan/core';
import type { Lifecycle } from '../../platform/lifecycle/lifecycle';

/** What the load balancer reads (not part of the API's contract: hidden from the OpenAPI document). */
const liveResponse = z.object({ status: z.literal('live') });
const readyResponse = z.object({
  status: z.enum(['ready', 'draining', 'database_unreachable', 'migrations_pending']),
});

export async function healthRoutes(
  app: FastifyInstance,
  { database, lifecycle }: { database: 'pglite' | 'postgres'; lifecycle: Lifecycle },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/health',
    { config: { access: 'public' }, schema: { operationId: 'health', tags: ['system'], response: { 200: healthResponse } } },
    async () => ({ status: 'ok' as const, version: APP_VERSION, database }),
  );
  // Liveness: the process answers (an orchestrator restarts one that does not). Nothing else is asked.
  r.get('/health/live', { config: { access: 'public' }, schema: { hide: true, response: { 200: liveResponse } } }, async () => ({
    status: 'live' as const,
  }));
  // Readiness: send this process traffic. 503 while draining (after SIGTERM), without its database, or
  // before the migrations of this build are applied (a newer process migrating the shared database).
  r.get(
    '/health/ready',
    { config: { access: 'public' }, schema: { hide: true, response: { 200: readyResponse, 503: readyResponse } } },
    async (_req, reply) => {
      const { ready, reason } = await lifecycle.readiness();
      return reply
        .code(ready ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: ready ? 'ready' : reason! });
    },
  );
}
