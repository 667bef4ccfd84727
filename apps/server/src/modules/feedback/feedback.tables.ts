import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only.
import { users } from '../users/users.tables';

/**
 * Comments users send to Diván's team from Ajustes → Ayuda: what they wrote, where they were and their
 * browser (both cut to 300 characters). They go with the account that wrote them.
 */
export const feedback = pgTable(
  'feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    page: text('page'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('feedback_user_idx').on(t.userId, t.createdAt)],
);
export type FeedbackRow = typeof feedback.$inferSelect;
