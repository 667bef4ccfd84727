import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  chatCountersResponse,
  chatOfficeHoursBody,
  chatOfficeHoursResponse,
  chatFileParams,
  chatListQuery,
  chatListResponse,
  chatMessageResponse,
  chatMessagesQuery,
  chatMessagesResponse,
  markChatReadBody,
  sendChatMessageBody,
  workspaceIdParams,
} from '@divan/core';
import { z } from 'zod';
import { caller } from '../../platform/auth/caller';
import { CHAT_SUBJECT } from './chat-access';
import type { ChatOfficeHoursService } from './chat-office-hours';
import type { ChatService } from './chat.service';

const tags = ['chat'];
const C = '/api/v1/workspaces/:workspaceId/chats';
const read = { access: { workspace: ['read', CHAT_SUBJECT] as ['read', typeof CHAT_SUBJECT] } };
const write = { access: { workspace: ['create', CHAT_SUBJECT] as ['create', typeof CHAT_SUBJECT] } };

/** The members' side of the chat (issue 15); the patient's side is in chat.patient.routes.ts. */
export async function chatRoutes(app: FastifyInstance, { chat, officeHours }: { chat: ChatService; officeHours: ChatOfficeHoursService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // The therapist's own office hours and automatic reply (settings `notifications`).
  const H = '/api/v1/me/chat-office-hours';
  r.get(
    H,
    { config: { access: 'user' }, schema: { operationId: 'getChatOfficeHours', tags, response: { 200: chatOfficeHoursResponse } } },
    (req) => officeHours.get(req.user!.id),
  );
  r.put(
    H,
    {
      config: { access: 'user' },
      schema: { operationId: 'putChatOfficeHours', tags, body: chatOfficeHoursBody, response: { 200: chatOfficeHoursResponse } },
    },
    (req) => officeHours.put(req.user!.id, req.body),
  );

  r.get(
    C,
    {
      config: read,
      schema: {
        operationId: 'listChats',
        tags,
        params: workspaceIdParams,
        querystring: chatListQuery,
        response: { 200: chatListResponse },
      },
    },
    (req) => chat.list(caller(req), req.query),
  );
  r.get(
    `${C}/counters`,
    { config: read, schema: { operationId: 'chatCounters', tags, params: workspaceIdParams, response: { 200: chatCountersResponse } } },
    (req) => chat.counters(caller(req)),
  );
  r.get(
    `${C}/:patientFileId/messages`,
    {
      config: read,
      schema: {
        operationId: 'listChatMessages',
        tags,
        description:
          '`before`: older messages, newest first (default: from the latest). `after`: newer ones, oldest first, to catch up after a reconnect. `next` continues in the same direction.',
        params: chatFileParams,
        querystring: chatMessagesQuery,
        response: { 200: chatMessagesResponse },
      },
    },
    (req) => chat.messages(caller(req), req.params.patientFileId, req.query),
  );
  r.post(
    `${C}/:patientFileId/messages`,
    {
      config: write,
      schema: {
        operationId: 'sendChatMessage',
        tags,
        params: chatFileParams,
        body: sendChatMessageBody,
        response: { 201: chatMessageResponse },
      },
    },
    async (req, reply) => reply.status(201).send(await chat.send(caller(req), req.params.patientFileId, req.body)),
  );
  r.post(
    `${C}/:patientFileId/read`,
    {
      config: read,
      schema: {
        operationId: 'markChatRead',
        tags,
        params: chatFileParams,
        body: markChatReadBody,
        response: { 200: z.object({ patientFileId: z.uuid(), count: z.number().int() }) },
      },
    },
    (req) => chat.markRead(caller(req), req.params.patientFileId, req.body.upTo),
  );
}
