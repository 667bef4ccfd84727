import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditEventResponse, instantSchema, workspaceIdParams } from '@divan/core';
import { z } from 'zod';
import type { AuditService } from './audit.service';

export async function auditRoutes(app: FastifyInstance, { audit }: { audit: AuditService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/workspaces/:workspaceId/audit-events',
    {
      // Security-relevant history: for those who manage roles (administrators).
      config: { access: { workspace: ['manage', 'roles'] } },
      schema: {
        operationId: 'listAuditEvents',
        tags: ['workspaces'],
        params: workspaceIdParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50), before: instantSchema.optional() }),
        response: { 200: z.array(auditEventResponse) },
      },
    },
    (req) => audit.list(req.params.workspaceId, req.query.limit, req.query.before),
  );
}
