import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/database';
import {
  bookingCheckouts,
  patientCards,
  paymentAccounts,
  paymentEvents,
  type BookingCheckoutRow,
  type PatientCardRow,
  type PaymentAccountRow,
} from './payments.tables';

type AccountState = Pick<PaymentAccountRow, 'detailsSubmitted' | 'chargesEnabled' | 'payoutsEnabled'>;
type CardOf = Pick<PatientCardRow, 'paymentMethodId' | 'brand' | 'last4' | 'expMonth' | 'expYear' | 'mandateAcceptedAt'> &
  Partial<Pick<PatientCardRow, 'cardSetAt'>>;
type NewCustomer = Pick<PatientCardRow, 'patientId' | 'holderKey' | 'workspaceId' | 'accountId' | 'customerId'>;

/** The connected accounts, the patients' cards (customers on those accounts), the booking checkouts and the provider's events. */
export function paymentsRepository(db: DbOrTx) {
  const card = (patientId: string, holderKey: string) => and(eq(patientCards.patientId, patientId), eq(patientCards.holderKey, holderKey));
  return {
    async accountOf(holderKey: string): Promise<PaymentAccountRow | undefined> {
      const [row] = await db.select().from(paymentAccounts).where(eq(paymentAccounts.holderKey, holderKey));
      return row;
    },
    async accountById(accountId: string): Promise<PaymentAccountRow | undefined> {
      const [row] = await db.select().from(paymentAccounts).where(eq(paymentAccounts.accountId, accountId));
      return row;
    },
    /** The holder's account, once (undefined: another request connected first). */
    async insertAccount(values: typeof paymentAccounts.$inferInsert): Promise<PaymentAccountRow | undefined> {
      const [row] = await db.insert(paymentAccounts).values(values).onConflictDoNothing().returning();
      return row;
    },
    async setAccountState(accountId: string, state: AccountState): Promise<PaymentAccountRow | undefined> {
      const [row] = await db
        .update(paymentAccounts)
        .set({ ...state, updatedAt: new Date() })
        .where(eq(paymentAccounts.accountId, accountId))
        .returning();
      return row;
    },

    async card(patientId: string, holderKey: string): Promise<PatientCardRow | undefined> {
      const [row] = await db.select().from(patientCards).where(card(patientId, holderKey));
      return row;
    },
    async cardOfCustomer(accountId: string, customerId: string): Promise<PatientCardRow | undefined> {
      const [row] = await db
        .select()
        .from(patientCards)
        .where(and(eq(patientCards.accountId, accountId), eq(patientCards.customerId, customerId)));
      return row;
    },
    /** The patient's customer on a holder's account, once (undefined: it existed already). */
    async insertCustomer(values: NewCustomer): Promise<PatientCardRow | undefined> {
      const [row] = await db.insert(patientCards).values(values).onConflictDoNothing().returning();
      return row;
    },
    /** false when the patient has no customer on the holder's account. */
    async setAutoCharge(patientId: string, holderKey: string, on: boolean): Promise<boolean> {
      const updated = await db
        .update(patientCards)
        .set({ autoCharge: on, updatedAt: new Date() })
        .where(card(patientId, holderKey))
        .returning();
      return updated.length > 0;
    },
    async setCard(patientId: string, holderKey: string, values: CardOf): Promise<void> {
      await db
        .update(patientCards)
        .set({ ...values, updatedAt: new Date() })
        .where(card(patientId, holderKey));
    },

    async keepBookingCheckout(row: Omit<BookingCheckoutRow, 'currency' | 'createdAt'>): Promise<void> {
      await db.insert(bookingCheckouts).values(row).onConflictDoNothing();
    },
    async bookingCheckout(checkoutId: string): Promise<BookingCheckoutRow | undefined> {
      const [row] = await db.select().from(bookingCheckouts).where(eq(bookingCheckouts.checkoutId, checkoutId));
      return row;
    },

    /** The provider's event, recorded once: false when it was recorded before (a redelivery). */
    async recordEvent(values: typeof paymentEvents.$inferInsert): Promise<boolean> {
      const [first] = await db.insert(paymentEvents).values(values).onConflictDoNothing().returning();
      return !!first;
    },
    async setEventIgnored(eventId: string, ignored: string): Promise<void> {
      await db.update(paymentEvents).set({ ignored }).where(eq(paymentEvents.eventId, eventId));
    },
  };
}
