import { jsonb, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only.
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * The origins allowed to frame a workspace's public booking pages (spec §1: embedding depends on the
 * plan). One row per workspace, written by `PUT …/booking-embed`; none means no origin but Diván's.
 */
export const bookingEmbeds = pgTable('booking_embeds', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type BookingEmbedRow = typeof bookingEmbeds.$inferSelect;
