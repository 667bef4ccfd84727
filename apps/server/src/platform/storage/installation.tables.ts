import { sql } from 'drizzle-orm';
import { boolean, check, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The installation's id, one row: written by the first process that starts on a database, beside the
 * marker it leaves in the stored files (installation.ts), so a process whose DATA_DIR is not the one the
 * others write to sees it at start-up instead of failing on every download of a file it never had.
 */
export const installation = pgTable(
  'installation',
  {
    /** Always true: the primary key then allows a single row. */
    singleton: boolean('singleton').primaryKey().default(true),
    id: text('id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('installation_singleton', sql`${t.singleton}`)],
);
