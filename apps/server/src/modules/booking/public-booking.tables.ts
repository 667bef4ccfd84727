import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspaceColumn } from '../../platform/db/columns';
// Foreign keys only.
import { sessions } from '../sessions/sessions.tables';
import { users } from '../users/users.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { bookingServices } from './booking.tables';

/**
 * A slot held for a visitor of the public booking page while they prove their email with the mailed
 * six-digit code (BOOKING_HOLD_MINUTES). An active hold (not consumed, not expired) takes its time in
 * the therapist's free slots like a session. What the visitor typed (name, email, phone, message) is
 * personal data: encrypted with the workspace's key in `data_enc`; `email_hash` (an HMAC) only counts
 * holds per address. Consumed holds stay a day (the per-email limit counts them), then the sweep drops them.
 */
export const bookingHolds = pgTable(
  'booking_holds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(workspaces),
    therapistId: uuid('therapist_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    serviceId: uuid('service_id')
      .notNull()
      .references(() => bookingServices.id, { onDelete: 'cascade' }),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    emailHash: text('email_hash').notNull(),
    dataEnc: text('data_enc').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    /** Consumed by its booking (not given up): a paid checkout arriving again books nothing and refunds nothing. */
    booked: boolean('booked').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The therapist's active holds, read with every month of slots and under the booking lock.
    index('booking_holds_therapist_active_idx')
      .on(t.therapistId, t.startsAt)
      .where(sql`${t.consumedAt} is null`),
    // Holds per email in the last hour (the per-address limit), and the sweep by age.
    index('booking_holds_email_idx').on(t.emailHash, t.createdAt),
    index('booking_holds_created_idx').on(t.createdAt),
  ],
);
export type BookingHoldRow = typeof bookingHolds.$inferSelect;

/**
 * A session booked from the public page and its manage link (cancel, move): the link's token is
 * stored hashed. `sequence` is the .ics invitation's SEQUENCE, raised at each move.
 */
export const publicBookings = pgTable('public_bookings', {
  id: uuid('id').primaryKey().defaultRandom(),
  workspaceId: workspaceColumn(workspaces),
  sessionId: uuid('session_id')
    .notNull()
    .unique('public_bookings_session_key')
    .references(() => sessions.id, { onDelete: 'cascade' }),
  serviceId: uuid('service_id')
    .notNull()
    .references(() => bookingServices.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique('public_bookings_token_key'),
  sequence: integer('sequence').notNull().default(0),
  /** Paid at booking (service payment `pay`): the connected account and PaymentIntent that took the money, and how much. */
  paymentAccountId: text('payment_account_id'),
  paymentIntentId: text('payment_intent_id'),
  paidAmount: integer('paid_amount'),
  /** The money given back after the patient cancelled (booking.refund job). */
  refundedAt: timestamp('refunded_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type PublicBookingRow = typeof publicBookings.$inferSelect;
