import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notificationSettingsBody, notificationSettingsResponse, workspaceIdParams } from '@divan/core';
import { caller } from '../../../platform/auth/caller';
import type { NotificationSettingsService } from './notification-settings.service';

const P = '/api/v1/workspaces/:workspaceId/notification-settings';

/** The signed-in member's own notification settings in a workspace (settings `notifications`). */
export async function notificationSettingsRoutes(app: FastifyInstance, { settings }: { settings: NotificationSettingsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['notifications'];
  r.get(
    P,
    {
      config: { access: { workspace: 'member' } },
      schema: {
        operationId: 'getNotificationSettings',
        tags,
        description: "The caller's default session reminders (minutes before) and the mails they want; defaults until saved.",
        params: workspaceIdParams,
        response: { 200: notificationSettingsResponse },
      },
    },
    (req) => settings.get(caller(req)),
  );
  r.put(
    P,
    {
      config: { access: { workspace: 'member' } },
      schema: {
        operationId: 'saveNotificationSettings',
        tags,
        description: "Replaces the caller's settings; more reminders than the plan allows is a 400 with the plan's message.",
        params: workspaceIdParams,
        body: notificationSettingsBody,
        response: { 200: notificationSettingsResponse },
      },
    },
    (req) => settings.save(caller(req), req.body),
  );
}
