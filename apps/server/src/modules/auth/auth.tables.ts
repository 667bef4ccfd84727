import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only: the auth module reads users through the users service, never this table.
import { users } from '../users/users.tables';
import { patientAccounts } from '../patient-accounts/patient-accounts.tables';

/** Exactly one subject: a therapist's user (realm `therapists`) or a patient's account (realm `patients`). */
const oneSubject = (t: { userId: unknown; patientAccountId: unknown }) => sql`(${t.userId} IS NULL) <> (${t.patientAccountId} IS NULL)`;

/** One signed-in device: the refresh tokens of a device rotate inside it (spec §3 device info). */
export const deviceSessions = pgTable(
  'device_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    patientAccountId: uuid('patient_account_id').references(() => patientAccounts.id, { onDelete: 'cascade' }),
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
    /** When the session last proved a second factor: its sign-in, or a step-up since (issue 32). */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('device_sessions_user_idx').on(t.userId),
    index('device_sessions_patient_account_idx').on(t.patientAccountId),
    check('device_sessions_one_subject', oneSubject(t)),
  ],
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
 * Login codes (therapists' and patients'), sign-up confirmation links and password-reset links; `second_factor`: a
 * sign-in past its password awaiting the authenticator's code (no mailed secret: `secretHash` is random). `secretHash` is an HMAC of the
 * code or token; links are looked up by it, codes by the challenge id.
 */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['login', 'signup', 'password', 'patient_login', 'second_factor'] }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    patientAccountId: uuid('patient_account_id').references(() => patientAccounts.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('auth_challenges_user_kind_idx').on(t.userId, t.kind, t.createdAt),
    index('auth_challenges_patient_account_idx').on(t.patientAccountId, t.kind, t.createdAt),
    // Codes are found by challenge id, links by their hash.
    uniqueIndex('auth_challenges_link_key')
      .on(t.secretHash)
      .where(sql`${t.kind} <> 'login' AND ${t.kind} <> 'patient_login'`),
    check('auth_challenges_one_subject', oneSubject(t)),
  ],
);
