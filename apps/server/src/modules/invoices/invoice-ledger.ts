import { sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database';
import { invoiceCounters, verifactuChains, verifactuRecords, type VerifactuRecordRow } from './invoices.tables';

/**
 * The next number of a series (seller, kind, prefix and year), inside the issuing transaction. The counter row is created at 1 or
 * incremented in one statement; its row lock is held until the transaction ends, so concurrent issues
 * of one series queue there and each gets the next number, and a rolled-back issue gives its number back.
 */
export async function nextInvoiceSequence(tx: Tx, series: { sellerKey: string; kind: 'ordinary' | 'rectifying'; year: number; prefix: string }): Promise<number> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ ...series, last: 1 })
    .onConflictDoUpdate({ target: [invoiceCounters.sellerKey, invoiceCounters.kind, invoiceCounters.prefix, invoiceCounters.year], set: { last: sql`${invoiceCounters.last} + 1` } })
    .returning({ last: invoiceCounters.last });
  return row!.last;
}

export type ChainHead = { position: number; previous: VerifactuRecordRow | null };

/**
 * Takes the head of an issuer's VERI*FACTU chain for this transaction: the row lock orders every record
 * of that tax id, so each one chains on the one before, with no fork, whichever workspace or process
 * writes it. `append` must follow in the same transaction.
 */
export async function lockChain(tx: Tx, issuerTaxId: string): Promise<ChainHead> {
  const [head] = await tx
    .insert(verifactuChains)
    .values({ issuerTaxId, length: 0 })
    .onConflictDoUpdate({ target: verifactuChains.issuerTaxId, set: { length: sql`${verifactuChains.length}` } })
    .returning();
  const previous = head!.lastRecordId
    ? ((await tx.select().from(verifactuRecords).where(sql`${verifactuRecords.id} = ${head!.lastRecordId}`))[0] ?? null)
    : null;
  return { position: head!.length + 1, previous };
}

/** Appends a record to its issuer's chain (locked by `lockChain` in this transaction) and moves the head. */
export async function appendRecord(tx: Tx, record: typeof verifactuRecords.$inferInsert): Promise<VerifactuRecordRow> {
  const [row] = await tx.insert(verifactuRecords).values(record).returning();
  await tx
    .update(verifactuChains)
    .set({ length: row!.position, lastFingerprint: row!.fingerprint, lastRecordId: row!.id })
    .where(sql`${verifactuChains.issuerTaxId} = ${row!.issuerTaxId}`);
  return row!;
}
