import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import type { ConsentDataField, ConsentSection, ConsentSignatures } from '@divan/core';
// Foreign keys only.
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * A workspace's consent template: its identity, which version is current, and what the list searches
 * and sorts by. What it says lives in its versions. Deleting one archives it: a sent consent still
 * reads the version it was sent with.
 */
export const consentTemplates = pgTable(
  'consent_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    currentVersion: integer('current_version').notNull(),
    /** The current version's name and document title, for the list. */
    name: text('name').notNull(),
    documentTitle: text('document_title').notNull(),
    /** Lower-case, accent-free name and document title: what search matches. */
    searchText: text('search_text').notNull(),
    /** The ready-made template it was copied from. */
    readyMadeKey: text('ready_made_key'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    archivedBy: uuid('archived_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('consent_templates_workspace_name_idx').on(t.workspaceId, t.name),
    index('consent_templates_workspace_updated_idx').on(t.workspaceId, t.updatedAt),
    index('consent_templates_search_trgm_idx')
      .using('gin', sql`${t.searchText} gin_trgm_ops`)
      .with({ fastupdate: false }),
  ],
);
export type ConsentTemplateRow = typeof consentTemplates.$inferSelect;

/** The therapist's signature a version carries: the PNG, who drew it and when. */
export type StoredTherapistSignature = { image: string; signedBy: string | null; signedAt: string };

/** What a version says, frozen: the text a consent sent with it shows and is sealed with. */
export type ConsentTemplateVersionContent = {
  name: string;
  documentTitle: string;
  data: Record<'patient' | 'guardian' | 'secondGuardian', ConsentDataField[]>;
  sections: ConsentSection[];
  signatures: ConsentSignatures;
  therapistSignature: StoredTherapistSignature | null;
};

/**
 * Every version of every template, numbered from 1 per template. A version never changes once
 * written (a trigger refuses UPDATE: drizzle/0026_consent_templates.sql); a new edit is a new row.
 */
export const consentTemplateVersions = pgTable(
  'consent_template_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    templateId: uuid('template_id')
      .notNull()
      .references(() => consentTemplates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    content: jsonb('content').$type<ConsentTemplateVersionContent>().notNull(),
    /** No foreign key: a frozen row is never updated, not even to forget an erased user. */
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('consent_template_versions_template_version_key').on(t.workspaceId, t.templateId, t.version)],
);
export type ConsentTemplateVersionRow = typeof consentTemplateVersions.$inferSelect;
