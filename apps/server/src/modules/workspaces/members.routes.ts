import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invitationResponse, inviteMemberBody, memberResponse, updateMemberBody, workspaceIdParams, workspaceResponse } from '@divan/core';
import { z } from 'zod';
import type { MembersService } from './members.service';

const tags = ['members'];
const W = '/api/v1/workspaces/:workspaceId';
const noContent = { 204: z.null().describe('No content') };

export async function membersRoutes(app: FastifyInstance, { members }: { members: MembersService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const uid = (req: FastifyRequest) => req.user!.id;
  const memberParams = workspaceIdParams.extend({ memberId: z.uuid() });
  const invitationParams = workspaceIdParams.extend({ invitationId: z.uuid() });

  r.get(
    `${W}/members`,
    {
      config: { access: { workspace: ['read', 'members'] } },
      schema: { operationId: 'listMembers', tags, params: workspaceIdParams, response: { 200: z.array(memberResponse) } },
    },
    (req) => members.list(req.params.workspaceId),
  );
  r.post(
    `${W}/invitations`,
    {
      config: { access: { workspace: ['create', 'members'] } },
      schema: {
        operationId: 'inviteMember',
        tags,
        params: workspaceIdParams,
        body: inviteMemberBody,
        response: { 201: z.object({ id: z.uuid() }) },
      },
    },
    async (req, reply) => reply.status(201).send({ id: (await members.invite(req.member!, uid(req), req.body)).id }),
  );
  r.delete(
    `${W}/invitations/:invitationId`,
    {
      config: { access: { workspace: ['delete', 'members'] } },
      schema: { operationId: 'cancelInvitation', tags, params: invitationParams, response: noContent },
    },
    async (req, reply) => {
      await members.cancelInvitation(req.member!, uid(req), req.params.invitationId);
      return reply.status(204).send(null);
    },
  );
  r.patch(
    `${W}/members/:memberId`,
    {
      config: { access: { workspace: ['update', 'members'] } },
      // roleIds may arrive empty: the service answers seat_needs_role, the spec's code.
      schema: {
        operationId: 'updateMember',
        tags,
        params: memberParams,
        body: updateMemberBody.extend({ roleIds: z.array(z.uuid()).max(10).optional() }),
        response: { 200: memberResponse },
      },
    },
    (req) => members.update(req.member!, uid(req), req.params.memberId, req.body),
  );
  r.delete(
    `${W}/members/:memberId`,
    {
      config: { access: { workspace: ['delete', 'members'] } },
      schema: { operationId: 'removeMember', tags, params: memberParams, response: noContent },
    },
    async (req, reply) => {
      await members.remove(req.member!, uid(req), req.params.memberId);
      return reply.status(204).send(null);
    },
  );
  // The join screen: any signed-in therapist holding the link.
  r.get(
    '/api/v1/invitations/:invitationId',
    {
      config: { access: 'user' },
      schema: { operationId: 'getInvitation', tags, params: z.object({ invitationId: z.uuid() }), response: { 200: invitationResponse } },
    },
    (req) => members.getInvitation(req.params.invitationId),
  );
  r.post(
    '/api/v1/invitations/:invitationId/accept',
    {
      config: { access: 'user' },
      schema: { operationId: 'acceptInvitation', tags, params: z.object({ invitationId: z.uuid() }), response: { 200: workspaceResponse } },
    },
    (req) => members.accept(uid(req), req.params.invitationId),
  );
}
