import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only.
import { users } from '../../users/users.tables';
import { workspaces } from '../../workspaces/workspaces.tables';
import { sessions } from '../sessions.tables';

/**
 * One row per reminder handled: the session, the offset (minutes before) and the start it was planned
 * for. Claimed in the transaction that writes the mail to the outbox, so two processes (or a retried
 * job) never send the same reminder twice; a moved session has a new start, so its reminders are new
 * rows and go at the new time. `outcome` says what happened: sent, no email to send to, folded into
 * another reminder due at the same time, or beyond the plan when it fell due.
 */
export const sessionReminderSends = pgTable(
  'session_reminder_sends',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    offsetMinutes: integer('offset_minutes').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    outcome: text('outcome', { enum: ['sent', 'no_email', 'merged', 'over_plan'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.offsetMinutes, t.startsAt] })],
);

/**
 * A member's notification settings in one workspace (settings `notifications`): the reminders a new
 * session gets when created without any (minutes before; capped by the plan when used), and the mails
 * the therapist wants about their own agenda. No row: the defaults (one reminder a day before).
 */
export const memberNotificationSettings = pgTable(
  'member_notification_settings',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reminderOffsets: jsonb('reminder_offsets').$type<number[]>().notNull(),
    notifyPatientCanceled: boolean('notify_patient_canceled').notNull().default(true),
    notifyPatientBooked: boolean('notify_patient_booked').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    check('member_notification_settings_offsets_array', sql`jsonb_typeof(${t.reminderOffsets}) = 'array'`),
  ],
);
export type MemberNotificationSettingsRow = typeof memberNotificationSettings.$inferSelect;
