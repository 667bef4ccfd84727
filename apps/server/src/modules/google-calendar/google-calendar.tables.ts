import { index, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { workspaceColumn } from '../../platform/db/columns';
// Foreign keys only.
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * A therapist's Google Calendar in a workspace (spec §2 integrations). The refresh token and the
 * access token are encrypted with the workspace's data key, like clinical text; disconnecting deletes
 * the row and, through the cascades, every calendar, block and mapping of it.
 */
export const googleCalendarConnections = pgTable(
  'google_calendar_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(workspaces),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    googleEmail: text('google_email'),
    /** Encrypted (workspace data key). */
    refreshToken: text('refresh_token').notNull(),
    /** Encrypted; null until the first refresh. */
    accessToken: text('access_token'),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
    /** The dedicated «Diván» calendar sessions go to (created at connection). */
    divanCalendarId: text('divan_calendar_id'),
    titleFormat: text('title_format', { enum: ['initials', 'first_name', 'full_name', 'generic'] })
      .notNull()
      .default('initials'),
    /** When the therapist asked for the future sessions existing before connecting to be sent too. */
    existingSyncedAt: timestamp('existing_synced_at', { withTimezone: true }),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
  },
  (t) => [unique('google_calendar_connections_member_key').on(t.workspaceId, t.userId)],
);
export type GoogleConnectionRow = typeof googleCalendarConnections.$inferSelect;

/** An OAuth round trip under way: the state hashed (tokens.hashSecret), used once, 10 minutes. */
export const googleOauthStates = pgTable('google_oauth_states', {
  stateHash: text('state_hash').primaryKey(),
  workspaceId: workspaceColumn(workspaces),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  codeVerifier: text('code_verifier').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * A calendar of the account whose busy times block the therapist's time: its incremental sync token
 * and its push channel (the channel's token kept hashed).
 */
export const googleBusyCalendars = pgTable(
  'google_busy_calendars',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(workspaces),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => googleCalendarConnections.id, { onDelete: 'cascade' }),
    calendarId: text('calendar_id').notNull(),
    syncToken: text('sync_token'),
    channelId: text('channel_id'),
    channelTokenHash: text('channel_token_hash'),
    channelResourceId: text('channel_resource_id'),
    channelExpiresAt: timestamp('channel_expires_at', { withTimezone: true }),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
  },
  (t) => [
    unique('google_busy_calendars_connection_calendar_key').on(t.workspaceId, t.connectionId, t.calendarId),
    unique('google_busy_calendars_channel_key').on(t.channelId),
  ],
);
export type GoogleBusyCalendarRow = typeof googleBusyCalendars.$inferSelect;

/** A busy time read from Google (never a session): one per (calendar, event). */
export const googleBusyBlocks = pgTable(
  'google_busy_blocks',
  {
    busyCalendarId: uuid('busy_calendar_id')
      .notNull()
      .references(() => googleBusyCalendars.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    workspaceId: workspaceColumn(workspaces),
    userId: uuid('user_id').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.busyCalendarId, t.eventId] }),
    index('google_busy_blocks_member_starts_idx').on(t.workspaceId, t.userId, t.startsAt),
  ],
);

/**
 * The stable session ↔ Google event mapping: one event per (connection, session), whatever the number
 * of jobs that ran. No foreign key to sessions: a deleted session's event is deleted from its row.
 */
export const googleSessionEvents = pgTable(
  'google_session_events',
  {
    workspaceId: workspaceColumn(workspaces),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => googleCalendarConnections.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id').notNull(),
    googleEventId: text('google_event_id').notNull(),
    etag: text('etag'),
    meetLink: text('meet_link'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.sessionId] }), index('google_session_events_session_idx').on(t.sessionId)],
);
export type GoogleSessionEventRow = typeof googleSessionEvents.$inferSelect;
