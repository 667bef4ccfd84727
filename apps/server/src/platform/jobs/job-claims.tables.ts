import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per side effect that must happen once (a mail relayed, a reminder sent, a submission made),
 * keyed by its business key. pg-boss delivers at least once; a handler claims the key in the same
 * transaction as its effect, so a retried job finds the claim and does nothing.
 */
export const jobClaims = pgTable('job_claims', {
  key: text('key').primaryKey(),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
});
