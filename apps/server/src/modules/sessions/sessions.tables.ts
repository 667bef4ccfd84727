import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { tenantColumns, workspaceColumn } from '../../platform/db/columns';
// Foreign keys only.
import { patients } from '../patients/patients.tables';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { sessionSeries } from './series/session-series.tables';

/** A workspace's rooms and addresses, where presential sessions happen. */
export const locations = pgTable(
  'locations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(workspaces),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['room', 'address'] })
      .notNull()
      .default('room'),
    address: text('address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('locations_workspace_idx').on(t.workspaceId, t.name)],
);
export type LocationRow = typeof locations.$inferSelect;

/**
 * Session of spec §3. Its time is kept as instants (`starts_at`, `ends_at`) plus the zone its day and
 * hours were given in, so a session at 18:00 in Madrid stays 18:00 there whatever the server's zone.
 * `therapist_id` is the owner for "is owner" permissions.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ...tenantColumns({ workspaces, patients, users }),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    timeZone: text('time_zone').notNull(),
    status: text('status', { enum: ['pending', 'completed', 'canceled'] })
      .notNull()
      .default('pending'),
    cancellationReason: text('cancellation_reason', { enum: ['patient', 'therapist', 'no_show', 'late'] }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Cents. */
    price: integer('price').notNull(),
    /** The therapist's fee for the session (its price less the workspace's commission), cents; null when their membership sets no commission. */
    fee: integer('fee'),
    paymentsReceiver: text('payments_receiver', { enum: ['therapist', 'workspace'] }).notNull(),
    paymentStatus: text('payment_status', { enum: ['pending', 'paid', 'refunded'] })
      .notNull()
      .default('pending'),
    paymentType: text('payment_type', { enum: ['cash', 'card', 'transfer', 'paypal', 'stripe_connect', 'other'] }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    modality: text('modality', { enum: ['presential', 'online'] }).notNull(),
    locationId: uuid('location_id').references(() => locations.id, { onDelete: 'set null' }),
    /** Minutes before the start, one per reminder. */
    reminders: jsonb('reminders').$type<number[]>().notNull().default([]),
    invoiced: boolean('invoiced').notNull().default(false),
    chargeDate: date('charge_date', { mode: 'string' }),
    videoConference: text('video_conference', { enum: ['own', 'google_meet'] }),
    /**
     * The series this session is an occurrence of, its index there (from 0) and the local day the series
     * gave it. What was changed by hand for it alone (moved, another price…) is the difference between
     * the row and its series, so the row stays the one truth of the session.
     */
    seriesId: uuid('series_id').references(() => sessionSeries.id, { onDelete: 'set null' }),
    seriesIndex: integer('series_index'),
    seriesOriginalDay: date('series_original_day', { mode: 'string' }),
    /**
     * The booking service it was booked through on the public page (spec §3 "public service flag");
     * null when booked in the app. No foreign key: the booking module's tables import these.
     */
    publicServiceId: uuid('public_service_id'),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // workspace_id first: shard-ready (db/shard-ready.test.ts); a series is one workspace's, so it is the same key.
    unique('sessions_series_index_key').on(t.workspaceId, t.seriesId, t.seriesIndex),
    // The calendar's range read, and the same per therapist (own scope, resource view, conflicts).
    // Migration 0050 rebuilt the first with INCLUDE (therapist, patient, status, cancellation reason,
    // modality, end, price, fee, invoiced), which drizzle cannot declare: the statistics' workspace-wide
    // sums read the index alone instead of every session's row.
    index('sessions_workspace_starts_idx').on(t.workspaceId, t.startsAt),
    index('sessions_workspace_therapist_starts_idx').on(t.workspaceId, t.therapistId, t.startsAt),
    index('sessions_patient_starts_idx').on(t.patientId, t.startsAt),
    check('sessions_ends_after_start', sql`${t.endsAt} > ${t.startsAt}`),
    index('sessions_location_starts_idx')
      .on(t.locationId, t.startsAt)
      .where(sql`${t.locationId} is not null`),
    // The reminders sweep (reminders/reminders.repository.ts): pending sessions with reminders, by start.
    // A patient's upcoming sessions booked through a service (the service's limit per patient).
    index('sessions_public_service_patient_idx')
      .on(t.publicServiceId, t.patientId, t.startsAt)
      .where(sql`${t.publicServiceId} is not null`),
    index('sessions_reminders_due_idx')
      .on(t.startsAt)
      .where(sql`${t.status} = 'pending' and ${t.reminders} <> '[]'::jsonb`),
  ],
);
export type SessionRow = typeof sessions.$inferSelect;
export type NewSession = typeof sessions.$inferInsert;
