import { boolean, date, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import type { BookingPayment, BookingServiceStatus, Modality, Timespan, WeeklySchedule } from '@divan/core';
// Foreign keys only.
import { locations } from '../sessions/sessions.tables';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * A therapist's booking service (spec §3): what the public booking page offers — a weekly schedule of
 * local time ranges in `time_zone`, duration, gap, notice, price and modality. `therapist_id` is the
 * owner for "is owner" permissions (subject `public_services`).
 */
export const bookingServices = pgTable(
  'booking_services',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    therapistId: uuid('therapist_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    schedule: jsonb('schedule').$type<WeeklySchedule>().notNull(),
    timeZone: text('time_zone').notNull(),
    priceCents: integer('price_cents').notNull(),
    modality: text('modality').$type<Modality>().notNull(),
    locationId: uuid('location_id').references(() => locations.id, { onDelete: 'set null' }),
    durationMinutes: integer('duration_minutes').notNull(),
    gapMinutes: integer('gap_minutes').notNull().default(0),
    minNotice: jsonb('min_notice').$type<Timespan>().notNull(),
    maxNotice: jsonb('max_notice').$type<Timespan>().notNull(),
    reminders: jsonb('reminders').$type<number[]>().notNull(),
    allowNewPatients: boolean('allow_new_patients').notNull().default(true),
    bookingLimitPerPatient: integer('booking_limit_per_patient'),
    status: text('status').$type<BookingServiceStatus>().notNull().default('active'),
    payment: text('payment').$type<BookingPayment>().notNull().default('none'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The unique key also serves the therapist's list (by title).
  (t) => [unique('booking_services_title_key').on(t.workspaceId, t.therapistId, t.title)],
);
export type BookingServiceRow = typeof bookingServices.$inferSelect;

/**
 * A blocked day, or a blocked range of a day (spec §3 "availability override"), in the therapist's
 * local time: public booking offers no slot there. One per therapist and day (a day reads as one thing).
 */
export const availabilityOverrides = pgTable(
  'availability_overrides',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    therapistId: uuid('therapist_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    allDay: boolean('all_day').notNull().default(true),
    fromTime: text('from_time'),
    toTime: text('to_time'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('availability_overrides_day_key').on(t.workspaceId, t.therapistId, t.day)],
);
export type AvailabilityOverrideRow = typeof availabilityOverrides.$inferSelect;
