import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { WalFlusher } from './wal-flusher';

export type Db = PgDatabase<PgQueryResultHKT>;
/** The transaction handle drizzle passes to `db.transaction(cb)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** PostgreSQL server; when absent, PGlite. */
  url?: string;
  /** PGlite data dir parent (DATA_DIR); undefined keeps PGlite in memory (tests). */
  dataDir?: string;
  migrationsFolder: string;
  poolSize?: number;
};

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.url ? openPostgres(opts.url, opts) : openPglite(opts);
}

async function openPostgres(url: string, opts: DatabaseOptions): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10 });
  pool.on('error', (err) => console.error('postgres pool error', err.message));
  const db = drizzlePg(pool) as unknown as Db;
  await migratePg(db as never, { migrationsFolder: opts.migrationsFolder });
  return { db, kind: 'postgres', close: () => pool.end() };
}

/**
 * PGlite runs Postgres in this process. Its WASM build starts with fsync off (`-F`) and its
 * filesystem layer swallows fsync, so we start it with fsync on, and a WalFlusher makes the host
 * fsync the WAL: a commit reaches the OS at once (safe against a killed process) and the disk
 * within the flush interval (see docs/decisions/0002-pglite-durability.md).
 */
async function openPglite(opts: DatabaseOptions): Promise<Database> {
  let lock: DataDirLock | undefined;
  let flusher: WalFlusher | undefined;
  let client: PGlite;
  // fsync on (no -F); 16 MB of shared buffers instead of 128: ~120 MB less memory, faster start.
  const startParams = [...PGlite.defaultStartParams.filter((p) => p !== '-F'), '-c', 'shared_buffers=16MB'];
  if (opts.dataDir) {
    mkdirSync(opts.dataDir, { recursive: true });
    lock = acquireDataDirLock(opts.dataDir);
    const pgdata = join(opts.dataDir, 'pgdata');
    try {
      client = await PGlite.create(pgdata, { startParams, extensions: { pg_trgm } });
    } catch (err) {
      lock.release();
      throw err;
    }
    flusher = new WalFlusher(pgdata);
    flusher.start();
  } else {
    client = await PGlite.create({ startParams, extensions: { pg_trgm } });
  }
  const db = drizzlePglite(client) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder: opts.migrationsFolder });
  return {
    db,
    kind: 'pglite',
    async close() {
      if (client.closed) return;
      try {
        await db.execute(sql`CHECKPOINT`);
      } finally {
        await client.close();
        flusher?.stop();
        lock?.release();
      }
    },
  };
}
