import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bookingEmbedBody,
  bookingEmbedResponse,
  publicServiceParams,
  publicServiceResponse,
  publicTherapistParams,
  publicTherapistResponse,
  publicWorkspaceIndexResponse,
  publicWorkspaceParams,
  workspaceIdParams,
} from '@divan/core';
import type { BookingEmbedService } from './booking-embed.service';
import type { PublicPagesService } from './public-pages.service';

const tags = ['booking'];
const P = '/api/v1/public/reservations';
/** A visitor's browser and a proxy may keep an answer this long: a service's change shows within 30 s. */
const CACHEABLE = 'public, max-age=30';

/** The public booking pages' reads: no account, rate limited per IP, briefly cacheable. */
export async function publicPagesRoutes(app: FastifyInstance, d: { pages: PublicPagesService; perIpPerMinute: number }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: 'public' as const, rateLimit: { max: d.perIpPerMinute, timeWindow: 60_000 } };
  r.get(
    `${P}/:workspaceId`,
    {
      config,
      schema: {
        operationId: 'getPublicWorkspaceIndex',
        tags,
        description: "The workspace's name and logo and its therapists with at least one active service.",
        params: publicWorkspaceParams,
        response: { 200: publicWorkspaceIndexResponse },
      },
    },
    async (req, reply) => {
      const body = await d.pages.index(req.params.workspaceId);
      return reply.header('cache-control', CACHEABLE).send(body);
    },
  );
  r.get(
    `${P}/:workspaceId/:therapistId`,
    {
      config,
      schema: {
        operationId: 'getPublicTherapist',
        tags,
        description: 'A therapist of the workspace with their active services.',
        params: publicTherapistParams,
        response: { 200: publicTherapistResponse },
      },
    },
    async (req, reply) => {
      const body = await d.pages.therapist(req.params.workspaceId, req.params.therapistId);
      return reply.header('cache-control', CACHEABLE).send(body);
    },
  );
  r.get(
    `${P}/:workspaceId/:therapistId/:serviceId`,
    {
      config,
      schema: {
        operationId: 'getPublicService',
        tags,
        description: 'An active service, with what its page shows before the month of slots.',
        params: publicServiceParams,
        response: { 200: publicServiceResponse },
      },
    },
    async (req, reply) => {
      const body = await d.pages.service(req.params.workspaceId, req.params.therapistId, req.params.serviceId);
      return reply.header('cache-control', CACHEABLE).send(body);
    },
  );
}

/** The origins allowed to frame the workspace's booking pages (read with the services, written with the workspace's profile). */
export async function bookingEmbedRoutes(app: FastifyInstance, d: { embed: BookingEmbedService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const E = '/api/v1/workspaces/:workspaceId/booking-embed';
  r.get(
    E,
    {
      config: { access: { workspace: ['read', 'public_services'] } },
      schema: {
        operationId: 'getBookingEmbed',
        tags,
        description: 'The allowed origins, and whether the plan allows embedding now.',
        params: workspaceIdParams,
        response: { 200: bookingEmbedResponse },
      },
    },
    (req) => d.embed.get(req.params.workspaceId),
  );
  r.put(
    E,
    {
      config: { access: { workspace: ['update', 'workspace_profile'] } },
      schema: {
        operationId: 'putBookingEmbed',
        tags,
        description: 'Replaces the allowed origins; a plan without embedding is refused with `public_service_embedding_not_allowed`.',
        params: workspaceIdParams,
        body: bookingEmbedBody,
        response: { 200: bookingEmbedResponse },
      },
    },
    (req) => d.embed.put(req.params.workspaceId, req.body.allowedOrigins),
  );
}
