import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { billingAddressColumns } from '../../platform/db/columns';
// Foreign keys only.
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** Patient of spec §3. `assignedTherapistId` is the owner for "is owner" permissions. */
export const patients = pgTable(
  'patients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    assignedTherapistId: uuid('assigned_therapist_id').references(() => users.id, { onDelete: 'set null' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    email: text('email'),
    phone: text('phone'),
    birthdate: date('birthdate', { mode: 'string' }),
    gender: text('gender'),
    pictureFileId: uuid('picture_file_id'),
    ...billingAddressColumns(),
    treatmentStatus: text('treatment_status', { enum: ['active', 'paused', 'inactive'] })
      .notNull()
      .default('active'),
    treatmentStartDate: date('treatment_start_date', { mode: 'string' }),
    treatmentEndDate: date('treatment_end_date', { mode: 'string' }),
    treatmentEndingReason: text('treatment_ending_reason'),
    treatmentMotive: text('treatment_motive'),
    treatmentSessionType: text('treatment_session_type'),
    /** Free clinical text: encrypted with the workspace's key (patient-medication.ts). */
    treatmentMedicationEnc: text('treatment_medication_enc'),
    treatmentReferralSource: text('treatment_referral_source'),
    insuranceCompany: text('insurance_company'),
    insurancePolicy: text('insurance_policy'),
    sessionPrice: integer('session_price'),
    sessionModality: text('session_modality'),
    /** Lower-case, accent-free name, email and phone: what search matches (trigram index). No clinical or billing data: everyone who lists patients searches it. */
    searchText: text('search_text').notNull(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Last change to the clinical file: starts the legal retention period. */
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when deletion was asked inside the retention period: hidden, kept, erasable later. */
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
  },
  (t) => [
    index('patients_workspace_status_name_idx').on(t.workspaceId, t.treatmentStatus, t.lastName, t.firstName),
    index('patients_workspace_name_idx').on(t.workspaceId, t.lastName, t.firstName),
    index('patients_workspace_therapist_idx').on(t.workspaceId, t.assignedTherapistId, t.treatmentStatus),
    // fastupdate off: new patients go straight into the index, so searches never scan a pending list.
    index('patients_search_trgm_idx')
      .using('gin', sql`${t.searchText} gin_trgm_ops`)
      .with({ fastupdate: false }),
    // Search by tax id, for those who read billing data only (patients.repository.ts `list`).
    index('patients_tax_id_trgm_idx')
      .using('gin', sql`${t.billingTaxId} gin_trgm_ops`)
      .with({ fastupdate: false }),
  ],
);
export type PatientRow = typeof patients.$inferSelect;

/** Clinical history entries; title and body are encrypted (AES-256-GCM, a key per workspace). */
export const historyEntries = pgTable(
  'history_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id').notNull(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id').notNull(),
    entryDate: date('entry_date', { mode: 'string' }).notNull(),
    titleEnc: text('title_enc').notNull(),
    bodyEnc: text('body_enc').notNull(),
    private: boolean('private').notNull().default(false),
    /**
     * The session this entry is the note of ("Escribir nota" from a session), written through the
     * sessions module, which checks the session is this patient's. No foreign key: the history outlives
     * a session's deletion, and a series edit never deletes a session that has its note.
     */
    sessionId: uuid('session_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * A deleted entry is a tombstone: hidden from every list, count, read and export, but kept with its
     * revisions until the patient's retention period ends (the patient's erasure removes it by cascade).
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by'),
  },
  (t) => [
    index('history_entries_patient_idx').on(t.patientId, t.entryDate),
    // One live note per session; the calendar asks which sessions have theirs.
    uniqueIndex('history_entries_session_key')
      .on(t.sessionId)
      .where(sql`${t.sessionId} is not null and ${t.deletedAt} is null`),
  ],
);

/** Earlier versions of an entry, kept on every edit. */
export const historyRevisions = pgTable(
  'history_revisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Its entry's workspace (no foreign key, like the entry's). */
    workspaceId: uuid('workspace_id').notNull(),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => historyEntries.id, { onDelete: 'cascade' }),
    editorId: uuid('editor_id').notNull(),
    entryDate: date('entry_date', { mode: 'string' }).notNull(),
    titleEnc: text('title_enc').notNull(),
    bodyEnc: text('body_enc').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('history_revisions_entry_idx').on(t.entryId, t.createdAt)],
);

/**
 * An entry being written or edited and not yet saved, kept on the server (browser storage on a shared
 * computer is readable by the next user): one per author, patient and entry (null: a new entry), private
 * to its author, its fields encrypted together like entries. Gone when the entry is saved or the draft
 * discarded; swept after `HISTORY_DRAFT_TTL_DAYS` without changes.
 */
export const historyDrafts = pgTable(
  'history_drafts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id').notNull(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    entryId: uuid('entry_id').references(() => historyEntries.id, { onDelete: 'cascade' }),
    /** `{title, date, body, private}` as JSON, encrypted. */
    contentEnc: text('content_enc').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('history_drafts_author_entry_key').on(t.workspaceId, t.patientId, t.authorId, t.entryId).nullsNotDistinct(),
    index('history_drafts_updated_idx').on(t.updatedAt),
  ],
);

/** Every read of a patient's clinical data: who, when, which patient, what. Kept after erasure. */
export const clinicalAccessLog = pgTable(
  'clinical_access_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id').notNull(),
    patientId: uuid('patient_id').notNull(),
    patientName: text('patient_name').notNull(),
    userId: uuid('user_id').notNull(),
    action: text('action').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('clinical_access_log_workspace_idx').on(t.workspaceId, t.createdAt),
    index('clinical_access_log_patient_idx').on(t.patientId, t.createdAt),
  ],
);
