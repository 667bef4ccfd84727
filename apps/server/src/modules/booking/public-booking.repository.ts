import { and, asc, count, eq, gt, gte, isNull, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import { bookingHolds, publicBookings, type BookingHoldRow, type PublicBookingRow } from './public-booking.tables';

export type NewHold = typeof bookingHolds.$inferInsert;

/** Holds of the public booking page and the bookings' manage links. */
export function publicBookingRepository(db: DbOrTx) {
  return {
    /**
     * Serialises every booking write of one therapist (holds, confirmations, moves) until the transaction
     * ends: the slot is checked and taken under it, so two visitors never both get the same time.
     */
    async lockTherapist(therapistId: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`divan:booking:${therapistId}`}, 0))`);
    },

    /** Serialises the holds of one email (its hash) for the transaction, whichever therapist: taken before the therapist's lock, always. */
    async lockEmail(emailHash: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`divan:booking-email:${emailHash}`}, 0))`);
    },

    /** The therapist's holds still active at `now` that overlap [from, to), but `exceptId`. */
    activeHolds(therapistId: string, from: Date, to: Date, now: Date, exceptId?: string): Promise<{ start: Date; end: Date }[]> {
      return db
        .select({ start: bookingHolds.startsAt, end: bookingHolds.endsAt })
        .from(bookingHolds)
        .where(
          and(
            eq(bookingHolds.therapistId, therapistId),
            isNull(bookingHolds.consumedAt),
            gt(bookingHolds.expiresAt, now),
            lt(bookingHolds.startsAt, to),
            gt(bookingHolds.endsAt, from),
            exceptId ? ne(bookingHolds.id, exceptId) : undefined,
          ),
        )
        .orderBy(asc(bookingHolds.startsAt));
    },

    async holdsOfEmailSince(emailHash: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(bookingHolds)
        .where(and(eq(bookingHolds.emailHash, emailHash), gte(bookingHolds.createdAt, since)));
      return row?.n ?? 0;
    },

    async insertHold(values: NewHold): Promise<BookingHoldRow> {
      const [row] = await db.insert(bookingHolds).values(values).returning();
      return row!;
    },

    async hold(id: string, forUpdate = false): Promise<BookingHoldRow | undefined> {
      const q = db.select().from(bookingHolds).where(eq(bookingHolds.id, id));
      const [row] = forUpdate ? await q.for('update') : await q;
      return row;
    },

    /** One more attempt at the code, counted before it is compared; the new count (0: no such live hold). */
    async countAttempt(id: string): Promise<number> {
      const [row] = await db
        .update(bookingHolds)
        .set({ attempts: sql`${bookingHolds.attempts} + 1` })
        .where(and(eq(bookingHolds.id, id), isNull(bookingHolds.consumedAt)))
        .returning({ attempts: bookingHolds.attempts });
      return row?.attempts ?? 0;
    },

    /** Used (`booked`) or given up (too many attempts, refused): the slot is free again; the row stays for the per-email count. */
    async consumeHold(id: string, now: Date, booked = false): Promise<boolean> {
      const rows = await db
        .update(bookingHolds)
        .set({ consumedAt: now, booked })
        .where(and(eq(bookingHolds.id, id), isNull(bookingHolds.consumedAt)))
        .returning({ id: bookingHolds.id });
      return rows.length === 1;
    },

    /** Kept longer while the visitor pays (BOOKING_HOLD_PAYMENT_MINUTES). */
    async extendHold(id: string, expiresAt: Date): Promise<void> {
      await db
        .update(bookingHolds)
        .set({ expiresAt })
        .where(and(eq(bookingHolds.id, id), isNull(bookingHolds.consumedAt)));
    },

    /** Holds older than `before` (the hourly sweep), a batch at a time. */
    async deleteOldHolds(before: Date, limit: number): Promise<number> {
      const rows = await db.execute(
        sql`delete from ${bookingHolds} where ${bookingHolds.id} in (select ${bookingHolds.id} from ${bookingHolds} where ${bookingHolds.createdAt} < ${before} limit ${limit}) returning 1`,
      );
      return (rows as unknown as { rows: unknown[] }).rows.length;
    },

    async insertBooking(values: typeof publicBookings.$inferInsert): Promise<PublicBookingRow> {
      const [row] = await db.insert(publicBookings).values(values).returning();
      return row!;
    },

    async booking(id: string): Promise<PublicBookingRow | undefined> {
      const [row] = await db.select().from(publicBookings).where(eq(publicBookings.id, id));
      return row;
    },

    /** The booking's money went back; false if no such booking. */
    async markRefunded(id: string): Promise<boolean> {
      const [done] = await db
        .update(publicBookings)
        .set({ refundedAt: new Date() })
        .where(eq(publicBookings.id, id))
        .returning({ refundedAt: publicBookings.refundedAt });
      return !!done;
    },

    async bookingByToken(tokenHash: string): Promise<PublicBookingRow | undefined> {
      const [row] = await db.select().from(publicBookings).where(eq(publicBookings.tokenHash, tokenHash));
      return row;
    },

    async bookingBySession(workspaceId: string, sessionId: string): Promise<PublicBookingRow | undefined> {
      const [row] = await db
        .select()
        .from(publicBookings)
        .where(and(eq(publicBookings.workspaceId, workspaceId), eq(publicBookings.sessionId, sessionId)));
      return row;
    },

    /** A new manage link (the older one stops working): a move made from the patient's account mails a link that works. */
    async rotateToken(id: string, tokenHash: string): Promise<void> {
      await db.update(publicBookings).set({ tokenHash }).where(eq(publicBookings.id, id));
    },

    async bumpSequence(id: string): Promise<number> {
      const [row] = await db
        .update(publicBookings)
        .set({ sequence: sql`${publicBookings.sequence} + 1` })
        .where(eq(publicBookings.id, id))
        .returning({ sequence: publicBookings.sequence });
      return row!.sequence;
    },
  };
}
