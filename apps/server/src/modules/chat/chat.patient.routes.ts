import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DOCUMENT_MAX_BYTES,
  chatAttachmentResponse,
  chatCountersResponse,
  chatMessageResponse,
  chatMessagesQuery,
  chatMessagesResponse,
  chatReadResponse,
  markChatReadBody,
  patientFileParams,
  sendChatMessageBody,
  msg,
} from '@divan/core';
import { AppError } from '../../platform/errors';
import { streamUpload } from '../../platform/http/upload';
import type { ChatService } from './chat.service';
import type { ChatActor, PatientLink } from './chat.types';

const tags = ['chat'];
const F = '/api/v1/patient/files/:patientFileId/chat';
const patient = { access: 'patient' as const };

/**
 * The patient's side of the chat (issue 15), in the patients' realm: only on a file connected to the
 * signed-in account and still live (the accounts' link, given at wiring, checks both); any other file
 * answers 404 `patient_file_not_found`, the same as one that does not exist.
 */
export async function chatPatientRoutes(app: FastifyInstance, { chat, link }: { chat: ChatService; link: () => PatientLink }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const actorOf = (req: FastifyRequest): ChatActor => ({ kind: 'patient', patientAccountId: req.patient!.accountId });
  const own = async (req: FastifyRequest, patientFileId: string) => {
    const actor = actorOf(req);
    if (actor.kind !== 'patient' || !(await link().fileOf(actor.patientAccountId, patientFileId)))
      throw new AppError('patient_file_not_found');
    return actor;
  };

  r.get(
    '/api/v1/patient/chat/counters',
    {
      config: patient,
      schema: {
        operationId: 'patientChatCounters',
        tags,
        description: 'Unread messages per connected file (files with none are left out).',
        response: { 200: chatCountersResponse },
      },
    },
    async (req) => {
      const accountId = req.patient!.accountId;
      return chat.patientCounters(accountId, await link().filesOf(accountId));
    },
  );
  r.get(
    `${F}/messages`,
    {
      config: patient,
      schema: {
        operationId: 'listPatientChatMessages',
        tags,
        description:
          '`before`: older messages, newest first (default: from the latest). `after`: newer ones, oldest first, to catch up after a reconnect. `next` continues in the same direction.',
        params: patientFileParams,
        querystring: chatMessagesQuery,
        response: { 200: chatMessagesResponse },
      },
    },
    async (req) => chat.listForPatient(await own(req, req.params.patientFileId), req.params.patientFileId, req.query),
  );
  r.post(
    `${F}/messages`,
    {
      config: patient,
      schema: {
        operationId: 'sendPatientChatMessage',
        tags,
        description: 'An attachment must be a document of the file shared with the patient (`document_not_found` otherwise).',
        params: patientFileParams,
        body: sendChatMessageBody,
        response: { 201: chatMessageResponse },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await chat.sendAsPatient(await own(req, req.params.patientFileId), req.params.patientFileId, req.body)),
  );
  r.post(
    `${F}/attachments`,
    {
      config: patient,
      schema: {
        operationId: 'attachPatientChatFile',
        tags,
        description:
          'Multipart `file`: kept as a document of the file, shared with the patient, with the documents’ checks of type and size (413 `document_too_large`). Send it next as `attachmentDocumentId`.',
        consumes: ['multipart/form-data'],
        params: patientFileParams,
        response: { 201: chatAttachmentResponse },
      },
    },
    async (req, reply) => {
      try {
        const actor = await own(req, req.params.patientFileId);
        // One byte past the limit, so the documents see (and report) the overflow themselves.
        const part = await streamUpload(req, { maxBytes: DOCUMENT_MAX_BYTES + 1 });
        if (!part) throw new AppError('invalid_argument', [{ path: 'file', message: msg.required('archivo') }], msg.required('archivo'));
        const attached = await chat.attachAsPatient(actor, req.params.patientFileId, {
          filename: part.filename,
          stream: part.stream,
          truncated: part.truncated,
        });
        return reply.status(201).send(attached);
      } catch (err) {
        // The rest of a refused upload is never read: close the connection rather than leave it hanging.
        reply.header('connection', 'close');
        throw err;
      }
    },
  );
  r.post(
    `${F}/read`,
    {
      config: patient,
      schema: {
        operationId: 'markPatientChatRead',
        tags,
        description: 'Marks read what the therapist’s side sent up to `upTo` (included).',
        params: patientFileParams,
        body: markChatReadBody,
        response: { 200: chatReadResponse },
      },
    },
    async (req) => chat.markReadAsPatient(await own(req, req.params.patientFileId), req.params.patientFileId, req.body.upTo),
  );
}
