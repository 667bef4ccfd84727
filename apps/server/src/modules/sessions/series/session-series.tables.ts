import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenantColumns } from '../../../platform/db/columns';
// Foreign keys only.
import { patients } from '../../patients/patients.tables';
import { users } from '../../users/users.tables';
import { workspaces } from '../../workspaces/workspaces.tables';

/** What every occurrence of a series inherits (the `fields` of @divan/core/series' SeriesDefinition). */
export type SeriesFields = {
  therapistId: string;
  price: number;
  modality: 'presential' | 'online';
  locationId: string | null;
  reminders: number[];
  videoConference: 'own' | 'google_meet' | null;
};

/**
 * A recurring session series: the definition is the source of truth for series edits
 * (planSeriesEdit); its occurrences are ordinary `sessions` rows pointing back with their index and
 * the local day the series gave them. Ends either on a local day (inclusive) or after a count.
 */
export const sessionSeries = pgTable(
  'session_series',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ...tenantColumns({ workspaces, patients, users }),
    frequency: text('frequency', { enum: ['weekly', 'biweekly', 'monthly'] }).notNull(),
    startDay: date('start_day', { mode: 'string' }).notNull(),
    /** Local 'HH:mm' in `time_zone`. */
    startTime: text('start_time').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    timeZone: text('time_zone').notNull(),
    /** Monthly only: 1–4, or -1 for the last; null derives it from the start day. */
    monthlyWeek: integer('monthly_week'),
    untilDay: date('until_day', { mode: 'string' }),
    count: integer('count'),
    fields: jsonb('fields').$type<SeriesFields>().notNull(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('session_series_workspace_idx').on(t.workspaceId, t.patientId),
    check('session_series_one_end', sql`(${t.untilDay} is null) <> (${t.count} is null)`),
  ],
);
export type SessionSeriesRow = typeof sessionSeries.$inferSelect;
export type NewSessionSeries = typeof sessionSeries.$inferInsert;
