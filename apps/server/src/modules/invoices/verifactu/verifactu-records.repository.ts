import { and, asc, eq, gte, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../platform/db/database';
import { invoices, verifactuRecords } from '../invoices.tables';

export function verifactuRecordsRepository(db: DbOrTx) {
  return {
    /**
     * One issuer's records in a workspace for a period, in chain order, at most `limit`, each with its
     * invoice's seller (for the member's access): a registration by its invoice's date (the day it was
     * generated), a cancellation by the day it was generated (in Madrid).
     */
    ofPeriod(workspaceId: string, issuerTaxId: string, from: string, to: string, limit: number) {
      return db
        .select({ record: verifactuRecords, sellerType: invoices.sellerType, ownerId: invoices.ownerId })
        .from(verifactuRecords)
        .innerJoin(invoices, eq(invoices.id, verifactuRecords.invoiceId))
        .where(
          and(
            eq(verifactuRecords.workspaceId, workspaceId),
            eq(verifactuRecords.issuerTaxId, issuerTaxId),
            or(
              and(
                eq(verifactuRecords.recordType, 'registration'),
                gte(verifactuRecords.issueDate, from),
                lte(verifactuRecords.issueDate, to),
              ),
              and(
                eq(verifactuRecords.recordType, 'cancellation'),
                sql`substr(${verifactuRecords.generatedAt}, 1, 10) between ${from} and ${to}`,
              ),
            ),
          ),
        )
        .orderBy(asc(verifactuRecords.position))
        .limit(limit);
    },
    /** The issuer tax id of an invoice's first record (undefined: none). */
    async issuerOfInvoice(invoiceId: string): Promise<string | undefined> {
      const [record] = await db
        .select({ issuerTaxId: verifactuRecords.issuerTaxId })
        .from(verifactuRecords)
        .where(eq(verifactuRecords.invoiceId, invoiceId))
        .limit(1);
      return record?.issuerTaxId;
    },
  };
}
