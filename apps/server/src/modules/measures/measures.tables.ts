import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { MeasureCadence, MeasureKey, MeasureScheduleStatus, MeasureStatus } from '@divan/core';
import { patientColumn, workspaceColumn } from '../../platform/db/columns';
// Foreign keys only.
import { patients } from '../patients/patients.tables';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * One administration of an outcome measure (issue 32): sent to the patient by a single-use link, or
 * administered in session by the therapist. The answers and scores are clinical data: one JSON,
 * encrypted with the workspace's key (measure-result.ts), never in clear. The risk flag stays in
 * clear so the therapist's unreviewed flags are found without decrypting every result.
 */
export const measureAdministrations = pgTable(
  'measure_administrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(workspaces),
    patientId: patientColumn(patients),
    /** Who sent or administered it. */
    therapistId: uuid('therapist_id').references(() => users.id, { onDelete: 'set null' }),
    measure: text('measure').$type<MeasureKey>().notNull(),
    /** `link`: answered by the patient; `session`: entered by the therapist. */
    mode: text('mode').$type<'link' | 'session'>().notNull(),
    status: text('status').$type<MeasureStatus>().notNull(),
    /** SHA-256 of the link's token (the token is an HMAC of the id; measure-links.ts). Null in session. */
    tokenHash: text('token_hash').unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** `{answers, scores}` as JSON, encrypted with the workspace's key, bound to this row. */
    resultEnc: text('result_enc'),
    riskFlagged: boolean('risk_flagged').notNull().default(false),
    riskReviewedAt: timestamp('risk_reviewed_at', { withTimezone: true }),
    riskReviewedBy: uuid('risk_reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('measure_administrations_patient_idx').on(t.patientId, t.measure, t.completedAt),
    index('measure_administrations_pending_idx').on(t.status, t.sentAt),
    index('measure_administrations_flags_idx').on(t.workspaceId, t.riskFlagged, t.riskReviewedAt),
  ],
);
export type AdministrationRow = typeof measureAdministrations.$inferSelect;

/**
 * A measure sent by itself ahead of the patient's sessions (issue 32): before each, every other, or
 * every N weeks. The hourly sweep sends it MEASURE_SCHEDULE_HOURS_BEFORE before a pending session,
 * claiming schedule + session once (job_claims), so a retried sweep or a second process sends nothing
 * twice. One open (active or paused) schedule per patient and measure; a stopped one stays as history.
 */
export const measureSchedules = pgTable(
  'measure_schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(workspaces),
    patientId: patientColumn(patients),
    /** Who set it: the sent administrations are theirs. */
    therapistId: uuid('therapist_id').references(() => users.id, { onDelete: 'set null' }),
    measure: text('measure').$type<MeasureKey>().notNull(),
    cadence: text('cadence').$type<MeasureCadence>().notNull(),
    everyWeeks: integer('every_weeks'),
    status: text('status').$type<MeasureScheduleStatus>().notNull().default('active'),
    /** Sessions the schedule has passed (sent or skipped), for «every other». */
    sessionsCounted: integer('sessions_counted').notNull().default(0),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('measure_schedules_open_key')
      .on(t.workspaceId, t.patientId, t.measure)
      .where(sql`${t.status} <> 'stopped'`),
    index('measure_schedules_active_idx').on(t.status, t.id),
  ],
);
export type ScheduleRow = typeof measureSchedules.$inferSelect;
