import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only: the auth module reads users through the users service.
import { users } from '../../users/users.tables';

/**
 * A therapist's passkeys (WebAuthn credentials, issue 32): several per person, each with a name. The public key is
 * the COSE key (base64url) the authenticator gave at registration; `counter` is its signature counter, refused when it
 * goes back (a cloned authenticator), except for authenticators that always say 0.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** base64url, as the browser sends it back. */
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default([]),
    name: text('name').notNull(),
    /** `singleDevice` or `multiDevice` (a synced passkey). */
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential_id_key').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/**
 * WebAuthn challenges: only a keyed hash of the challenge, used once, within 5 minutes. `userId` is null for a sign-in
 * with a passkey alone (a discoverable credential names its user).
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    challengeHash: text('challenge_hash').notNull(),
    purpose: text('purpose', { enum: ['register', 'sign_in', 'second_factor', 'step_up'] }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webauthn_challenges_hash_key').on(t.challengeHash), index('webauthn_challenges_expires_idx').on(t.expiresAt)],
);
