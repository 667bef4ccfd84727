import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './database';

/** What pg-boss calls its `db`: raw SQL with `$n` parameters, on a pool, a PGlite instance or a transaction. */
export type SqlExecutor = {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] } | { rows: Record<string, unknown>[] }[]>;
};

type RawClient = {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** node-postgres: a query with a name is parsed and planned once per connection, then only bound and run. */
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
  /** PGlite only: several statements, no parameters, one result each. */
  exec?: (text: string) => Promise<{ rows: Record<string, unknown>[] }[]>;
};

/**
 * The client under a Drizzle database or transaction: node-postgres's Pool or PoolClient, or PGlite
 * (or its transaction). Drizzle keeps it as `session.client` in both drivers; reading it here, once,
 * lets pg-boss write its job rows in the caller's transaction (rolled back with it).
 */
function rawClient(d: DbOrTx): RawClient {
  const client = (d as unknown as { session?: { client?: RawClient } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('no SQL client under this Drizzle handle');
  return client;
}

/**
 * pg's `query` takes several statements when there are no parameters; PGlite's does not, so
 * parameterless text goes to its `exec`, which answers one result per statement (as pg does).
 */
export function sqlExecutor(d: DbOrTx): SqlExecutor {
  const client = rawClient(d);
  return {
    async executeSql(text, values) {
      if (values?.length || !client.exec) return client.query(text, values);
      const results = await client.exec(text);
      return results.length === 1 ? results[0]! : results;
    },
  };
}

const statementNames = new Map<string, string>();

/**
 * Runs a statement built with drizzle's `sql` on the client under `d` (a transaction included) as a
 * named prepared statement on PostgreSQL: the server parses and plans its text once per connection
 * instead of on every call. For the hot paths only (issuing an invoice), whose text is the same on every
 * call. The name is the text's digest, so two texts never share one. Rows come back as the driver reads
 * them (snake_case; cast dates and bigints to text in the statement). PGlite has no use for the name.
 */
export async function queryPrepared<T>(d: DbOrTx, query: SQL): Promise<T[]> {
  const { sql: text, params } = (d as unknown as { dialect: PgDialect }).dialect.sqlToQuery(query);
  const client = rawClient(d);
  // Told to the handle's logger as drizzle's own statements are (a test counts a request's: `onStatement`).
  (d as unknown as { session?: { logger?: { logQuery(q: string, p: unknown[]): void } } }).session?.logger?.logQuery(text, params);
  if (client.exec) return (await client.query(text, params)).rows as T[];
  let name = statementNames.get(text);
  if (!name) {
    name = `divan_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    statementNames.set(text, name);
  }
  return (await client.query({ name, text, values: params })).rows as T[];
}
