import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  availabilityOverrideIdParams,
  availabilityOverrideListResponse,
  availabilityOverrideResponse,
  bookingServiceIdParams,
  bookingServiceListResponse,
  bookingServiceResponse,
  createAvailabilityOverridesBody,
  createBookingServiceBody,
  publicServiceParams,
  publicSlotsQuery,
  publicSlotsResponse,
  updateAvailabilityOverrideBody,
  updateBookingServiceBody,
  workspaceIdParams,
  type Action,
} from '@divan/core';
import type { Access } from '../../platform/auth/access';
import { caller } from '../../platform/auth/caller';
import type { AvailabilityOverridesService } from './availability-overrides.service';
import type { BookingServicesService } from './booking-services.service';
import type { PublicBookingService } from './public-booking.service';

const tags = ['booking'];
const S = '/api/v1/workspaces/:workspaceId/booking-services';
const O = '/api/v1/workspaces/:workspaceId/availability-overrides';
const services = (action: Exclude<Action, 'manage'>): Access => ({ workspace: [action, 'public_services'] });
const restrictions = (action: Exclude<Action, 'manage'>): Access => ({ workspace: [action, 'availability_restrictions'] });
const byTherapist = z.object({ therapistId: z.uuid({ error: 'Terapeuta inválido' }).optional() });

/** The booking setup (spec §2 `/calendar/services`): a therapist's services and blocked days. */
export async function bookingRoutes(
  app: FastifyInstance,
  d: { services: BookingServicesService; overrides: AvailabilityOverridesService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    S,
    {
      config: { access: services('read') },
      schema: {
        operationId: 'listBookingServices',
        tags,
        description: 'The services the caller may read, by title; `therapistId` narrows to one therapist.',
        params: workspaceIdParams,
        querystring: byTherapist,
        response: { 200: bookingServiceListResponse },
      },
    },
    async (req) => ({ items: await d.services.list(caller(req), req.query.therapistId) }),
  );
  r.post(
    S,
    {
      config: { access: services('create') },
      schema: {
        operationId: 'createBookingService',
        tags,
        description: "The caller's own service; the §5 rules answer 400 at their fields.",
        params: workspaceIdParams,
        body: createBookingServiceBody,
        response: { 201: bookingServiceResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await d.services.create(caller(req), req.body)),
  );
  r.get(
    `${S}/:serviceId`,
    {
      config: { access: services('read') },
      schema: { operationId: 'getBookingService', tags, params: bookingServiceIdParams, response: { 200: bookingServiceResponse } },
    },
    (req) => d.services.get(caller(req), req.params.serviceId),
  );
  r.patch(
    `${S}/:serviceId`,
    {
      config: { access: services('update') },
      schema: {
        operationId: 'updateBookingService',
        tags,
        description: 'Any subset; the §5 rules run on the service as it would be saved.',
        params: bookingServiceIdParams,
        body: updateBookingServiceBody,
        response: { 200: bookingServiceResponse },
      },
    },
    (req) => d.services.update(caller(req), req.params.serviceId, req.body),
  );
  r.delete(
    `${S}/:serviceId`,
    {
      config: { access: services('delete') },
      schema: { operationId: 'deleteBookingService', tags, params: bookingServiceIdParams, response: { 204: z.null() } },
    },
    async (req, reply) => {
      await d.services.delete(caller(req), req.params.serviceId);
      return reply.status(204).send(null);
    },
  );

  r.get(
    O,
    {
      config: { access: restrictions('read') },
      schema: {
        operationId: 'listAvailabilityOverrides',
        tags,
        description: 'Blocked days from today on, by day.',
        params: workspaceIdParams,
        querystring: byTherapist,
        response: { 200: availabilityOverrideListResponse },
      },
    },
    async (req) => ({ items: await d.overrides.list(caller(req), req.query.therapistId) }),
  );
  r.post(
    O,
    {
      config: { access: restrictions('create') },
      schema: {
        operationId: 'createAvailabilityOverrides',
        tags,
        description: "Several dates at once (the caller's, or `therapistId`'s with the permission over all); all or none.",
        params: workspaceIdParams,
        body: createAvailabilityOverridesBody,
        response: { 201: availabilityOverrideListResponse },
      },
    },
    async (req, reply) => reply.status(201).send({ items: await d.overrides.create(caller(req), req.body) }),
  );
  r.put(
    `${O}/:overrideId`,
    {
      config: { access: restrictions('update') },
      schema: {
        operationId: 'updateAvailabilityOverride',
        tags,
        params: availabilityOverrideIdParams,
        body: updateAvailabilityOverrideBody,
        response: { 200: availabilityOverrideResponse },
      },
    },
    (req) => d.overrides.update(caller(req), req.params.overrideId, req.body),
  );
  r.delete(
    `${O}/:overrideId`,
    {
      config: { access: restrictions('delete') },
      schema: { operationId: 'deleteAvailabilityOverride', tags, params: availabilityOverrideIdParams, response: { 204: z.null() } },
    },
    async (req, reply) => {
      await d.overrides.delete(caller(req), req.params.overrideId);
      return reply.status(204).send(null);
    },
  );
}

/** The public booking page's reads: no account, rate limited per IP. */
export async function publicBookingRoutes(app: FastifyInstance, d: { booking: PublicBookingService; perIpPerMinute: number }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pub = { access: 'public' as const, rateLimit: { max: d.perIpPerMinute, timeWindow: 60_000 } };
  r.get(
    '/api/v1/public/reservations/:workspaceId/:therapistId/:serviceId/slots',
    {
      config: pub,
      schema: {
        operationId: 'listPublicSlots',
        tags,
        description: "A month of an active service's free slots by the therapist's local day, each also in the visitor's `timeZone`.",
        params: publicServiceParams,
        querystring: publicSlotsQuery,
        response: { 200: publicSlotsResponse },
      },
    },
    // Already serialised (and checked against the schema) when the month was computed: a string body
    // is sent as it is, so the typed reply is told so.
    async (req, reply) => reply.type('application/json; charset=utf-8').send((await d.booking.slotsJson(req.params, req.query)) as never),
  );
}
