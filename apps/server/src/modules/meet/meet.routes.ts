import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { meetJoinResponse, meetPatientJoinBody, meetSessionParams, meetWorkspaceParams } from '@divan/core';
import { caller } from '../../platform/auth/caller';
import type { MeetService } from './meet.service';

export async function meetRoutes(app: FastifyInstance, { meet, perIpPerMinute }: { meet: MeetService; perIpPerMinute: number }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['meet'];

  r.post(
    '/api/v1/workspaces/:workspaceId/sessions/:sessionId/meet',
    {
      config: { access: { workspace: ['read', 'sessions'] } },
      schema: {
        operationId: 'joinMeetAsTherapist',
        tags,
        description:
          "A member who may read the session enters its video room: a ticket for the room's websocket, the ICE servers and the patient's link.",
        params: meetWorkspaceParams,
        response: { 200: meetJoinResponse },
      },
    },
    (req) => meet.joinAsTherapist(caller(req), req.params.sessionId),
  );
  r.post(
    '/api/v1/meet/:sessionId/join',
    {
      config: { access: 'public', rateLimit: { max: perIpPerMinute, timeWindow: 60_000 } },
      schema: {
        operationId: 'joinMeetAsPatient',
        tags,
        description: "The patient enters with the link's token `t`, from 30 minutes before the session to 2 hours after it; no account.",
        params: meetSessionParams,
        body: meetPatientJoinBody,
        response: { 200: meetJoinResponse },
      },
    },
    (req) => meet.joinAsPatient(req.params.sessionId, req.body.t),
  );
}
