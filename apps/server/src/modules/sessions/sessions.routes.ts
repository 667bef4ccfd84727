import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cancelSessionBody,
  createSessionBody,
  locationBody,
  locationIdParams,
  locationResponse,
  paySessionBody,
  sessionIdParams,
  sessionListQuery,
  sessionCancelResponse,
  sessionCreateResponse,
  sessionGridResponse,
  sessionListResponse,
  sessionResponse,
  sessionUpdateResponse,
  updateLocationBody,
  updateSessionBody,
  workspaceIdParams,
} from '@divan/core';
import { z } from 'zod';
import { caller } from '../../platform/auth/caller';
import type { LocationsService } from './locations.service';
import { sendSessionList, type SessionListReader } from './session-list.cache';
import type { SessionSeriesService } from './series/session-series.service';
import type { SessionsService } from './sessions.service';

const W = '/api/v1/workspaces/:workspaceId';
const S = `${W}/sessions/:sessionId`;
const L = `${W}/locations`;

export async function sessionsRoutes(
  app: FastifyInstance,
  {
    sessions,
    locations,
    series,
    listReader,
  }: { sessions: SessionsService; locations: LocationsService; series: SessionSeriesService; listReader: SessionListReader },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['sessions'];

  r.get(
    `${W}/sessions`,
    {
      config: { access: { workspace: ['read', 'sessions'] } },
      schema: {
        operationId: 'listSessions',
        tags,
        description:
          'Sessions starting in [from, to) (at most 42 days), by start; a therapist restricted to their own sessions gets only theirs.',
        params: workspaceIdParams,
        querystring: sessionListQuery,
        response: { 200: sessionListResponse },
      },
    },
    (req, reply) => sendSessionList(reply, listReader, caller(req), req.query, req.headers['accept-encoding']),
  );
  r.get(
    `${W}/sessions/grid`,
    {
      config: { access: { workspace: ['read', 'sessions'] } },
      schema: {
        operationId: 'listSessionGrid',
        tags,
        description:
          "The same range read as listSessions, as the calendar grid draws it: columns of ids, days, minutes, statuses and indexes into the names (each patient's display name, therapist, location and series pattern once). Open a session for the rest.",
        params: workspaceIdParams,
        querystring: sessionListQuery,
        response: { 200: sessionGridResponse },
      },
    },
    (req, reply) => sendSessionList(reply, listReader, caller(req), req.query, req.headers['accept-encoding'], 'grid'),
  );
  r.post(
    `${W}/sessions`,
    {
      config: { access: { workspace: ['create', 'sessions'] } },
      schema: {
        operationId: 'createSession',
        tags,
        description:
          'Overlapping sessions of the same therapist or location come back in `conflicts`: a warning, not a refusal. With `recurrence`, the whole series (at most 200 sessions, 3 years) is created at once; the response is its first session and the conflicts over all.',
        params: workspaceIdParams,
        body: createSessionBody,
        response: { 201: sessionCreateResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await series.create(caller(req), req.body)),
  );
  r.get(
    S,
    {
      config: { access: { workspace: ['read', 'sessions'] } },
      schema: { operationId: 'getSession', tags, params: sessionIdParams, response: { 200: sessionResponse } },
    },
    (req) => sessions.get(caller(req), req.params.sessionId),
  );
  r.patch(
    S,
    {
      config: { access: { workspace: ['update', 'sessions'] } },
      schema: {
        operationId: 'updateSession',
        tags,
        description:
          'In a series, `scope` says which occurrences change: this one (default), it and the following, or all; "all" never rewrites occurrences already started, completed or canceled.',
        params: sessionIdParams,
        body: updateSessionBody,
        response: { 200: sessionUpdateResponse },
      },
    },
    (req) => series.update(caller(req), req.params.sessionId, req.body),
  );
  r.post(
    `${S}/cancel`,
    {
      config: { access: { workspace: ['update', 'sessions'] } },
      schema: {
        operationId: 'cancelSession',
        tags,
        params: sessionIdParams,
        body: cancelSessionBody,
        response: { 200: sessionCancelResponse },
      },
    },
    (req) => series.cancel(caller(req), req.params.sessionId, req.body),
  );
  r.post(
    `${S}/complete`,
    {
      config: { access: { workspace: ['update', 'sessions'] } },
      schema: { operationId: 'completeSession', tags, params: sessionIdParams, response: { 200: sessionResponse } },
    },
    (req) => sessions.complete(caller(req), req.params.sessionId),
  );
  r.post(
    `${S}/payment`,
    {
      config: { access: { workspace: ['update', 'sessions'] } },
      schema: { operationId: 'markSessionPaid', tags, params: sessionIdParams, body: paySessionBody, response: { 200: sessionResponse } },
    },
    (req) => sessions.markPaid(caller(req), req.params.sessionId, req.body),
  );

  const ltags = ['locations'];
  r.get(
    L,
    {
      config: { access: { workspace: ['read', 'sessions'] } },
      schema: { operationId: 'listLocations', tags: ltags, params: workspaceIdParams, response: { 200: z.array(locationResponse) } },
    },
    (req) => locations.list(req.params.workspaceId),
  );
  r.post(
    L,
    {
      config: { access: { workspace: ['update', 'workspace_profile'] } },
      schema: {
        operationId: 'createLocation',
        tags: ltags,
        params: workspaceIdParams,
        body: locationBody,
        response: { 201: locationResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await locations.create(req.params.workspaceId, req.body)),
  );
  r.patch(
    `${L}/:locationId`,
    {
      config: { access: { workspace: ['update', 'workspace_profile'] } },
      schema: {
        operationId: 'updateLocation',
        tags: ltags,
        params: locationIdParams,
        body: updateLocationBody,
        response: { 200: locationResponse },
      },
    },
    (req) => locations.update(req.params.workspaceId, req.params.locationId, req.body),
  );
  r.delete(
    `${L}/:locationId`,
    {
      config: { access: { workspace: ['update', 'workspace_profile'] } },
      schema: { operationId: 'deleteLocation', tags: ltags, params: locationIdParams, response: { 204: z.null() } },
    },
    async (req, reply) => {
      await locations.delete(req.params.workspaceId, req.params.locationId);
      return reply.status(204).send(null);
    },
  );
}
