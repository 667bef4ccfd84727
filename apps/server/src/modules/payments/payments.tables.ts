import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only.
import { invoices } from '../invoices/invoices.tables';
import { patients } from '../patients/patients.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * Who takes card payments: a therapist (`user:<id>`) or a workspace (`workspace:<id>`), the same keys
 * as an invoice's seller. Each holds one connected account of the provider; its state comes from
 * the provider (account.updated, or read back after onboarding).
 */
export const paymentAccounts = pgTable('payment_accounts', {
  holderKey: text('holder_key').primaryKey(),
  provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
  accountId: text('account_id').notNull().unique(),
  detailsSubmitted: boolean('details_submitted').notNull().default(false),
  chargesEnabled: boolean('charges_enabled').notNull().default(false),
  payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type PaymentAccountRow = typeof paymentAccounts.$inferSelect;

/**
 * A patient as a customer of a seller's account, and the card they saved there (a Checkout Session in
 * setup mode: only the provider's ids and the card's brand, last four digits and expiry are kept).
 * `auto_charge` is the «cobros automáticos» switch.
 */
export const patientCards = pgTable(
  'patient_cards',
  {
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    holderKey: text('holder_key').notNull(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    customerId: text('customer_id').notNull(),
    paymentMethodId: text('payment_method_id'),
    brand: text('brand'),
    last4: text('last4'),
    expMonth: integer('exp_month'),
    expYear: integer('exp_year'),
    autoCharge: boolean('auto_charge').notNull().default(true),
    mandateAcceptedAt: timestamp('mandate_accepted_at', { withTimezone: true }),
    /** The provider time of the card last saved: an older setup event arriving late changes nothing. */
    cardSetAt: timestamp('card_set_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.patientId, t.holderKey] }), unique('patient_cards_customer_key').on(t.accountId, t.customerId)],
);
export type PatientCardRow = typeof patientCards.$inferSelect;

/**
 * A link mailed to a patient (no account needed): save a card, or pay one invoice. Only the token's
 * hash is stored; it expires, and a pay link is spent once the invoice is paid.
 */
export const paymentLinks = pgTable(
  'payment_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    kind: text('kind', { enum: ['card', 'invoice'] }).notNull(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    holderKey: text('holder_key').notNull(),
    patientId: uuid('patient_id').references(() => patients.id, { onDelete: 'cascade' }),
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'cascade' }),
    mailedTo: text('mailed_to'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_links_patient_idx').on(t.patientId),
    check('payment_links_target', sql`(${t.kind} = 'card') = (${t.patientId} is not null and ${t.invoiceId} is null)`),
  ],
);

/**
 * Each attempt to collect an invoice by card: an off-session charge or a checkout (pay-by-link). The
 * idempotency key is per invoice and attempt number, so two clicks (or two server processes) ask the
 * provider for the same PaymentIntent; a new attempt is numbered only after the last one failed.
 */
export const invoicePayments = pgTable(
  'invoice_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    workspaceId: uuid('workspace_id').notNull(),
    holderKey: text('holder_key').notNull(),
    accountId: text('account_id').notNull(),
    kind: text('kind', { enum: ['charge', 'checkout'] }).notNull(),
    attempt: integer('attempt').notNull(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    checkoutId: text('checkout_id').unique(),
    intentId: text('intent_id').unique(),
    amount: integer('amount').notNull(),
    /** What the provider's events about this attempt must say, with its account and object ids. */
    currency: text('currency').notNull().default('eur'),
    status: text('status', { enum: ['processing', 'requires_action', 'succeeded', 'failed', 'canceled'] }).notNull(),
    errorCode: text('error_code'),
    declineCode: text('decline_code'),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('invoice_payments_attempt_key').on(t.workspaceId, t.invoiceId, t.kind, t.attempt),
    index('invoice_payments_invoice_idx').on(t.invoiceId),
  ],
);
export type InvoicePaymentRow = typeof invoicePayments.$inferSelect;

/** Refunds of a card payment, whole or partial; each may have produced a rectifying invoice. */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Its payment's workspace (no foreign key, like the payment's). */
    workspaceId: uuid('workspace_id').notNull(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => invoicePayments.id, { onDelete: 'restrict' }),
    refundId: text('refund_id').unique(),
    amount: integer('amount').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed', 'canceled'] }).notNull(),
    reason: text('reason').notNull(),
    rectifyingInvoiceId: uuid('rectifying_invoice_id'),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_refunds_invoice_idx').on(t.invoiceId), check('payment_refunds_amount', sql`${t.amount} > 0`)],
);
export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;

/**
 * Webhook events handled: a replayed event (same id) is acknowledged and changes nothing. `ignored`
 * says why an event was acknowledged without acting on it (it did not match the attempt or checkout
 * it named: another connected account, another object, another amount).
 */
export const paymentEvents = pgTable('payment_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  account: text('account'),
  ignored: text('ignored'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A booking's Checkout Session (payment or setup mode), as created: the webhook books the hold only
 * for an event of this session on this account, with this amount (or this customer).
 */
export const bookingCheckouts = pgTable('booking_checkouts', {
  checkoutId: text('checkout_id').primaryKey(),
  accountId: text('account_id').notNull(),
  holdId: uuid('hold_id').notNull(),
  workspaceId: uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  mode: text('mode', { enum: ['payment', 'setup'] }).notNull(),
  amount: integer('amount'),
  currency: text('currency').notNull().default('eur'),
  customerId: text('customer_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type BookingCheckoutRow = typeof bookingCheckouts.$inferSelect;
