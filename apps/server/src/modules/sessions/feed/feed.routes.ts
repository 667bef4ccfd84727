import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { calendarFeedBody, calendarFeedResponse, linkToken, workspaceIdParams } from '@divan/core';
import { caller } from '../../../platform/auth/caller';
import type { CalendarFeedService } from './feed.service';

const P = '/api/v1/workspaces/:workspaceId/calendar-feed';

/** The member's own feed (settings `integrations`), and the public iCal read by its token. */
export async function calendarFeedRoutes(
  app: FastifyInstance,
  { feeds, perIpPerMinute }: { feeds: CalendarFeedService; perIpPerMinute: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['calendar-feed'];
  const access = { workspace: ['read', 'sessions'] as ['read', 'sessions'] };

  r.get(
    P,
    {
      config: { access },
      schema: { operationId: 'getCalendarFeed', tags, params: workspaceIdParams, response: { 200: calendarFeedResponse } },
    },
    (req) => feeds.get(caller(req)),
  );
  r.post(
    P,
    {
      config: { access },
      schema: {
        operationId: 'regenerateCalendarFeed',
        tags,
        description: "Makes the caller's private feed URL, or a new one (the previous stops working). The URL is only in this answer.",
        params: workspaceIdParams,
        body: calendarFeedBody.partial(),
        response: { 201: calendarFeedResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await feeds.regenerate(caller(req), req.body.showFullNames)),
  );
  r.patch(
    P,
    {
      config: { access },
      schema: {
        operationId: 'updateCalendarFeed',
        tags,
        params: workspaceIdParams,
        body: calendarFeedBody,
        response: { 200: calendarFeedResponse },
      },
    },
    (req) => feeds.update(caller(req), req.body.showFullNames),
  );
  r.delete(
    P,
    { config: { access }, schema: { operationId: 'revokeCalendarFeed', tags, params: workspaceIdParams, response: { 204: z.null() } } },
    async (req, reply) => {
      await feeds.revoke(caller(req));
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/v1/calendar-feeds/:token.ics',
    {
      config: { access: 'public', rateLimit: { max: perIpPerMinute, timeWindow: 60_000 } },
      schema: {
        operationId: 'readCalendarFeed',
        tags,
        description: 'The iCal (text/calendar) of a therapist’s sessions, by the private token of their feed; 404 once revoked.',
        params: z.object({ token: linkToken() }),
      },
    },
    async (req, reply) => {
      const text = await feeds.render(req.params.token);
      reply.header('cache-control', 'private, no-store');
      reply.header('content-disposition', 'inline; filename="divan.ics"');
      return reply.type('text/calendar; charset=utf-8').send(text);
    },
  );
}
