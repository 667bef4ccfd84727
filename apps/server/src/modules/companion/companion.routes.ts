import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  companionDocumentParams,
  companionDocumentsResponse,
  companionDownloadQuery,
  companionSessionParams,
  companionSessionResponse,
  companionSessionsQuery,
  companionSessionsResponse,
  movePublicBookingBody,
  patientFileParams,
  publicSlotsQuery,
  publicSlotsResponse,
} from '@divan/core';
import { contentDisposition } from '../../platform/http/content-disposition';
import type { DocumentsService } from '../documents/documents.service';
import type { PatientAccountsService } from '../patient-accounts/patient-accounts.service';
import type { CompanionSessionsService } from './companion-sessions.service';

const tags = ['companion'];
const F = '/api/v1/patient/files/:patientFileId';
const patient = { access: 'patient' as const };

/**
 * The patient's own side of Diván (issue 15), in the patients' realm: their sessions (cancel and move
 * those booked from a public service, within its window) and the documents shared with them. Every
 * route is scoped to a file connected to the account and still live: 404 `patient_file_not_found` otherwise.
 */
export async function companionRoutes(
  app: FastifyInstance,
  d: { sessions: CompanionSessionsService; accounts: PatientAccountsService; documents: DocumentsService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const me = (req: { patient?: { accountId: string } }) => req.patient!.accountId;

  r.get(
    `${F}/sessions`,
    {
      config: patient,
      schema: {
        operationId: 'listPatientOwnSessions',
        tags,
        description:
          '`upcoming`: not ended yet, soonest first; `past`: ended, latest first. `canCancel`/`canMove` until `changeableUntil` for a session booked from a public booking service.',
        params: patientFileParams,
        querystring: companionSessionsQuery,
        response: { 200: companionSessionsResponse },
      },
    },
    (req) => d.sessions.list(me(req), req.params.patientFileId, req.query),
  );
  r.get(
    `${F}/sessions/:sessionId`,
    {
      config: patient,
      schema: { operationId: 'getPatientOwnSession', tags, params: companionSessionParams, response: { 200: companionSessionResponse } },
    },
    async (req) => ({ session: await d.sessions.get(me(req), req.params.patientFileId, req.params.sessionId) }),
  );
  r.get(
    `${F}/sessions/:sessionId/slots`,
    {
      config: patient,
      schema: {
        operationId: 'patientOwnSessionSlots',
        tags,
        description: "A month of the free slots of the session's booking service to move it to (its own time counted free).",
        params: companionSessionParams,
        querystring: publicSlotsQuery,
        response: { 200: publicSlotsResponse },
      },
    },
    (req) => d.sessions.slots(me(req), req.params.patientFileId, req.params.sessionId, req.query),
  );
  r.post(
    `${F}/sessions/:sessionId/cancel`,
    {
      config: patient,
      schema: {
        operationId: 'cancelPatientOwnSession',
        tags,
        description: "Until the service's minimum notice before it; sessions the therapist booked: `companion_session_not_changeable`.",
        params: companionSessionParams,
        response: { 200: companionSessionResponse },
      },
    },
    async (req) => ({ session: await d.sessions.cancel(me(req), req.params.patientFileId, req.params.sessionId) }),
  );
  r.post(
    `${F}/sessions/:sessionId/move`,
    {
      config: patient,
      schema: {
        operationId: 'movePatientOwnSession',
        tags,
        description:
          "To another free slot of the same service (`public_service_slot_not_available`), until the service's minimum notice before it.",
        params: companionSessionParams,
        body: movePublicBookingBody,
        response: { 200: companionSessionResponse },
      },
    },
    async (req) => ({ session: await d.sessions.move(me(req), req.params.patientFileId, req.params.sessionId, req.body.startsAt) }),
  );

  r.get(
    `${F}/documents`,
    {
      config: patient,
      schema: {
        operationId: 'listPatientSharedDocuments',
        tags,
        description: 'The documents the therapist shared with the patient, newest first.',
        params: patientFileParams,
        response: { 200: companionDocumentsResponse },
      },
    },
    async (req) => {
      const f = await d.accounts.liveFileOf(me(req), req.params.patientFileId);
      const rows = await d.documents.sharedWith(f.workspaceId, f.patientFileId);
      return { items: rows.map((x) => ({ ...x, createdAt: x.createdAt.toISOString() })) };
    },
  );
  r.get(
    `${F}/documents/:documentId/download`,
    {
      config: patient,
      schema: {
        operationId: 'downloadPatientSharedDocument',
        tags,
        description:
          'The bytes of a document shared with the patient (`document_not_found` for any other). `disposition=inline` to show it in the browser.',
        params: companionDocumentParams,
        querystring: companionDownloadQuery,
      },
    },
    async (req, reply) => {
      const f = await d.accounts.liveFileOf(me(req), req.params.patientFileId);
      const file = await d.documents.downloadShared(f.workspaceId, f.patientFileId, req.params.documentId);
      reply.header('content-disposition', contentDisposition(file.name, req.query.disposition));
      reply.header('content-length', file.size);
      reply.header('cache-control', 'private, no-store');
      reply.header('x-content-type-options', 'nosniff');
      return reply.type(file.contentType).send(file.stream);
    },
  );
}
