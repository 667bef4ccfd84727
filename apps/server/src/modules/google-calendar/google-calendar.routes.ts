import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  googleBusyQuery,
  googleBusyResponse,
  googleCalendarAuthorizeResponse,
  googleCalendarCallbackBody,
  googleCalendarSettingsBody,
  googleCalendarStatus,
  googleCalendarSyncExistingResponse,
  googleSessionLinkResponse,
  googleSessionParams,
  workspaceIdParams,
} from '@divan/core';
import { caller } from '../../platform/auth/caller';
import { AppError } from '../../platform/errors';
import type { Channels } from './channels.service';
import type { GoogleCalendarService } from './google-calendar.service';

const P = '/api/v1/workspaces/:workspaceId/google-calendar';
const own = { access: { workspace: 'member' as const } };
const tags = ['google-calendar'];

/** The caller's own Google Calendar connection in a workspace (Ajustes › Integraciones). */
export async function googleCalendarRoutes(
  app: FastifyInstance,
  { service, channels }: { service: GoogleCalendarService; channels: Channels },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    P,
    {
      config: own,
      schema: {
        operationId: 'getGoogleCalendar',
        tags,
        description:
          "The caller's connection: connected or not, the Google account, its calendars, the chosen busy ones and the title format.",
        params: workspaceIdParams,
        response: { 200: googleCalendarStatus },
      },
    },
    (req) => service.status(caller(req)),
  );
  r.post(
    `${P}/authorize`,
    {
      config: own,
      schema: {
        operationId: 'authorizeGoogleCalendar',
        tags,
        description:
          "Starts the connection: Google's consent page (offline access) to send the browser to; its state is good once, for 10 minutes.",
        params: workspaceIdParams,
        response: { 200: googleCalendarAuthorizeResponse },
      },
    },
    (req) => service.authorize(caller(req)),
  );
  r.post(
    `${P}/callback`,
    {
      config: own,
      schema: {
        operationId: 'connectGoogleCalendar',
        tags,
        description:
          'Ends the connection with the code and state Google gave the callback page; without a refresh token: google_refresh_token_missing.',
        params: workspaceIdParams,
        body: googleCalendarCallbackBody,
        response: { 200: googleCalendarStatus },
      },
    },
    (req) => service.callback(caller(req), req.body),
  );
  r.put(
    `${P}/settings`,
    {
      config: own,
      schema: {
        operationId: 'updateGoogleCalendarSettings',
        tags,
        description: "The title format of the sessions' events and the calendars whose busy times block the caller's time.",
        params: workspaceIdParams,
        body: googleCalendarSettingsBody,
        response: { 200: googleCalendarStatus },
      },
    },
    (req) => service.updateSettings(caller(req), req.body),
  );
  r.post(
    `${P}/sync-existing`,
    {
      config: own,
      schema: {
        operationId: 'syncExistingGoogleCalendar',
        tags,
        description: 'Also sends the future sessions created before connecting (and every session from now on).',
        params: workspaceIdParams,
        response: { 200: googleCalendarSyncExistingResponse },
      },
    },
    (req) => service.syncExisting(caller(req)),
  );
  r.delete(
    P,
    {
      config: own,
      schema: {
        operationId: 'disconnectGoogleCalendar',
        tags,
        description: 'Revokes the grant at Google, stops the channels and deletes the tokens, busy times and mappings.',
        params: workspaceIdParams,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      await service.disconnect(caller(req));
      return reply.code(204).send(null);
    },
  );
  r.get(
    `${P}/busy`,
    {
      config: own,
      schema: {
        operationId: 'listGoogleBusy',
        tags,
        description: "The caller's own busy times from the chosen Google calendars in [from, to) (≤ 62 days): times only.",
        params: workspaceIdParams,
        querystring: googleBusyQuery,
        response: { 200: googleBusyResponse },
      },
    },
    (req) => service.busy(caller(req), req.query),
  );
  r.get(
    `${P}/sessions/:sessionId`,
    {
      config: { access: { workspace: ['read', 'sessions'] } },
      schema: {
        operationId: 'getGoogleSessionLink',
        tags,
        description: "Whether the session is in its therapist's Google Calendar, and its Google Meet link (online sessions with Meet).",
        params: googleSessionParams,
        response: { 200: googleSessionLinkResponse },
      },
    },
    (req) => service.sessionLink(caller(req), req.params.sessionId),
  );

  // Google's push notifications: answered at once; the channel's id, token and resource must agree.
  r.post(
    '/api/v1/google-calendar/notifications',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'googleCalendarNotification',
        tags,
        description:
          "Google Calendar's push notification (X-Goog-Channel-ID, X-Goog-Channel-Token, X-Goog-Resource-ID): queues one sync of that calendar.",
        response: { 200: z.null() },
      },
    },
    async (req, reply) => {
      const h = (name: string) => {
        const v = req.headers[name];
        return typeof v === 'string' ? v : undefined;
      };
      const out = await channels.notified({
        channelId: h('x-goog-channel-id'),
        token: h('x-goog-channel-token'),
        resourceId: h('x-goog-resource-id'),
        state: h('x-goog-resource-state'),
      });
      if (out === 'unknown') throw new AppError('not_found');
      if (out === 'refused') throw new AppError('access_denied');
      return reply.code(200).send(null);
    },
  );
}
