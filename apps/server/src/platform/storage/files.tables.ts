import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Stored blobs; the bytes live behind the storage interface. Two kinds share the table:
 * public images (PublicImageStore: `workspace_id` null, served by id to anyone) and private files
 * (PrivateFileStore: `workspace_id` set, bytes encrypted with that workspace's key, no route).
 */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Who uploaded it; null for files the system made (an invoice issued by a job). */
    ownerUserId: uuid('owner_user_id'),
    /** Set for private files only: the workspace whose key encrypts them and who may read them. */
    workspaceId: uuid('workspace_id'),
    purpose: text('purpose').notNull(),
    contentType: text('content_type').notNull(),
    /** Of the original bytes (a private file's stored bytes add the iv and tag). */
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('files_workspace_idx').on(t.workspaceId)],
);
