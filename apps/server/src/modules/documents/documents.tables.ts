import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only.
import { patients } from '../patients/patients.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * A patient's documents. The bytes live behind the storage interface, encrypted with the
 * workspace key (iv | ciphertext | tag); `size` is the original file's.
 */
export const patientDocuments = pgTable(
  'patient_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull(),
    /** Shared with the patient (companion app, later). */
    shared: boolean('shared').notNull().default(false),
    uploadedBy: uuid('uploaded_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * A deleted document is a tombstone: hidden everywhere, its row and its encrypted bytes kept until
     * the patient's retention period ends (a document is part of the clinical record, kept 5 years by
     * Ley 41/2002 art. 17); the patient's erasure removes both.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by'),
  },
  (t) => [index('patient_documents_patient_idx').on(t.patientId, t.createdAt)],
);
export type DocumentRow = typeof patientDocuments.$inferSelect;

/** Tags shared by the whole workspace; one tag per name, ignoring case. */
export const documentTags = pgTable(
  'document_tags',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The name lower-cased in JavaScript: the database's lower() depends on its locale. */
    nameKey: text('name_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('document_tags_workspace_name_idx').on(t.workspaceId, t.nameKey)],
);

export const documentTagLinks = pgTable(
  'document_tag_links',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => patientDocuments.id, { onDelete: 'cascade' }),
    tagId: uuid('tag_id')
      .notNull()
      .references(() => documentTags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.tagId] }), index('document_tag_links_tag_idx').on(t.tagId)],
);
