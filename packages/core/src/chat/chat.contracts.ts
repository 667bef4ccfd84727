import { z } from 'zod';
import { textField } from '../fields';
import { msg } from '../messages';
import { CHAT_LIST_PAGE_MAX, CHAT_MESSAGE_MAX, CHAT_PAGE_DEFAULT, CHAT_PAGE_MAX, CHAT_SENDER_KINDS, CHAT_TABS } from './chat.constants';
import { decodeChatCursor } from './chat.cursor';

const cursorField = textField('Cursor').refine((s) => decodeChatCursor(s) !== null, { error: 'Cursor no válido' });

export const chatFileParams = z.object({ workspaceId: z.uuid(), patientFileId: z.uuid() });

/** `before`: older messages, newest first (the default, from the latest); `after`: newer ones, oldest first (catching up after a reconnect). */
export const chatMessagesQuery = z
  .object({
    before: cursorField.optional(),
    after: cursorField.optional(),
    limit: z.coerce.number().int().min(1).max(CHAT_PAGE_MAX).default(CHAT_PAGE_DEFAULT),
  })
  .refine((q) => !(q.before && q.after), { error: 'Indica before o after, no ambos', path: ['after'] });
export type ChatMessagesQuery = z.output<typeof chatMessagesQuery>;

export const sendChatMessageBody = z.object({
  body: textField('Mensaje', { error: msg.required('mensaje') })
    .trim()
    .min(1, { error: msg.required('mensaje') })
    .max(CHAT_MESSAGE_MAX, { error: msg.maxLength(CHAT_MESSAGE_MAX) }),
  attachmentDocumentId: z.uuid().optional(),
});
export type SendChatMessageBody = z.input<typeof sendChatMessageBody>;

/** A file the patient attached from the companion, kept as a document of their file: send it next as `attachmentDocumentId`. */
export const chatAttachmentResponse = z.object({ documentId: z.uuid(), name: z.string(), contentType: z.string(), size: z.number().int() });
export type ChatAttachment = z.infer<typeof chatAttachmentResponse>;

/** Everything the peer sent up to this message (included) is read. */
export const markChatReadBody = z.object({ upTo: z.uuid() });
/** After marking read: the reader side's unread count left on the file. */
export const chatReadResponse = z.object({ patientFileId: z.uuid(), count: z.number().int() });
export type ChatRead = z.infer<typeof chatReadResponse>;

export const chatMessageResponse = z.object({
  id: z.uuid(),
  patientFileId: z.uuid(),
  sender: z.object({ kind: z.enum(CHAT_SENDER_KINDS), id: z.uuid(), name: z.string().nullable() }),
  body: z.string(),
  attachment: z.object({ documentId: z.uuid(), name: z.string() }).nullable(),
  /** The therapist's automatic reply outside their office hours. */
  automatic: z.boolean(),
  createdAt: z.iso.datetime(),
  cursor: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageResponse>;

/** A page of messages and the cursor to ask for the next one in the same direction (null: nothing more). */
export const chatMessagesResponse = z.object({ items: z.array(chatMessageResponse), next: z.string().nullable() });
export type ChatMessagesPage = z.infer<typeof chatMessagesResponse>;

export const chatListQuery = z.object({
  tab: z.enum(CHAT_TABS).default('unread'),
  q: textField('Búsqueda')
    .trim()
    .max(100, { error: msg.maxLength(100) })
    .optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(CHAT_LIST_PAGE_MAX).default(20),
});
export type ChatListQuery = z.output<typeof chatListQuery>;

export const chatConversationResponse = z.object({
  patientFileId: z.uuid(),
  patientName: z.string(),
  treatmentStatus: z.enum(['active', 'paused', 'inactive']),
  unread: z.number().int(),
  lastMessage: z.object({ senderKind: z.enum(CHAT_SENDER_KINDS), body: z.string(), createdAt: z.iso.datetime() }),
});
export const chatListResponse = z.object({
  items: z.array(chatConversationResponse),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type ChatConversation = z.infer<typeof chatConversationResponse>;

/** Unread messages per patient file (spec §3: `{count}`); files with none are left out. */
export const chatCountersResponse = z.record(z.string(), z.object({ count: z.number().int() }));
export type ChatCounters = z.infer<typeof chatCountersResponse>;

/** Websocket payloads (spec §7). */
export type ChatMessageEvent = { patientFileId: string; message: ChatMessage };
export type ChatCounterEvent = { patientFileId: string; count: number };
export type ChatCountersEvent = { counters: ChatCounters };
export type ChatTypingEvent = { patientFileId: string; senderKind: 'member' | 'patient' };
