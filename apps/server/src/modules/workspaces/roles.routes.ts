import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { roleBody, roleResponse, workspaceIdParams, type Permission } from '@divan/core';
import { z } from 'zod';
import type { RolesService } from './roles.service';

const tags = ['roles'];
const W = '/api/v1/workspaces/:workspaceId';

export async function rolesRoutes(app: FastifyInstance, { roles }: { roles: RolesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const uid = (req: FastifyRequest) => req.user!.id;
  const roleParams = workspaceIdParams.extend({ roleId: z.uuid() });
  // Permission problems are the spec's role codes, so the list is checked by the service, not the schema.
  const body = roleBody.extend({
    permissions: z.array(z.object({ action: z.string(), subject: z.string(), ownOnly: z.boolean().optional() })).max(200),
  });
  // checkPermissions (in the service) validates every action and subject at run time.
  type Body = { name: string; permissions: Permission[] };

  r.get(
    `${W}/roles`,
    {
      config: { access: { workspace: ['read', 'roles'] } },
      schema: { operationId: 'listRoles', tags, params: workspaceIdParams, response: { 200: z.array(roleResponse) } },
    },
    (req) => roles.list(req.params.workspaceId),
  );
  r.post(
    `${W}/roles`,
    {
      config: { access: { workspace: ['create', 'roles'] } },
      schema: { operationId: 'createRole', tags, params: workspaceIdParams, body, response: { 201: roleResponse } },
    },
    async (req, reply) => reply.status(201).send(await roles.create(req.member!, uid(req), req.body as unknown as Body)),
  );
  r.put(
    `${W}/roles/:roleId`,
    {
      config: { access: { workspace: ['update', 'roles'] } },
      schema: { operationId: 'updateRole', tags, params: roleParams, body, response: { 200: roleResponse } },
    },
    (req) => roles.update(req.member!, uid(req), req.params.roleId, req.body as unknown as Body),
  );
  r.delete(
    `${W}/roles/:roleId`,
    {
      config: { access: { workspace: ['delete', 'roles'] } },
      schema: { operationId: 'deleteRole', tags, params: roleParams, response: { 204: z.null() } },
    },
    async (req, reply) => {
      await roles.delete(req.member!, uid(req), req.params.roleId);
      return reply.status(204).send(null);
    },
  );
}
