import { bigserial, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { patientColumn, workspaceColumn } from '../../platform/db/columns';
import type { ConsentDataField, ConsentEnvelopeState, ConsentSignerRole, ConsentVariable, MinorExceptionReason } from '@divan/core';
// Foreign keys only.
import { patientDocuments } from '../documents/documents.tables';
import { patients } from '../patients/patients.tables';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { consentTemplateVersions, consentTemplates } from './consent-templates.tables';

/**
 * A sent consent: a frozen template version, the values its variables had when it was sent, and
 * its state. The text shown is the version's, filled with `variables`: it never changes after sending.
 */
export const consentEnvelopes = pgTable(
  'consent_envelopes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(workspaces),
    patientId: patientColumn(patients),
    templateId: uuid('template_id')
      .notNull()
      .references(() => consentTemplates.id),
    /** The version it was sent with: a version in use cannot be deleted (no action, checked at the statement's end, so a workspace's erasure still goes). */
    templateVersionId: uuid('template_version_id')
      .notNull()
      .references(() => consentTemplateVersions.id),
    templateVersion: integer('template_version').notNull(),
    /** Who sent it: the owner for "is owner" permissions. */
    therapistId: uuid('therapist_id').references(() => users.id, { onDelete: 'set null' }),
    state: text('state').$type<ConsentEnvelopeState>().notNull().default('sent'),
    variables: jsonb('variables').$type<Record<ConsentVariable, string | null>>().notNull(),
    /** The document's title as filled, for lists. */
    documentTitle: text('document_title').notNull(),
    /** SHA-256 (hex) of the document as shown to signers (title, sections, checkboxes). */
    documentSha256: text('document_sha256').notNull(),
    minorException: jsonb('minor_exception').$type<{ reason: MinorExceptionReason; otherGuardianInformed: boolean } | null>(),
    /** The sending therapist's own signature, when the template says the therapist signs (never another member's). */
    therapistSignature: jsonb('therapist_signature').$type<{ image: string } | null>(),
    /** The sealed PDF among the patient's documents. */
    documentId: uuid('document_id').references(() => patientDocuments.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by'),
  },
  (t) => [
    index('consent_envelopes_workspace_sent_idx').on(t.workspaceId, t.sentAt),
    index('consent_envelopes_patient_idx').on(t.patientId, t.sentAt),
    index('consent_envelopes_state_idx').on(t.state, t.sentAt),
  ],
);
export type EnvelopeRow = typeof consentEnvelopes.$inferSelect;

export type StoredSignature = { kind: 'drawn'; png: string } | { kind: 'typed'; name: string };

/** Who must sign an envelope, each with their own link (only its SHA-256 kept) and, once signed, what they gave. */
export const consentSigners = pgTable(
  'consent_signers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(workspaces),
    envelopeId: uuid('envelope_id')
      .notNull()
      .references(() => consentEnvelopes.id, { onDelete: 'cascade' }),
    role: text('role').$type<ConsentSignerRole>().notNull(),
    /** Signing order (the first guardian before the second). */
    position: integer('position').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** The data asked of this signer, frozen at sending. */
    asked: jsonb('asked').$type<ConsentDataField[]>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    openedAt: timestamp('opened_at', { withTimezone: true }),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    /** The data they gave (JSON), encrypted with the workspace's key: ID numbers, addresses (consent-signer-secrets.ts). */
    dataEnc: text('data_enc'),
    checkboxes: jsonb('checkboxes').$type<number[]>(),
    /** Their signature (JSON: a drawn PNG or a typed name), encrypted like `dataEnc`. */
    signatureEnc: text('signature_enc'),
  },
  (t) => [
    unique('consent_signers_envelope_role_key').on(t.workspaceId, t.envelopeId, t.role),
    index('consent_signers_unsigned_idx').on(t.signedAt, t.expiresAt),
  ],
);
export type SignerRow = typeof consentSigners.$inferSelect;

export const CONSENT_EVENT_TYPES = ['created', 'sent', 'opened', 'signed', 'completed', 'revoked', 'reminded'] as const;
export type ConsentEventType = (typeof CONSENT_EVENT_TYPES)[number];

/**
 * The evidence trail: append-only in the database (a trigger refuses UPDATE and DELETE, except the
 * cascade of erasing its envelope with the patient: drizzle/0027_consent_envelopes.sql).
 */
export const consentEnvelopeEvents = pgTable(
  'consent_envelope_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Its envelope's workspace. No foreign key of its own: an event goes only with its envelope (the trigger above). */
    workspaceId: uuid('workspace_id').notNull(),
    envelopeId: uuid('envelope_id')
      .notNull()
      .references(() => consentEnvelopes.id, { onDelete: 'cascade' }),
    type: text('type').$type<ConsentEventType>().notNull(),
    signerRole: text('signer_role').$type<ConsentSignerRole>(),
    /** Who acted, as a name (a signer) or the member's id (in details). */
    actor: text('actor'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    documentSha256: text('document_sha256').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('consent_envelope_events_envelope_idx').on(t.envelopeId, t.id)],
);
export type EnvelopeEventRow = typeof consentEnvelopeEvents.$inferSelect;
