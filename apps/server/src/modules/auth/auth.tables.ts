import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only: the auth module reads users through the users service, never this table.
import { users } from '../users/users.tables';

/** One signed-in device: the refresh tokens of a device rotate inside it (spec §3 device info). */
export const deviceSessions = pgTable(
  'device_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    realm: text('realm').notNull().default('therapists'),
    appVersion: text('app_version').notNull(),
    deviceManufacturer: text('device_manufacturer').notNull(),
    deviceModel: text('device_model').notNull(),
    platformType: text('platform_type').notNull(),
    platformVersion: text('platform_version').notNull(),
    userAgent: text('user_agent').notNull(),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('device_sessions_user_idx').on(t.userId)],
);

/** Refresh tokens, stored as SHA-256 hashes. A rotated token presented again revokes its session. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => deviceSessions.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

/**
 * Login codes, sign-up confirmation links and password-reset links. `secretHash` is an HMAC of the
 * code or token; links are looked up by it, codes by the challenge id.
 */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['login', 'signup', 'password'] }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('auth_challenges_user_kind_idx').on(t.userId, t.kind, t.createdAt),
    uniqueIndex('auth_challenges_link_key').on(t.secretHash).where(sql`${t.kind} <> 'login'`),
  ],
);
