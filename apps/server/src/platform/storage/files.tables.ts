import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Stored blobs (pictures, logos, later documents); the bytes live behind the storage interface. */
export const files = pgTable('files', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerUserId: uuid('owner_user_id').notNull(),
  purpose: text('purpose').notNull(),
  contentType: text('content_type').notNull(),
  size: integer('size').notNull(),
  storageKey: text('storage_key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
