import { eq, sql } from 'drizzle-orm';
import { normalizeTaxId, type TherapistBilling } from '@divan/core';
import type { Db, DbOrTx } from '../../../platform/db/database';
import { reusableQuery } from '../../../platform/db/reusable-query';
import { therapistBilling } from '../invoices.tables';

type Body = Partial<{ [K in keyof TherapistBilling]: TherapistBilling[K] | null }>;
const nul = (v: string | null | undefined) => (v === undefined ? undefined : v?.trim() ? v.trim() : null);

/** Read on every issue: built once (see reusableQuery). */
const billingOf = reusableQuery<{ userId: string }, (typeof therapistBilling.$inferSelect)[]>('therapist_billing', (db) =>
  db
    .select()
    .from(therapistBilling)
    .where(eq(therapistBilling.userId, sql.placeholder('userId'))),
);

/** The therapist's own billing data (settings «Facturación»): the seller of the invoices they receive payment for. */
export class BillingProfiles {
  constructor(private readonly db: Db) {}

  async get(userId: string, tx: DbOrTx = this.db): Promise<TherapistBilling> {
    const [row] = await billingOf(tx, 'one', { userId });
    return {
      fullName: row?.billingFullName ?? null,
      taxId: row?.billingTaxId ?? null,
      line1: row?.billingLine1 ?? null,
      line2: row?.billingLine2 ?? null,
      city: row?.billingCity ?? null,
      zipCode: row?.billingZipCode ?? null,
      country: row?.billingCountry ?? null,
      footer: row?.footer ?? null,
      withholdingRate: (row?.withholdingRate ?? 15) as 7 | 15,
      seriesPrefix: row?.seriesPrefix ?? '',
    } as TherapistBilling;
  }

  async update(userId: string, b: Body): Promise<TherapistBilling> {
    const values = {
      billingFullName: nul(b.fullName),
      billingTaxId: b.taxId === undefined ? undefined : b.taxId ? normalizeTaxId(b.taxId) : null,
      billingLine1: nul(b.line1),
      billingLine2: nul(b.line2),
      billingCity: nul(b.city),
      billingZipCode: nul(b.zipCode),
      billingCountry: nul(b.country),
      footer: nul(b.footer),
      withholdingRate: b.withholdingRate ?? undefined,
      seriesPrefix: b.seriesPrefix ?? undefined,
      updatedAt: new Date(),
    };
    await this.db
      .insert(therapistBilling)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: therapistBilling.userId, set: values });
    return this.get(userId);
  }
}
