import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only.
import { patientDocuments } from '../documents/documents.tables';
import { patients } from '../patients/patients.tables';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * Messages between the therapists of a patient file and the patient (issue 15). The body is encrypted
 * with the workspace's data key (AAD `chat:<file>:<id>`), like the clinical history. `created_at` is
 * written by the server in milliseconds, so the keyset cursor (created_at, id) names a row exactly.
 * `sender_id` is a member's user id or the patient's account id, by `sender_kind`: no foreign key, the
 * message outlives a member who leaves.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    patientFileId: uuid('patient_file_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    senderKind: text('sender_kind', { enum: ['member', 'patient'] }).notNull(),
    senderId: uuid('sender_id').notNull(),
    bodyEnc: text('body_enc').notNull(),
    attachmentDocumentId: uuid('attachment_document_id').references(() => patientDocuments.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The therapist's automatic reply outside their office hours, not written by them. */
    automatic: boolean('automatic').notNull().default(false),
  },
  (t) => [
    index('chat_messages_file_keyset_idx').on(t.patientFileId, t.createdAt, t.id),
    index('chat_messages_file_sender_idx').on(t.patientFileId, t.senderKind, t.createdAt, t.id),
  ],
);
export type ChatMessageRow = typeof chatMessages.$inferSelect;

/**
 * One row per conversation (patient file): its last message, for the list, and each side's read
 * cursor. The members' side is one cursor shared by every member who reads the file: the spec keeps
 * unread counters per patient file, not per therapist, so what one therapist reads is read for the
 * file (decision 0022). Unread counts are counted from the messages after the cursor, never stored.
 */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    patientFileId: uuid('patient_file_id')
      .primaryKey()
      .references(() => patients.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
    lastMessageId: uuid('last_message_id').notNull(),
    membersReadAt: timestamp('members_read_at', { withTimezone: true }),
    membersReadId: uuid('members_read_id'),
    patientReadAt: timestamp('patient_read_at', { withTimezone: true }),
    patientReadId: uuid('patient_read_id'),
  },
  (t) => [index('chat_conversations_workspace_last_idx').on(t.workspaceId, t.lastMessageAt)],
);
export type ChatConversationRow = typeof chatConversations.$inferSelect;

/** A therapist's office hours for the chat and their automatic reply (settings `notifications`; 0035). */
export const chatOfficeHours = pgTable('chat_office_hours', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  timeZone: text('time_zone').notNull(),
  slots: jsonb('slots').$type<{ weekday: number; start: string; end: string }[]>().notNull(),
  autoReply: text('auto_reply').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
