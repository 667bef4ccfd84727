import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The built-in sandbox provider's own objects (accounts, customers, payment methods, checkout
 * sessions, payment intents, refunds, events), in Stripe's shapes, so test-mode state survives a
 * restart like Stripe's would. Nothing else reads this table.
 */
export const sandboxObjects = pgTable(
  'sandbox_stripe_objects',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** The connected account it lives on (null: the platform's). */
    account: text('account'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** Idempotency key of the request that created it (scoped by account), for replays. */
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sandbox_stripe_objects_type_idx').on(t.type, t.account),
    index('sandbox_stripe_objects_idem_idx').on(t.account, t.idempotencyKey),
  ],
);
