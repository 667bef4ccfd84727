import { normalizeTaxId, type TherapistBilling } from '@divan/core';
import type { Db, DbOrTx } from '../../../platform/db/database';
import { billingProfilesRepository } from './billing-profiles.repository';

type Body = Partial<{ [K in keyof TherapistBilling]: TherapistBilling[K] | null }>;
const nul = (v: string | null | undefined) => (v === undefined ? undefined : v?.trim() ? v.trim() : null);

/** The therapist's own billing data (settings «Facturación»): the seller of the invoices they receive payment for. */
export class BillingProfiles {
  constructor(private readonly db: Db) {}

  async get(userId: string, tx: DbOrTx = this.db): Promise<TherapistBilling> {
    const row = await billingProfilesRepository(tx).find(userId);
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
    await billingProfilesRepository(this.db).upsert(userId, values);
    return this.get(userId);
  }
}
