import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { VERIFACTU_SUBMISSION_STATES } from '@divan/core';
// Foreign key only: a submission belongs to one VERI*FACTU record (append-only, never deleted).
import { verifactuRecords } from '../../invoices.tables';

/**
 * The sending of each VERI*FACTU record to the AEAT (issue 11): one row per record once it has been
 * put in a submission. `pending` until the AEAT answers for it; `accepted` / `accepted_with_errors`
 * are final (never sent again); `rejected` stays for a person to see (never resent blindly).
 */
export const verifactuSubmissions = pgTable(
  'verifactu_submissions',
  {
    recordId: uuid('record_id')
      .primaryKey()
      .references(() => verifactuRecords.id, { onDelete: 'restrict' }),
    issuerTaxId: text('issuer_tax_id').notNull(),
    /** The record's position in its issuer's chain (the order of sending). */
    position: bigint('position', { mode: 'number' }).notNull(),
    invoiceId: uuid('invoice_id').notNull(),
    workspaceId: uuid('workspace_id').notNull(),
    state: text('state', { enum: VERIFACTU_SUBMISSION_STATES }).notNull().default('pending'),
    /** The AEAT's CSV of the submission that decided this record. */
    csv: text('csv'),
    /** The AEAT's CodigoErrorRegistro, or ours (verifactu_network…) while pending after a failure. */
    errorCode: text('error_code'),
    /** In Spanish: the AEAT's DescripcionErrorRegistro, or our message. */
    errorDescription: text('error_description'),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('verifactu_submissions_state_idx').on(t.issuerTaxId, t.state, t.position),
    index('verifactu_submissions_invoice_idx').on(t.invoiceId),
  ],
);
export type VerifactuSubmissionRow = typeof verifactuSubmissions.$inferSelect;

/**
 * Per issuer (NIF): how far its chain has been put into submissions, and when the next submission
 * may go (the AEAT's TiempoEsperaEnvio, or a backoff after a failure). `leaseUntil` marks a
 * submission in flight, so two processes never send the same issuer's records at once.
 */
export const verifactuSenders = pgTable('verifactu_senders', {
  issuerTaxId: text('issuer_tax_id').primaryKey(),
  /** Every record of the chain at or below this position has a submission row. */
  sentThrough: bigint('sent_through', { mode: 'number' }).notNull().default(0),
  notBefore: timestamp('not_before', { withTimezone: true }),
  /** Consecutive failed submissions (network, HTTP, SOAP fault): the backoff grows with them. */
  failures: integer('failures').notNull().default(0),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  lastError: text('last_error'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type VerifactuSenderRow = typeof verifactuSenders.$inferSelect;
