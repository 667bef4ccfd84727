import { bigserial, date, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { workspaceColumn } from '../../platform/db/columns';
// Foreign keys only.
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * The statistics' summary of invoices (issue 28): per workspace, local month (Madrid), seller, owner and
 * payment type, what the Facturación tab sums — issued in the month (by issue date; a rectifying
 * invoice by substitution adds its difference) and collected in it (by the instant paid). Kept by the
 * debounced refresh of `invoice-month-stats.ts`, never written by hand; a month is used only while no
 * write is pending for it in `invoice_stats_dirty` (docs/decisions/0027-statistics-summary.md).
 */
export const invoiceMonthStats = pgTable(
  'invoice_month_stats',
  {
    workspaceId: workspaceColumn(workspaces),
    /** The local month's first day. */
    month: date('month', { mode: 'string' }).notNull(),
    sellerType: text('seller_type', { enum: ['therapist', 'workspace'] }).notNull(),
    ownerId: uuid('owner_id').notNull(),
    /** The invoice's payment type, `other` when it has none (as the tab groups them). */
    paymentType: text('payment_type').notNull(),
    issuedCents: integer('issued_cents').notNull(),
    issuedCount: integer('issued_count').notNull(),
    collectedCents: integer('collected_cents').notNull(),
    collectedCount: integer('collected_count').notNull(),
  },
  (t) => [primaryKey({ name: 'invoice_month_stats_pkey', columns: [t.workspaceId, t.month, t.sellerType, t.ownerId, t.paymentType] })],
);

/**
 * The months whose invoice summary is stale: one row per statement and month it touched, appended by
 * the triggers on `invoices` (migration 0052) — every writer: issuing, paying, refunds, voiding.
 */
export const invoiceStatsDirty = pgTable(
  'invoice_stats_dirty',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    workspaceId: uuid('workspace_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
  },
  (t) => [index('invoice_stats_dirty_workspace_idx').on(t.workspaceId, t.month)],
);
