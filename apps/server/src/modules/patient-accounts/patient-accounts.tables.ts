import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only.
import { patients } from '../patients/patients.tables';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** A patient's own account (realm `patients`): separate from therapists' users; signs in with a mailed code. */
export const patientAccounts = pgTable(
  'patient_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Lower-case (the contracts' email field). */
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('patient_accounts_email_key').on(t.email)],
);
export type PatientAccountRow = typeof patientAccounts.$inferSelect;

/**
 * A patient file's connection, one row per file: invited (a link token's keyed hash, the email it was
 * sent to) until the patient accepts, then connected to an account. Re-inviting replaces the link;
 * disconnecting, from either side, deletes the row.
 */
export const patientConnections = pgTable(
  'patient_connections',
  {
    patientId: uuid('patient_id')
      .primaryKey()
      .references(() => patients.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    tokenHash: text('token_hash'),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull().defaultNow(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    inviteExpiresAt: timestamp('invite_expires_at', { withTimezone: true }).notNull(),
    accountId: uuid('account_id').references(() => patientAccounts.id, { onDelete: 'cascade' }),
    connectedAt: timestamp('connected_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('patient_connections_token_key')
      .on(t.tokenHash)
      .where(sql`${t.tokenHash} IS NOT NULL`),
    index('patient_connections_account_idx').on(t.accountId),
  ],
);
export type PatientConnectionRow = typeof patientConnections.$inferSelect;
