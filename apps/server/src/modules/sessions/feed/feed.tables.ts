import { boolean, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only.
import { users } from '../../users/users.tables';
import { workspaces } from '../../workspaces/workspaces.tables';

/**
 * A therapist's private calendar feed in one workspace: the URL's token is kept only as its SHA-256
 * (the URL is shown once, when made); deleting the row revokes it, making a new one regenerates it.
 * Patients appear as initials unless `show_full_names`.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    showFullNames: boolean('show_full_names').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastReadAt: timestamp('last_read_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('calendar_feeds_token_key').on(t.tokenHash), uniqueIndex('calendar_feeds_member_key').on(t.workspaceId, t.userId)],
);
export type CalendarFeedRow = typeof calendarFeeds.$inferSelect;
