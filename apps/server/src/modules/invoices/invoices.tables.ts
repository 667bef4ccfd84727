import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { billingAddressColumns } from '../../platform/db/columns';
// Foreign keys only.
import { patients } from '../patients/patients.tables';
import { sessions } from '../sessions/sessions.tables';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/** A party of an invoice as printed on it (the seller's and the buyer's data are copied when it is issued). */
export type InvoiceParty = {
  kind: 'patient' | 'guardian' | 'company' | 'professional' | 'insurer' | 'therapist' | 'workspace';
  fullName: string;
  taxId: string | null;
  line1: string | null;
  line2: string | null;
  city: string | null;
  zipCode: string | null;
  country: string | null;
  email?: string | null;
  /** ISO 3166-1 alpha-2 of a buyer outside Spain (Diván's own invoices): VERI*FACTU names them by IDOtro, not by NIF. */
  countryCode?: string | null;
};

/** The therapist's own billing data (settings «Facturación»): who they invoice as when they receive payments. */
export const therapistBilling = pgTable(
  'therapist_billing',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...billingAddressColumns(),
    footer: text('footer'),
    /** Income-tax withholding applied when the buyer is a company or professional: 15 %, or 7 % in the first years. */
    withholdingRate: integer('withholding_rate').notNull().default(15),
    /** The prefix of their series ('' gives 2026-0001; the rectifying series is 'R' before it). */
    seriesPrefix: text('series_prefix').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('therapist_billing_withholding_rate', sql`${t.withholdingRate} in (7, 15)`)],
);

/**
 * Invoice of spec §3. A draft has no number and can be edited or deleted; issuing gives it the next
 * number of its seller's series in the same transaction, and from then on it is a legal record: only
 * its payment fields change (triggers in the migration refuse the rest, and its deletion).
 * `owner_id` is the therapist it belongs to, for "is owner"; `seller_key` names the seller whose series
 * and VERI*FACTU chain it joins (`user:<id>` or `workspace:<id>`).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'restrict' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id),
    sellerType: text('seller_type', { enum: ['therapist', 'workspace'] }).notNull(),
    sellerKey: text('seller_key').notNull(),
    patientId: uuid('patient_id').references(() => patients.id, { onDelete: 'set null' }),
    /** `voided`: an issued invoice cancelled in VERI*FACTU terms (a RegistroAnulacion); still never deleted. */
    status: text('status', { enum: ['draft', 'issued', 'voided'] })
      .notNull()
      .default('draft'),
    kind: text('kind', { enum: ['ordinary', 'rectifying'] })
      .notNull()
      .default('ordinary'),
    /** The series' prefix and year, its position in it, and the number printed (e.g. 2026-0001). */
    series: text('series'),
    sequence: integer('sequence'),
    number: text('number'),
    issueDate: date('issue_date', { mode: 'string' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    buyer: jsonb('buyer').$type<InvoiceParty>(),
    seller: jsonb('seller').$type<InvoiceParty>(),
    subtotal: integer('subtotal').notNull().default(0),
    vat: integer('vat').notNull().default(0),
    withholding: integer('withholding').notNull().default(0),
    total: integer('total').notNull().default(0),
    paymentStatus: text('payment_status', { enum: ['pending', 'paid', 'refunded'] })
      .notNull()
      .default('pending'),
    paymentType: text('payment_type', { enum: ['cash', 'card', 'transfer', 'paypal', 'stripe_connect', 'other'] }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    chargeDate: date('charge_date', { mode: 'string' }),
    footer: text('footer'),
    /** The invoice a rectifying one corrects, how (by difference or by substitution), and why. */
    rectifiesId: uuid('rectifies_id'),
    rectificationMethod: text('rectification_method', { enum: ['difference', 'substitution'] }),
    rectificationReason: text('rectification_reason'),
    /** When and why an issued invoice was voided (wrongly issued): its cancellation record is in verifactu_records. */
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidReason: text('void_reason'),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('invoices_seller_number_key').on(t.sellerKey, t.number),
    index('invoices_workspace_date_idx').on(t.workspaceId, t.issueDate),
    index('invoices_workspace_owner_idx').on(t.workspaceId, t.ownerId, t.issueDate),
    index('invoices_patient_idx').on(t.patientId),
    check(
      'invoices_issued_numbered',
      sql`${t.status} = 'draft' or (${t.number} is not null and ${t.issueDate} is not null and ${t.sequence} is not null)`,
    ),
    check('invoices_rectifying', sql`(${t.kind} = 'rectifying') = (${t.rectifiesId} is not null)`),
    check('invoices_voided', sql`(${t.status} = 'voided') = (${t.voidedAt} is not null)`),
    index('invoices_rectifies_idx').on(t.rectifiesId),
    // The statistics (issue 28): what was collected in a period, by the day of payment, and what is owed now.
    index('invoices_workspace_paid_idx')
      .on(t.workspaceId, t.paidAt)
      .where(sql`${t.status} = 'issued' and ${t.paymentStatus} = 'paid'`),
    index('invoices_workspace_owed_idx')
      .on(t.workspaceId, t.issueDate)
      .where(sql`${t.status} = 'issued' and ${t.kind} = 'ordinary' and ${t.paymentStatus} = 'pending'`),
  ],
);
export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;

/** An invoice's lines; amounts in cents, quantity in hundredths (1.5 sessions = 150). */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'restrict' }),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    itemKind: text('item_kind', { enum: ['therapy', 'report', 'training', 'other'] })
      .notNull()
      .default('therapy'),
    unitPrice: integer('unit_price').notNull(),
    quantityHundredths: integer('quantity_hundredths').notNull(),
    vatRate: integer('vat_rate').notNull(),
    withholdingRate: integer('withholding_rate').notNull(),
    exemption: text('exemption', { enum: ['E1', 'N2'] }),
    base: integer('base').notNull(),
    vat: integer('vat').notNull(),
    withholding: integer('withholding').notNull(),
    total: integer('total').notNull(),
    /** The session this line invoices (it becomes `invoiced`). */
    sessionId: uuid('session_id').references(() => sessions.id, { onDelete: 'set null' }),
  },
  (t) => [
    unique('invoice_lines_position_key').on(t.workspaceId, t.invoiceId, t.position),
    index('invoice_lines_session_idx').on(t.sessionId),
  ],
);
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;

/**
 * The next number of each series: one row per seller, kind, prefix and year, incremented in the issuing
 * transaction (its row lock orders concurrent issues; a rollback takes the number back). Never a
 * sequence: sequences leave gaps.
 */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    sellerKey: text('seller_key').notNull(),
    kind: text('kind', { enum: ['ordinary', 'rectifying'] }).notNull(),
    year: integer('year').notNull(),
    prefix: text('prefix').notNull(),
    /** The last number given (0: none yet). */
    last: integer('last').notNull(),
  },
  // A new prefix starts a new series (and going back to an old one carries on where it stopped).
  (t) => [primaryKey({ columns: [t.sellerKey, t.kind, t.prefix, t.year] })],
);

/**
 * VERI*FACTU registration and cancellation records: one chain per issuer tax id, each record's
 * fingerprint over its own fields and the previous record's fingerprint. Append-only (migration trigger).
 */
export const verifactuRecords = pgTable(
  'verifactu_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    issuerTaxId: text('issuer_tax_id').notNull(),
    issuerName: text('issuer_name').notNull(),
    /** 1, 2, 3… within the issuer's chain. */
    position: bigint('position', { mode: 'number' }).notNull(),
    recordType: text('record_type', { enum: ['registration', 'cancellation'] }).notNull(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    workspaceId: uuid('workspace_id').notNull(),
    invoiceNumber: text('invoice_number').notNull(),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    invoiceType: text('invoice_type').notNull(),
    vatTotal: integer('vat_total').notNull(),
    total: integer('total').notNull(),
    previousFingerprint: text('previous_fingerprint'),
    fingerprint: text('fingerprint').notNull(),
    /** FechaHoraHusoGenRegistro exactly as hashed (e.g. 2026-11-26T10:20:30+01:00). */
    generatedAt: text('generated_at').notNull(),
    /** The rest of what the XML needs (buyer, breakdown, rectified invoice…), as it was when recorded. */
    detail: jsonb('detail').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('verifactu_records_chain_key').on(t.issuerTaxId, t.position),
    index('verifactu_records_workspace_idx').on(t.workspaceId, t.issueDate),
    // An invoice's records (its registration after every issue, read, PDF and AEAT send).
    index('verifactu_records_invoice_idx').on(t.invoiceId),
  ],
);
export type VerifactuRecordRow = typeof verifactuRecords.$inferSelect;

/** The head of each issuer's chain, locked by the transaction that appends to it. */
export const verifactuChains = pgTable('verifactu_chains', {
  issuerTaxId: text('issuer_tax_id').primaryKey(),
  length: bigint('length', { mode: 'number' }).notNull(),
  lastFingerprint: text('last_fingerprint'),
  lastRecordId: uuid('last_record_id'),
  /**
   * The last record's reference (its invoice's number and date), kept on the head so that the statement
   * which locks the head reads it there: a record committed while that statement waited for the lock is
   * not in the statement's snapshot, but the locked head row is always its newest version.
   */
  lastNumber: text('last_number'),
  lastIssueDate: date('last_issue_date', { mode: 'string' }),
  /**
   * The head as it was before the last append (set by the append itself, from the old row): how the one
   * issuing statement answers the previous record's fingerprint and reference it chained on.
   */
  previousFingerprint: text('previous_fingerprint'),
  previousNumber: text('previous_number'),
  previousIssueDate: date('previous_issue_date', { mode: 'string' }),
  /**
   * The last record's generation time (its FechaHoraHusoGenRegistro, to the second), taken by the statement
   * that holds this row's lock: the next record's is never earlier, so the chain's times never decrease.
   */
  lastGeneratedAt: timestamp('last_generated_at', { withTimezone: true }),
});

/**
 * A batch (Advance plan): one invoice per patient for their completed, not-yet-invoiced sessions of a
 * period, issued by a job; its progress and outcome are kept here for the screen to poll.
 */
export const invoiceBatches = pgTable('invoice_batches', {
  id: uuid('id').primaryKey().defaultRandom(),
  workspaceId: uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  createdBy: uuid('created_by')
    .notNull()
    .references(() => users.id),
  from: date('from', { mode: 'string' }).notNull(),
  to: date('to', { mode: 'string' }).notNull(),
  therapistId: uuid('therapist_id'),
  status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
    .notNull()
    .default('queued'),
  total: integer('total').notNull().default(0),
  done: integer('done').notNull().default(0),
  invoiceIds: jsonb('invoice_ids').$type<string[]>().notNull().default([]),
  /** Patients whose invoice could not be issued, and why (Spanish). */
  errors: jsonb('errors').$type<{ patientId: string; message: string }[]>().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type InvoiceBatchRow = typeof invoiceBatches.$inferSelect;
