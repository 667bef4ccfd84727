import { param, sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * `column = ANY($1::uuid[])`: one parameter for any number of ids. drizzle's `inArray` writes one
 * placeholder per id, and a clinic's week names ~3,000 sessions and patients: building, sending and
 * planning that many was a tenth of the calendar read's CPU (docs/decisions/0025-first-reads.md).
 */
export const idIn = (column: AnyColumn, ids: readonly string[]): SQL => sql`${column} = any(${param(ids)}::uuid[])`;
