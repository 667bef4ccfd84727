import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  historyEntryBody,
  historyEntryResponse,
  patientIdParams,
  patientSessionsQuery,
  patientSessionsResponse,
  sessionIdParams,
} from '@divan/core';
import { caller } from '../../platform/auth/caller';
import type { PatientSessionsService } from './patient-sessions.service';
import type { SessionNotesService } from './session-notes.service';

/** Where sessions meet the patient's file: the patient's sessions tab and a session's clinical note. */
export async function sessionLinksRoutes(
  app: FastifyInstance,
  { patientSessions, notes }: { patientSessions: PatientSessionsService; notes: SessionNotesService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/v1/workspaces/:workspaceId/patients/:patientId/sessions',
    {
      config: { access: { workspace: ['read', 'sessions'] } },
      schema: {
        operationId: 'listPatientSessions',
        tags: ['sessions'],
        description:
          "The patient's sessions, newest first, a page at a time, with totals (attended, canceled, no-shows, late, upcoming, pending payment) over those the member may read.",
        params: patientIdParams,
        querystring: patientSessionsQuery,
        response: { 200: patientSessionsResponse },
      },
    },
    (req) => patientSessions.list(caller(req), req.params.patientId, req.query.page),
  );
  r.post(
    '/api/v1/workspaces/:workspaceId/sessions/:sessionId/note',
    {
      config: { access: { workspace: ['create', 'patient_histories'] } },
      schema: {
        operationId: 'writeSessionNote',
        tags: ['sessions', 'history'],
        description:
          "The session's clinical note: a history entry of its patient, dated the session's day unless given, linked to it (one per session).",
        params: sessionIdParams,
        body: historyEntryBody.partial({ date: true }),
        response: { 201: historyEntryResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await notes.write(caller(req), req.params.sessionId, req.body)),
  );
}
