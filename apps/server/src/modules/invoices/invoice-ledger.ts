import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { formatInvoiceNumber } from '@divan/core';
import type { Tx } from '../../platform/db/database';
import { queryPrepared } from '../../platform/db/sql-executor';
import { type invoices, verifactuRecords, type VerifactuRecordRow } from './invoices.tables';
import { sha256Upper } from './verifactu/fingerprint';

export type SeriesKey = { sellerKey: string; kind: 'ordinary' | 'rectifying'; year: number; prefix: string };
export type IssuedFields = Pick<typeof invoices.$inferInsert, 'status' | 'series' | 'issueDate' | 'issuedAt' | 'seller' | 'buyer' | 'updatedAt'>;

/** What the issuing statement writes besides the number: the registration record, its hashed string cut around the number and the previous fingerprint. */
export type RegistrationToAppend = Omit<typeof verifactuRecords.$inferInsert, 'id' | 'position' | 'invoiceNumber' | 'previousFingerprint' | 'fingerprint' | 'createdAt' | 'detail'> & {
  hashParts: [string, string, string];
  /** The record's detail but `previous`, which the statement writes from the chain head. */
  detail: Record<string, unknown>;
};
export type IssuedRecord = { sequence: number; number: string; record: VerifactuRecordRow };

/**
 * Issuing's writes in ONE statement, the only one that holds the series' and the chain's locks before the
 * commit (so concurrent issues of one issuer queue on the shortest possible critical section):
 * - the series' counter row created at 1 or incremented (its row lock orders the numbers; a rolled-back
 *   issue or savepoint gives its number back), the number written from it (`<prefix><year>-` and the
 *   sequence padded to four digits, never cut);
 * - the draft (locked by this transaction) updated to issued with it;
 * - the issuer's chain head created or moved on, from its own newest row: the registration's fingerprint
 *   is hashed by the database from `hashParts`, the number and the head's last fingerprint, and the old
 *   head is kept as `previous_*` (what the record chains on);
 * - the record inserted, and `alongside`'s writes (the audit row), which may read the CTE `numbered`.
 * The answer is checked against core's `formatInvoiceNumber` and `registrationFingerprint` recomputed
 * here; a difference throws (the transaction rolls back: nothing is ever numbered or chained otherwise).
 * Runs as a named prepared statement on PostgreSQL (parsed and planned once per connection).
 */
export async function issueAndRecord(tx: Tx, series: SeriesKey, invoiceId: string, fields: IssuedFields, reg: RegistrationToAppend, alongside: SQL[] = []): Promise<IssuedRecord> {
  const id = randomUUID();
  const createdAt = new Date();
  const [a, b, c] = reg.hashParts;
  const hashed = (number: SQL, previous: SQL) => sql`upper(encode(sha256(convert_to(${a}::text || ${number} || ${b}::text || ${previous} || ${c}::text, 'UTF8')), 'hex'))`;
  const more = alongside.map((stmt, i) => sql`, ${sql.raw(`also_${i}`)} as (${stmt})`);
  const [row] = await queryPrepared<{ sequence: number | string; number: string; position: number | string; fingerprint: string; previous_fingerprint: string | null; previous_number: string | null; previous_issue_date: string | null }>(
    tx,
    sql`
    with counter as (
      insert into invoice_counters as k (seller_key, kind, year, prefix, last) values (${series.sellerKey}, ${series.kind}, ${series.year}::int, ${series.prefix}, 1)
      on conflict (seller_key, kind, prefix, year) do update set last = k.last + 1
      returning last
    ), numbered as (
      select last as sequence, ${`${series.prefix}${series.year}-`}::text || lpad(last::text, greatest(4, length(last::text)), '0') as number from counter
    ), inv as (
      update invoices i set status = ${fields.status}, series = ${fields.series}, issue_date = ${fields.issueDate}::date, issued_at = ${fields.issuedAt!.toISOString()}::timestamptz,
        seller = ${JSON.stringify(fields.seller)}::jsonb, buyer = ${JSON.stringify(fields.buyer)}::jsonb, updated_at = ${fields.updatedAt!.toISOString()}::timestamptz,
        sequence = n.sequence, number = n.number
      from numbered n where i.id = ${invoiceId}::uuid
      returning i.id
    ), head as (
      insert into verifactu_chains as h (issuer_tax_id, length, last_fingerprint, last_record_id, last_number, last_issue_date)
      select ${reg.issuerTaxId}, 1, ${hashed(sql`n.number`, sql`''`)}, ${id}::uuid, n.number, ${reg.issueDate}::date from numbered n
      on conflict (issuer_tax_id) do update set
        length = h.length + 1,
        previous_fingerprint = h.last_fingerprint, previous_number = h.last_number, previous_issue_date = h.last_issue_date,
        last_fingerprint = ${hashed(sql`excluded.last_number`, sql`coalesce(h.last_fingerprint, '')`)},
        last_record_id = excluded.last_record_id, last_number = excluded.last_number, last_issue_date = excluded.last_issue_date
      returning h.length, h.last_fingerprint, h.previous_fingerprint, h.previous_number, h.previous_issue_date
    ), rec as (
      insert into verifactu_records (id, issuer_tax_id, issuer_name, position, record_type, invoice_id, workspace_id, invoice_number, issue_date,
        invoice_type, vat_total, total, previous_fingerprint, fingerprint, generated_at, detail, created_at)
      select ${id}::uuid, ${reg.issuerTaxId}, ${reg.issuerName}, h.length, ${reg.recordType}, ${reg.invoiceId}::uuid, ${reg.workspaceId}::uuid, n.number, ${reg.issueDate}::date,
        ${reg.invoiceType}, ${reg.vatTotal}::int, ${reg.total}::int, h.previous_fingerprint, h.last_fingerprint, ${reg.generatedAt},
        ${JSON.stringify(reg.detail)}::jsonb || jsonb_build_object('previous', case when h.previous_number is null then null
          else jsonb_build_object('issuerTaxId', ${reg.issuerTaxId}::text, 'number', h.previous_number, 'issueDate', h.previous_issue_date::text) end),
        ${createdAt.toISOString()}::timestamptz
      from head h, numbered n
    )${sql.join(more)}
    select n.sequence, n.number, h.length as position, h.last_fingerprint as fingerprint, h.previous_fingerprint, h.previous_number, h.previous_issue_date::text as previous_issue_date
    from numbered n, head h, inv`,
  );
  if (!row) throw new Error(`issueAndRecord: invoice ${invoiceId} not found`);
  const sequence = Number(row.sequence);
  if (row.number !== formatInvoiceNumber({ ...series, sequence })) throw new Error(`issueAndRecord: the database wrote ${row.number} for sequence ${sequence}`);
  const fingerprint = sha256Upper(reg.hashParts[0] + row.number + reg.hashParts[1] + (row.previous_fingerprint ?? '') + reg.hashParts[2]);
  if (row.fingerprint !== fingerprint) throw new Error(`issueAndRecord: the database hashed ${row.number} as ${row.fingerprint}, not ${fingerprint}`);
  const previous = row.previous_number ? { issuerTaxId: reg.issuerTaxId, number: row.previous_number, issueDate: row.previous_issue_date! } : null;
  const { hashParts: _parts, ...stored } = reg;
  const record: VerifactuRecordRow = {
    ...stored,
    id,
    position: Number(row.position),
    invoiceNumber: row.number,
    previousFingerprint: row.previous_fingerprint,
    fingerprint,
    detail: { ...reg.detail, previous },
    createdAt,
  };
  return { sequence, number: row.number, record };
}

/** What a record keeps of the one before it (its fingerprint, and the reference the XML repeats). */
export type PreviousRecord = Pick<VerifactuRecordRow, 'fingerprint' | 'issuerTaxId' | 'invoiceNumber' | 'issueDate'>;
export type ChainHead = { position: number; previous: PreviousRecord | null };

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/**
 * Takes the head of an issuer's VERI*FACTU chain for this transaction: the row lock orders every record
 * of that tax id, so each one chains on the one before, with no fork, whichever workspace or process
 * writes it. `appendRecord` must follow in the same transaction. One statement: the head is created
 * or locked, and its last record's reference read from the head itself (its newest version, whereas a
 * record committed while this statement waited for the lock would not be in its snapshot).
 */
export async function lockChain(tx: Tx, issuerTaxId: string): Promise<ChainHead> {
  const [head] = rowsOf<{ length: number | string; last_fingerprint: string | null; last_number: string | null; last_issue_date: string | null }>(
    await tx.execute(sql`
      insert into verifactu_chains (issuer_tax_id, length) values (${issuerTaxId}, 0)
      on conflict (issuer_tax_id) do update set length = verifactu_chains.length
      returning length, last_fingerprint, last_number, last_issue_date::text as last_issue_date`),
  );
  const previous = head!.last_fingerprint
    ? { fingerprint: head!.last_fingerprint, issuerTaxId, invoiceNumber: head!.last_number!, issueDate: head!.last_issue_date! }
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
      update verifactu_chains set length = ${row.position}, last_fingerprint = ${row.fingerprint}, last_record_id = ${row.id},
        last_number = ${row.invoiceNumber}, last_issue_date = ${row.issueDate}::date,
        previous_fingerprint = last_fingerprint, previous_number = last_number, previous_issue_date = last_issue_date
      where issuer_tax_id = ${row.issuerTaxId}
    )${sql.join(more)}
    ${insert.getSQL()}`);
  return row;
}
