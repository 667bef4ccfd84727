import { bigserial, date, index, integer, numeric, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { workspaceColumn } from '../../platform/db/columns';
// Foreign keys only.
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * The statistics' summary of sessions (issue 28): per workspace, therapist and local month (Madrid),
 * what the tabs sum — kept by the debounced refresh of `session-month-stats.ts`, never written by hand.
 * A month is used only while no write is pending for it in `session_stats_dirty`: otherwise its
 * sessions are read raw, so a read through the summary always equals the rows (docs/decisions/0027-statistics-summary.md).
 */
export const sessionMonthStats = pgTable(
  'session_month_stats',
  {
    workspaceId: workspaceColumn(workspaces),
    therapistId: uuid('therapist_id').notNull(),
    /** The local month's first day. */
    month: date('month', { mode: 'string' }).notNull(),
    scheduled: integer('scheduled').notNull(),
    pending: integer('pending').notNull(),
    completed: integer('completed').notNull(),
    canceled: integer('canceled').notNull(),
    byPatient: integer('by_patient').notNull(),
    byTherapist: integer('by_therapist').notNull(),
    late: integer('late').notNull(),
    noShow: integer('no_show').notNull(),
    noReason: integer('no_reason').notNull(),
    online: integer('online').notNull(),
    presential: integer('presential').notNull(),
    /** Minutes of the sessions not canceled, unrounded (rounded once, after adding months up). */
    bookedMinutes: numeric('booked_minutes').notNull(),
    /** Cents of the completed sessions: the therapists' fees and the workspace's commission. */
    feeCents: integer('fee_cents').notNull(),
    commissionCents: integer('commission_cents').notNull(),
    uninvoiced: integer('uninvoiced').notNull(),
    uninvoicedCents: integer('uninvoiced_cents').notNull(),
    pendingCents: integer('pending_cents').notNull(),
    /** Sessions not canceled by weekday and hour: 168 cells, (ISO weekday − 1) × 24 + hour. */
    heat: integer('heat').array().notNull(),
    /** Sessions by day of the month and state: 93 cells, (day − 1) × 3 + (completed 0, pending 1, canceled 2). */
    days: integer('days').array().notNull(),
  },
  (t) => [primaryKey({ name: 'session_month_stats_pkey', columns: [t.workspaceId, t.month, t.therapistId] })],
);

/**
 * The months whose summary is stale: one row per write that touched a workspace's month, appended by
 * the triggers on `sessions` (migration 0051) — every writer, whatever its module. No key to collide
 * on, so writers never wait for each other; the refresh deletes the rows it saw.
 */
export const sessionStatsDirty = pgTable(
  'session_stats_dirty',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    workspaceId: uuid('workspace_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
  },
  (t) => [index('session_stats_dirty_workspace_idx').on(t.workspaceId, t.month)],
);
