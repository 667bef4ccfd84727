import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ImportProgress } from '@divan/core';
// Foreign keys only.
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * A spreadsheet between its upload and the end of its import, so that any server process can take
 * the commit and answer the polls. The parsed rows are personal data: kept encrypted with the
 * workspace's key, and dropped once the import has run.
 */
export const patientImports = pgTable(
  'patient_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    columns: jsonb('columns').$type<string[]>().notNull(),
    /** AES-256-GCM of the rows' JSON (cells with their types); null once the import has run. */
    rowsEnc: text('rows_enc'),
    /** The user's column mapping, kept from the commit for the job that runs the import. */
    mapping: jsonb('mapping').$type<Record<string, number | null>>(),
    /** Null until the user commits a mapping. */
    progress: jsonb('progress').$type<ImportProgress>(),
    /** Written with every progress step: a running import silent for long lost its process. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('patient_imports_owner_idx').on(t.workspaceId, t.userId)],
);
export type PatientImportRow = typeof patientImports.$inferSelect;
