import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only: the auth module reads users through the users service, never this table.
import { users } from '../../users/users.tables';
import { authChallenges } from '../auth.tables';

/** A therapist's account at a social provider: the key is `(provider, subject)`, never the email (Apple's relay differs per app). */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['google', 'apple'] }).notNull(),
    /** The provider's `sub` claim. */
    subject: text('subject').notNull(),
    /** The provider's email at the last sign-in (shown in Ajustes › Seguridad; never used to find the account). */
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('user_identities_provider_subject_key').on(t.provider, t.subject), index('user_identities_user_idx').on(t.userId)],
);

/**
 * A started authorization at a provider: the `state` (stored as an HMAC), the PKCE verifier and the nonce, used once.
 * `purpose` says what the answer does: sign in, sign up, or (signed in, `userId` set) link another provider.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    provider: text('provider', { enum: ['google', 'apple'] }).notNull(),
    purpose: text('purpose', { enum: ['login', 'signup', 'link'] }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    /** A colleague's invitation code brought to the sign-up page. */
    referralCode: text('referral_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('oauth_states_expires_idx').on(t.expiresAt)],
);

/**
 * A provider identity whose verified email matches an existing account: linked only once the account's owner types the
 * code mailed to that account (`challengeId`, a login code of the therapists' realm).
 */
export const pendingIdentityLinks = pgTable(
  'pending_identity_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['google', 'apple'] }).notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    challengeId: uuid('challenge_id')
      .notNull()
      .references(() => authChallenges.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('pending_identity_links_user_idx').on(t.userId), index('pending_identity_links_expires_idx').on(t.expiresAt)],
);
