import { randomUUID } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import { formatInvoiceNumber } from '@divan/core';
import type { Tx } from '../../platform/db/database';
import { invoiceCounters, invoices, verifactuRecords, type VerifactuRecordRow } from './invoices.tables';

export type SeriesKey = { sellerKey: string; kind: 'ordinary' | 'rectifying'; year: number; prefix: string };
export type IssuedFields = Pick<typeof invoices.$inferInsert, 'status' | 'series' | 'issueDate' | 'issuedAt' | 'seller' | 'buyer' | 'updatedAt'>;

/**
 * The next number of a series (seller, kind, prefix and year) and the draft's update to issued, in one
 * statement inside the issuing transaction. The counter row is created at 1 or incremented in a CTE; its row
 * lock is held until the transaction ends, so concurrent issues of one series queue there and each gets the
 * next number, and a rolled-back issue (or savepoint) gives its number back. The number is written from it (`<prefix><year>-` and the
 * sequence padded to four digits, never cut). The draft must be locked by this transaction. Answers the
 * sequence and number as stored; the number is checked against core's `formatInvoiceNumber`, and a
 * difference throws (the transaction rolls back: no invoice is ever numbered otherwise).
 */
export async function takeNumberAndIssue(tx: Tx, series: SeriesKey, invoiceId: string, fields: IssuedFields): Promise<{ sequence: number; number: string }> {
  const counter = tx
    .insert(invoiceCounters)
    .values({ ...series, last: 1 })
    .onConflictDoUpdate({ target: [invoiceCounters.sellerKey, invoiceCounters.kind, invoiceCounters.prefix, invoiceCounters.year], set: { last: sql`${invoiceCounters.last} + 1` } })
    .returning({ last: invoiceCounters.last });
  const last = sql`(select last from counter)`;
  const update = tx
    .update(invoices)
    .set({ ...fields, sequence: sql`${last}`, number: sql`${`${series.prefix}${series.year}-`}::text || lpad(${last}::text, greatest(4, length(${last}::text)), '0')` })
    .where(eq(invoices.id, invoiceId));
  const [row] = rowsOf<{ sequence: number | string; number: string }>(
    await tx.execute(sql`with counter as (${counter.getSQL()}) ${update.getSQL()} returning ${invoices.sequence}, ${invoices.number}`),
  );
  if (!row) throw new Error(`takeNumberAndIssue: invoice ${invoiceId} not found`);
  const sequence = Number(row.sequence);
  if (row.number !== formatInvoiceNumber({ ...series, sequence })) throw new Error(`takeNumberAndIssue: the database wrote ${row.number} for sequence ${sequence}`);
  return { sequence, number: row.number };
}

/** What a record keeps of the one before it (its fingerprint, and the reference the XML repeats). */
export type PreviousRecord = Pick<VerifactuRecordRow, 'fingerprint' | 'issuerTaxId' | 'invoiceNumber' | 'issueDate'>;
export type ChainHead = { position: number; previous: PreviousRecord | null };

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/**
 * Takes the head of an issuer's VERI*FACTU chain for this transaction: the row lock orders every record
 * of that tax id, so each one chains on the one before, with no fork, whichever workspace or process
 * writes it. `appendRecord` must follow in the same transaction. One statement: the head is created
 * or locked, and its last record read, together.
 */
export async function lockChain(tx: Tx, issuerTaxId: string): Promise<ChainHead> {
  const [head] = rowsOf<{ length: number | string; fingerprint: string | null; issuer_tax_id: string | null; invoice_number: string | null; issue_date: string | null }>(
    await tx.execute(sql`
      with head as (
        insert into verifactu_chains (issuer_tax_id, length) values (${issuerTaxId}, 0)
        on conflict (issuer_tax_id) do update set length = verifactu_chains.length
        returning length, last_record_id
      )
      select head.length, r.fingerprint, r.issuer_tax_id, r.invoice_number, r.issue_date::text as issue_date
      from head left join verifactu_records r on r.id = head.last_record_id`),
  );
  const previous = head!.fingerprint
    ? { fingerprint: head!.fingerprint, issuerTaxId: head!.issuer_tax_id!, invoiceNumber: head!.invoice_number!, issueDate: head!.issue_date! }
    : null;
  return { position: Number(head!.length) + 1, previous };
}

/**
 * Appends a record to its issuer's chain (locked by `lockChain` in this transaction) and moves the head,
 * in one statement (the head's update in a CTE; either both happen or neither), with `alongside`: other
 * writes (complete statements, nothing returned) made in the same statement. Returns the record as stored.
 */
export async function appendRecord(tx: Tx, record: typeof verifactuRecords.$inferInsert, alongside: SQL[] = []): Promise<VerifactuRecordRow> {
  const row: VerifactuRecordRow = { ...record, id: randomUUID(), previousFingerprint: record.previousFingerprint ?? null, createdAt: new Date() };
  const insert = tx.insert(verifactuRecords).values(row);
  // Other writes of the same transaction that need nothing back (the audit row) ride in the statement.
  const more = alongside.map((stmt, i) => sql`, ${sql.raw(`also_${i}`)} as (${stmt})`);
  await tx.execute(sql`
    with head as (
      update verifactu_chains set length = ${row.position}, last_fingerprint = ${row.fingerprint}, last_record_id = ${row.id}
      where issuer_tax_id = ${row.issuerTaxId}
    )${sql.join(more)}
    ${insert.getSQL()}`);
  return row;
}
