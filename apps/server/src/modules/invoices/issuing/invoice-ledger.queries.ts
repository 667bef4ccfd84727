import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { DEFAULT_TIME_ZONE, formatInvoiceNumber } from '@divan/core';
import type { Tx } from '../../../platform/db/database';
import { queryPrepared } from '../../../platform/db/sql-executor';
import { type invoices, verifactuRecords, type VerifactuRecordRow } from '../invoices.tables';
import { formatGeneratedAt, sha256Upper } from '../verifactu/fingerprint';

export type SeriesKey = { sellerKey: string; kind: 'ordinary' | 'rectifying'; year: number; prefix: string };
export type IssuedFields = Pick<
  typeof invoices.$inferInsert,
  'status' | 'series' | 'issueDate' | 'issuedAt' | 'seller' | 'buyer' | 'updatedAt'
>;

/** What the issuing statement writes besides the number: the registration record, its hashed string cut around the number, the previous fingerprint and the generation time. */
export type RegistrationToAppend = Omit<
  typeof verifactuRecords.$inferInsert,
  'id' | 'position' | 'invoiceNumber' | 'previousFingerprint' | 'fingerprint' | 'generatedAt' | 'createdAt' | 'detail'
> & {
  hashParts: [string, string, string, string];
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
 * - the issuer's chain head created or moved on, from its own newest row: the generation time is taken
 *   there, once the head's lock is held (the database's clock, to the second, never before the last
 *   record's: so the chain's times never decrease, whoever took a number first), the registration's
 *   fingerprint hashed by the database from `hashParts`, the number, the head's last fingerprint and
 *   that time, and the old head kept as `previous_*` (what the record chains on);
 * - the record inserted, and `alongside`'s writes (the audit row), which may read the CTE `numbered`.
 * The answer is checked against core's `formatInvoiceNumber` and `registrationFingerprint` recomputed
 * here; a difference throws (the transaction rolls back: nothing is ever numbered or chained otherwise).
 * Runs as a named prepared statement on PostgreSQL (parsed and planned once per connection).
 */
export async function issueAndRecord(
  tx: Tx,
  series: SeriesKey,
  invoiceId: string,
  fields: IssuedFields,
  reg: RegistrationToAppend,
  alongside: SQL[] = [],
): Promise<IssuedRecord> {
  const id = randomUUID();
  const createdAt = new Date();
  const [a, b, c, d] = reg.hashParts;
  const hashed = (number: SQL, previous: SQL, at: SQL) =>
    sql`upper(encode(sha256(convert_to(${a}::text || ${number} || ${b}::text || ${previous} || ${c}::text || ${generatedAtText(at)} || ${d}::text, 'UTF8')), 'hex'))`;
  const more = alongside.map((stmt, i) => sql`, ${sql.raw(`also_${i}`)} as (${stmt})`);
  const [row] = await queryPrepared<{
    sequence: number | string;
    number: string;
    position: number | string;
    fingerprint: string;
    generated_at: string;
    generated_epoch: string;
    previous_fingerprint: string | null;
    previous_number: string | null;
    previous_issue_date: string | null;
  }>(
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
      insert into verifactu_chains as h (issuer_tax_id, length, last_fingerprint, last_record_id, last_number, last_issue_date, last_generated_at)
      select ${reg.issuerTaxId}, 1, ${hashed(sql`n.number`, sql`''`, sql`g.at`)}, ${id}::uuid, n.number, ${reg.issueDate}::date, g.at
      from numbered n, (select ${NOW_SECOND} as at) g
      on conflict (issuer_tax_id) do update set
        length = h.length + 1,
        previous_fingerprint = h.last_fingerprint, previous_number = h.last_number, previous_issue_date = h.last_issue_date,
        -- Evaluated once the head row is locked (the proposed row's time above was taken before any wait), once for both columns.
        (last_generated_at, last_fingerprint) = (
          select g.at, ${hashed(sql`excluded.last_number`, sql`coalesce(h.last_fingerprint, '')`, sql`g.at`)}
          from (select greatest(${NOW_SECOND}, h.last_generated_at) as at) g
        ),
        last_record_id = excluded.last_record_id, last_number = excluded.last_number, last_issue_date = excluded.last_issue_date
      returning h.length, h.last_fingerprint, h.last_generated_at, h.previous_fingerprint, h.previous_number, h.previous_issue_date
    ), rec as (
      insert into verifactu_records (id, issuer_tax_id, issuer_name, position, record_type, invoice_id, workspace_id, invoice_number, issue_date,
        invoice_type, vat_total, total, previous_fingerprint, fingerprint, generated_at, detail, created_at)
      select ${id}::uuid, ${reg.issuerTaxId}, ${reg.issuerName}, h.length, ${reg.recordType}, ${reg.invoiceId}::uuid, ${reg.workspaceId}::uuid, n.number, ${reg.issueDate}::date,
        ${reg.invoiceType}, ${reg.vatTotal}::int, ${reg.total}::int, h.previous_fingerprint, h.last_fingerprint, ${generatedAtText(sql`h.last_generated_at`)},
        ${JSON.stringify(reg.detail)}::jsonb || jsonb_build_object('previous', case when h.previous_number is null then null
          else jsonb_build_object('issuerTaxId', ${reg.issuerTaxId}::text, 'number', h.previous_number, 'issueDate', h.previous_issue_date::text) end),
        ${createdAt.toISOString()}::timestamptz
      from head h, numbered n
    )${sql.join(more)}
    select n.sequence, n.number, h.length as position, h.last_fingerprint as fingerprint,
      ${generatedAtText(sql`h.last_generated_at`)} as generated_at, extract(epoch from h.last_generated_at)::bigint::text as generated_epoch,
      h.previous_fingerprint, h.previous_number, h.previous_issue_date::text as previous_issue_date
    from numbered n, head h, inv`,
  );
  if (!row) throw new Error(`issueAndRecord: invoice ${invoiceId} not found`);
  const sequence = Number(row.sequence);
  if (row.number !== formatInvoiceNumber({ ...series, sequence }))
    throw new Error(`issueAndRecord: the database wrote ${row.number} for sequence ${sequence}`);
  const generatedAt = formatGeneratedAt(new Date(Number(row.generated_epoch) * 1000), GENERATION_ZONE);
  if (row.generated_at !== generatedAt)
    throw new Error(`issueAndRecord: the database wrote the time ${row.generated_at}, not ${generatedAt}`);
  const fingerprint = sha256Upper(a + row.number + b + (row.previous_fingerprint ?? '') + c + generatedAt + d);
  if (row.fingerprint !== fingerprint)
    throw new Error(`issueAndRecord: the database hashed ${row.number} as ${row.fingerprint}, not ${fingerprint}`);
  const previous = row.previous_number
    ? { issuerTaxId: reg.issuerTaxId, number: row.previous_number, issueDate: row.previous_issue_date! }
    : null;
  const { hashParts: _parts, ...stored } = reg;
  const record: VerifactuRecordRow = {
    ...stored,
    id,
    position: Number(row.position),
    invoiceNumber: row.number,
    previousFingerprint: row.previous_fingerprint,
    fingerprint,
    generatedAt,
    detail: { ...reg.detail, previous },
    createdAt,
  };
  return { sequence, number: row.number, record };
}

/** The issue's audit details, read from the statement's CTE `numbered` (the number exists only inside it). */
export const issuedAuditDetails = (totalCents: number): SQL =>
  sql`jsonb_build_object('number', (select number from numbered), 'total', ${totalCents}::int)`;

/** FechaHoraHusoGenRegistro is Madrid's wall clock with its offset (formatGeneratedAt's, which checks what the database writes). */
export const GENERATION_ZONE = DEFAULT_TIME_ZONE;
/** The database's clock to the second (formatGeneratedAt drops the fraction too): the generation time's source. */
const NOW_SECOND = sql`date_trunc('second', clock_timestamp())`;

/** A timestamptz as FechaHoraHusoGenRegistro, in SQL: `2026-11-29T10:20:30+01:00` (Madrid's wall clock and its offset then). */
function generatedAtText(at: SQL): SQL {
  const zone = sql.raw(`'${GENERATION_ZONE}'`);
  const offset = sql`(extract(epoch from (${at} at time zone ${zone}) - (${at} at time zone 'UTC'))::int / 60)`;
  return sql`(to_char(${at} at time zone ${zone}, 'YYYY-MM-DD"T"HH24:MI:SS') || case when ${offset} < 0 then '-' else '+' end
    || lpad((abs(${offset}) / 60)::text, 2, '0') || ':' || lpad((abs(${offset}) % 60)::text, 2, '0'))`;
}

/** What a record keeps of the one before it (its fingerprint, and the reference the XML repeats). */
export type PreviousRecord = Pick<VerifactuRecordRow, 'fingerprint' | 'issuerTaxId' | 'invoiceNumber' | 'issueDate'>;
/** `generatedAt`: the next record's generation time, taken while the lock is held (the database's clock, never before the last record's). */
export type ChainHead = { position: number; previous: PreviousRecord | null; generatedAt: Date };

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/**
 * Takes the head of an issuer's VERI*FACTU chain for this transaction: the row lock orders every record
 * of that tax id, so each one chains on the one before, with no fork, whichever workspace or process
 * writes it. `appendRecord` must follow in the same transaction. One statement: the head is created
 * or locked, and its last record's reference read from the head itself (its newest version, whereas a
 * record committed while this statement waited for the lock would not be in its snapshot).
 */
export async function lockChain(tx: Tx, issuerTaxId: string): Promise<ChainHead> {
  const [head] = rowsOf<{
    length: number | string;
    last_fingerprint: string | null;
    last_number: string | null;
    last_issue_date: string | null;
    generated_epoch: string;
  }>(
    await tx.execute(sql`
      insert into verifactu_chains (issuer_tax_id, length) values (${issuerTaxId}, 0)
      on conflict (issuer_tax_id) do update set length = verifactu_chains.length
      returning length, last_fingerprint, last_number, last_issue_date::text as last_issue_date,
        extract(epoch from greatest(${NOW_SECOND}, last_generated_at))::bigint::text as generated_epoch`),
  );
  const previous = head!.last_fingerprint
    ? { fingerprint: head!.last_fingerprint, issuerTaxId, invoiceNumber: head!.last_number!, issueDate: head!.last_issue_date! }
    : null;
  return { position: Number(head!.length) + 1, previous, generatedAt: new Date(Number(head!.generated_epoch) * 1000) };
}

/**
 * Appends a record to its issuer's chain (locked by `lockChain` in this transaction) and moves the head,
 * in one statement (the head's update in a CTE; either both happen or neither), with `alongside`: other
 * writes (complete statements, nothing returned) made in the same statement. Returns the record as stored.
 */
export async function appendRecord(
  tx: Tx,
  record: typeof verifactuRecords.$inferInsert,
  alongside: SQL[] = [],
): Promise<VerifactuRecordRow> {
  const row: VerifactuRecordRow = {
    ...record,
    id: randomUUID(),
    previousFingerprint: record.previousFingerprint ?? null,
    createdAt: new Date(),
  };
  const insert = tx.insert(verifactuRecords).values(row);
  // Other writes of the same transaction that need nothing back (the audit row) ride in the statement.
  const more = alongside.map((stmt, i) => sql`, ${sql.raw(`also_${i}`)} as (${stmt})`);
  await tx.execute(sql`
    with head as (
      update verifactu_chains set length = ${row.position}, last_fingerprint = ${row.fingerprint}, last_record_id = ${row.id},
        last_number = ${row.invoiceNumber}, last_issue_date = ${row.issueDate}::date, last_generated_at = ${row.generatedAt}::timestamptz,
        previous_fingerprint = last_fingerprint, previous_number = last_number, previous_issue_date = last_issue_date
      where issuer_tax_id = ${row.issuerTaxId}
    )${sql.join(more)}
    ${insert.getSQL()}`);
  return row;
}
