import type { DbOrTx } from './database';

/** What pg-boss calls its `db`: raw SQL with `$n` parameters, on a pool, a PGlite instance or a transaction. */
export type SqlExecutor = {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] } | { rows: Record<string, unknown>[] }[]>;
};

type RawClient = {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
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
