import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only.
import { sessions } from '../../sessions/sessions.tables';
import { users } from '../../users/users.tables';
import { workspaces } from '../../workspaces/workspaces.tables';
import { invoices } from '../invoices.tables';

/**
 * A member's invoicing settings in one workspace (plans are per workspace): «Facturas automáticas al
 * completar una sesión» (Advance and Team plans), off by default.
 */
export const invoiceMemberSettings = pgTable(
  'invoice_member_settings',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    autoInvoice: boolean('auto_invoice').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
);

/**
 * One row per session the automatic-invoice job handled: claimed in the transaction that issues its
 * invoice (a retried job or a session completed twice finds it and stops), or written afterwards with
 * the Spanish reason when no invoice could be issued (missing billing data…), for the settings screen.
 */
export const invoiceAutoRuns = pgTable(
  'invoice_auto_runs',
  {
    sessionId: uuid('session_id')
      .primaryKey()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    therapistId: uuid('therapist_id').notNull(),
    status: text('status', { enum: ['issued', 'skipped'] }).notNull(),
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('invoice_auto_runs_member_idx').on(t.workspaceId, t.therapistId, t.createdAt),
    check('invoice_auto_runs_outcome', sql`(${t.status} = 'issued') = (${t.reason} is null)`),
  ],
);
export type InvoiceAutoRunRow = typeof invoiceAutoRuns.$inferSelect;
