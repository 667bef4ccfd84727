import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  IMAGE_MAX_BYTES,
  billingInfo,
  createWorkspaceBody,
  disableSelfManagedRolesBody,
  updateWorkspaceBody,
  workspaceIdParams,
  workspaceResponse,
} from '@divan/core';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { readUpload } from '../../platform/http/upload';
import type { WorkspacesService } from './workspaces.service';

const tags = ['workspaces'];
const W = '/api/v1/workspaces/:workspaceId';

export async function workspacesRoutes(app: FastifyInstance, { workspaces }: { workspaces: WorkspacesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const uid = (req: FastifyRequest) => req.user!.id;

  r.get(
    '/api/v1/workspaces',
    { config: { access: 'user' }, schema: { operationId: 'listWorkspaces', tags, response: { 200: z.array(workspaceResponse) } } },
    (req) => workspaces.listForUser(uid(req)),
  );
  r.post(
    '/api/v1/workspaces',
    {
      config: { access: 'user' },
      schema: { operationId: 'createWorkspace', tags, body: createWorkspaceBody, response: { 201: workspaceResponse } },
    },
    async (req, reply) => reply.status(201).send(await workspaces.create(uid(req), req.body)),
  );
  r.get(
    W,
    {
      config: { access: { workspace: 'member' } },
      schema: { operationId: 'getWorkspace', tags, params: workspaceIdParams, response: { 200: workspaceResponse } },
    },
    (req) => workspaces.get(req.params.workspaceId, uid(req)),
  );
  r.patch(
    W,
    {
      config: { access: { workspace: ['update', 'workspace_profile'] } },
      schema: {
        operationId: 'updateWorkspace',
        tags,
        params: workspaceIdParams,
        body: updateWorkspaceBody,
        response: { 200: workspaceResponse },
      },
    },
    (req) => workspaces.rename(req.member!, uid(req), req.body.name),
  );
  r.put(
    `${W}/logo`,
    {
      config: { access: { workspace: ['update', 'workspace_profile'] } },
      schema: {
        operationId: 'uploadWorkspaceLogo',
        tags,
        params: workspaceIdParams,
        consumes: ['multipart/form-data'],
        response: { 200: workspaceResponse },
      },
    },
    async (req) => {
      const { file } = await readUpload(req, { maxBytes: IMAGE_MAX_BYTES });
      if (!file) throw new AppError('unexpected_file');
      return workspaces.setLogo(req.member!, uid(req), file.data);
    },
  );
  r.delete(
    `${W}/logo`,
    {
      config: { access: { workspace: ['update', 'workspace_profile'] } },
      schema: { operationId: 'deleteWorkspaceLogo', tags, params: workspaceIdParams, response: { 200: workspaceResponse } },
    },
    (req) => workspaces.setLogo(req.member!, uid(req), null),
  );
  r.get(
    `${W}/billing-info`,
    {
      config: { access: { workspace: ['read', 'workspace_billing'] } },
      schema: { operationId: 'getWorkspaceBillingInfo', tags, params: workspaceIdParams, response: { 200: billingInfo } },
    },
    (req) => workspaces.billingInfo(req.params.workspaceId),
  );
  r.put(
    `${W}/billing-info`,
    {
      config: { access: { workspace: ['update', 'workspace_billing'] } },
      schema: {
        operationId: 'updateWorkspaceBillingInfo',
        tags,
        params: workspaceIdParams,
        body: billingInfo,
        response: { 200: billingInfo },
      },
    },
    (req) => workspaces.updateBillingInfo(req.params.workspaceId, req.body),
  );
  r.post(
    `${W}/roles-manager/disable`,
    {
      config: { access: { workspace: 'owner' } },
      schema: {
        operationId: 'disableSelfManagedRoles',
        tags,
        description: 'Owner only; irreversible. Body must say DESACTIVAR.',
        params: workspaceIdParams,
        body: disableSelfManagedRolesBody,
        response: { 200: workspaceResponse },
      },
    },
    (req) => workspaces.disableSelfManagedRoles(req.member!, uid(req)),
  );
}
