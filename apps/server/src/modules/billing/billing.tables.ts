import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
// Foreign keys only: this module reads workspaces and users through their services.
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';

/**
 * Diván's own billing (issue 27, decision 0026): the provider's customer of each paying workspace, its
 * subscription as the provider last said it, the Checkout sessions started from `/plans`, and every
 * platform webhook event taken (its id the key: a replay is a no-op).
 */
export const billingCustomers = pgTable('billing_customers', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  /** `cus_…` on the platform account. */
  customerId: text('customer_id').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    /** One subscription per workspace (a new one replaces a canceled one). */
    workspaceId: uuid('workspace_id')
      .primaryKey()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    subscriptionId: text('subscription_id').notNull().unique(),
    planId: text('plan_id', { enum: ['basic', 'advance', 'team'] }).notNull(),
    interval: text('interval', { enum: ['month', 'year'] }).notNull(),
    status: text('status').notNull(),
    quantity: integer('quantity').notNull(),
    unitAmount: integer('unit_amount').notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** After a downgrade: the plan already paid for, whose features stay until `paidUntil` (the period's end). */
    paidPlanId: text('paid_plan_id', { enum: ['basic', 'advance', 'team'] }),
    paidUntil: timestamp('paid_until', { withTimezone: true }),
    /**
     * A change waiting for the renewal (yearly → monthly, the provider's subscription schedule): the plan and
     * interval it moves to at `scheduledAt` (the period's end), as the provider last said it; null without one.
     */
    scheduledPlanId: text('scheduled_plan_id', { enum: ['basic', 'advance', 'team'] }),
    scheduledInterval: text('scheduled_interval', { enum: ['month', 'year'] }),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    /** When the provider's state was last read (each event reads it again: replays and disorder converge). */
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('billing_subscriptions_status_idx').on(t.status)],
);

export const billingCheckouts = pgTable(
  'billing_checkouts',
  {
    /** `cs_…`: the provider's Checkout Session. */
    sessionId: text('session_id').primaryKey(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    planId: text('plan_id', { enum: ['basic', 'advance', 'team'] }).notNull(),
    interval: text('interval', { enum: ['month', 'year'] }).notNull(),
    quantity: integer('quantity').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when the provider's `checkout.session.completed` was taken and the plan applied. */
    completedAt: timestamp('completed_at', { withTimezone: true }),
    subscriptionId: text('subscription_id'),
  },
  (t) => [index('billing_checkouts_workspace_idx').on(t.workspaceId, t.createdAt)],
);

export const billingEvents = pgTable('billing_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  /** The provider's `created` (Unix seconds). */
  created: bigint('created', { mode: 'number' }).notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  /** Why it changed nothing (unknown customer, another kind of event), or null. */
  ignored: text('ignored'),
});

export type BillingSubscriptionRow = typeof billingSubscriptions.$inferSelect;
export type BillingCheckoutRow = typeof billingCheckouts.$inferSelect;

/** Ajustes › Pagos: who Diván invoices for the workspace's plan (the tax case of each invoice follows them). */
export const billingDetails = pgTable('billing_details', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  /** ISO 3166-1 alpha-2. */
  country: text('country').notNull(),
  taxId: text('tax_id'),
  /** An EU VAT id with its prefix (a business elsewhere in the EU: reverse charge). */
  vatId: text('vat_id'),
  line1: text('line1').notNull(),
  city: text('city').notNull(),
  postalCode: text('postal_code').notNull(),
  email: text('email'),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type BillingDetailsRow = typeof billingDetails.$inferSelect;

/**
 * The provider's VIES check of the billing data's EU VAT id (Stripe's `tax_id.verification`, from its
 * `customer.tax_id.*` events): about `value`, so a VAT id changed since is «comprobando» again. An id
 * VIES does not know is not a business for VAT: its invoices carry IVA (no reverse charge).
 */
export const billingVatChecks = pgTable('billing_vat_checks', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  value: text('value').notNull(),
  status: text('status', { enum: ['pending', 'verified', 'unverified', 'unavailable'] }).notNull(),
  /** The name VIES holds for it (shown beside the data typed). */
  verifiedName: text('verified_name'),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
});
export type BillingVatCheckRow = typeof billingVatChecks.$inferSelect;

/**
 * Each charge of the provider (its invoice, `in_…`) and Diván's invoice for it: the key makes a replayed
 * or doubled `invoice.paid` issue one invoice. Written in the transaction that issues it.
 */
export const billingInvoices = pgTable(
  'billing_invoices',
  {
    providerInvoiceId: text('provider_invoice_id').primaryKey(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Diván's invoice (in Diván's own workspace: the invoicing module's). */
    invoiceId: uuid('invoice_id').notNull(),
    number: text('number').notNull(),
    issueDate: text('issue_date').notNull(),
    description: text('description').notNull(),
    subtotal: integer('subtotal').notNull(),
    vat: integer('vat').notNull(),
    total: integer('total').notNull(),
    vatRate: integer('vat_rate').notNull(),
    /** The provider's total when it differs from Diván's arithmetic (logged; null when they agree). */
    providerTotal: integer('provider_total'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('billing_invoices_workspace_idx').on(t.workspaceId, t.createdAt)],
);
export type BillingInvoiceRow = typeof billingInvoices.$inferSelect;

/** Each therapist's personal invitation code (Ajustes › Invitar), made the first time it is asked for. */
export const referralCodes = pgTable('referral_codes', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  code: text('code').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A friend who joined with a code (one per friend: `friend_id` unique), and the referrer's month off:
 * earned once, when the friend's first non-zero invoice is paid (`rewarded_at` set by a conditional
 * update, whatever the webhooks do), then placed as a credit line on the referrer's subscription
 * (`credit_item_id`, under the provider's idempotency key of the referral) — unless refused as a
 * self-referral (`refused_reason`).
 */
export const referrals = pgTable(
  'referrals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    referrerId: uuid('referrer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    friendId: uuid('friend_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The friend's workspace whose trial got the free month. */
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    /** The friend's first paid, non-zero charge (the provider's invoice) and when it was taken. */
    rewardedAt: timestamp('rewarded_at', { withTimezone: true }),
    rewardInvoiceId: text('reward_invoice_id'),
    /** The month off placed on the referrer's next invoice: its amount (cents before VAT, positive) and the provider's line. */
    creditAmount: integer('credit_amount'),
    creditItemId: text('credit_item_id'),
    creditWorkspaceId: uuid('credit_workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
    /**
     * No month off, and never will be: the friend is the referrer under another account (`same_card`: the
     * card that paid the friend's first charge is one of the referrer's customers' on the provider).
     */
    refusedReason: text('refused_reason', { enum: ['same_card'] }),
    refusedAt: timestamp('refused_at', { withTimezone: true }),
  },
  (t) => [index('referrals_referrer_idx').on(t.referrerId, t.joinedAt)],
);
export type ReferralRow = typeof referrals.$inferSelect;

/**
 * A gift of months of Diván (`/gift/{code}`): bought through a Checkout in payment mode by a workspace
 * (invoiced to its billing data), its code derived from the row's id with the server's key and stored
 * only as its keyed hash, shown once to the buyer (`revealed_at`) and mailed, redeemed once.
 */
export const giftCodes = pgTable(
  'gift_codes',
  {
    id: uuid('id').primaryKey(),
    codeHash: text('code_hash').notNull().unique(),
    checkoutSessionId: text('checkout_session_id').notNull().unique(),
    buyerWorkspaceId: uuid('buyer_workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
    buyerUserId: uuid('buyer_user_id').references(() => users.id, { onDelete: 'set null' }),
    months: integer('months').notNull(),
    /** Cents: before VAT, the VAT at the sale, the total charged. */
    subtotal: integer('subtotal').notNull(),
    vat: integer('vat').notNull(),
    total: integer('total').notNull(),
    recipientEmail: text('recipient_email'),
    recipientName: text('recipient_name'),
    message: text('message'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set by the provider's webhook only (the redirect proves nothing). */
    paidAt: timestamp('paid_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revealedAt: timestamp('revealed_at', { withTimezone: true }),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    redeemedBy: uuid('redeemed_by').references(() => users.id, { onDelete: 'set null' }),
    redeemedWorkspaceId: uuid('redeemed_workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
  },
  (t) => [index('gift_codes_buyer_idx').on(t.buyerWorkspaceId, t.createdAt)],
);
export type GiftCodeRow = typeof giftCodes.$inferSelect;
