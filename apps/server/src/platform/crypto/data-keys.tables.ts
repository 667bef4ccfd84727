import { pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * One random data key per workspace (and one for the mail outbox), stored wrapped by the clinical
 * master key (AES-256-GCM, the scope and id as associated data). The master key is never stored
 * here; rotating it re-wraps these rows and leaves every ciphertext as it is.
 */
export const clinicalDataKeys = pgTable(
  'clinical_data_keys',
  {
    /** 16 hex characters, named in the header of every ciphertext made with this key. */
    id: text('id').primaryKey(),
    /** A workspace id, or a platform scope such as `divan:mail-outbox`. */
    scope: text('scope').notNull(),
    /** base64 of iv | tag | wrapped key. */
    wrappedKey: text('wrapped_key').notNull(),
    /** Which master key wraps it (a digest of the key, never the key). */
    masterKeyId: text('master_key_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    rewrappedAt: timestamp('rewrapped_at', { withTimezone: true }),
  },
  // One key per scope, so two processes creating a workspace's key at once end up with the same one.
  (t) => [uniqueIndex('clinical_data_keys_scope_uq').on(t.scope)],
);
