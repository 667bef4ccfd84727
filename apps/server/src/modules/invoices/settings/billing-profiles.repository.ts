import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/database';
import { reusableQuery } from '../../../platform/db/reusable-query';
import { therapistBilling } from '../invoices.tables';

export type TherapistBillingRow = typeof therapistBilling.$inferSelect;

/** Read on every issue: built once (see reusableQuery). */
const billingOf = reusableQuery<{ userId: string }, TherapistBillingRow[]>('therapist_billing', (db) =>
  db
    .select()
    .from(therapistBilling)
    .where(eq(therapistBilling.userId, sql.placeholder('userId'))),
);

export function billingProfilesRepository(db: DbOrTx) {
  return {
    async find(userId: string): Promise<TherapistBillingRow | undefined> {
      const [row] = await billingOf(db, 'one', { userId });
      return row;
    },
    async upsert(userId: string, values: Omit<Partial<typeof therapistBilling.$inferInsert>, 'userId'>): Promise<void> {
      await db
        .insert(therapistBilling)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: therapistBilling.userId, set: values });
    },
  };
}
