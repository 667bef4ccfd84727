import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only: the auth module reads users and workspaces through their services.
import { users } from '../../users/users.tables';
import { workspaces } from '../../workspaces/workspaces.tables';

/**
 * A therapist's authenticator app (TOTP, RFC 6238): the secret encrypted at rest (scope SECOND_FACTOR_KEY), enabled once
 * one code confirms it. `lastUsedStep` is the time step of the last code accepted: that code, and older ones, are refused.
 */
export const totpAuthenticators = pgTable('totp_authenticators', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEnc: text('secret_enc').notNull(),
  /** Null while enrolment awaits its confirming code. */
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Recovery codes: keyed hashes only, each used once; a regeneration deletes the previous set. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recovery_codes_hash_key').on(t.codeHash), index('recovery_codes_user_idx').on(t.userId)],
);

/** «Segundo factor obligatorio»: a row while the workspace requires one of every member. */
export const secondFactorPolicies = pgTable('second_factor_policies', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  enabledBy: uuid('enabled_by').references(() => users.id, { onDelete: 'set null' }),
  enabledAt: timestamp('enabled_at', { withTimezone: true }).notNull().defaultNow(),
});
