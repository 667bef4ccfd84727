import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { WalFlusher } from './wal-flusher';
import { takeTurns } from './statement-turns';
import { primaryOnly, withReplica, type ReadRouting } from './read-routing';

export type Db = PgDatabase<PgQueryResultHKT>;
/** The transaction handle drizzle passes to `db.transaction(cb)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Where heavy reads go: the replica of DATABASE_REPLICA_URL when it has caught up, else `db` (read-routing.ts). */
  reads: ReadRouting;
  /** PostgreSQL: each pool's connections now (metrics); PGlite has none. */
  pools?: () => { pool: 'primary' | 'replica'; total: number; idle: number; waiting: number }[];
  close(): Promise<void>;
};

type PoolCounts = { totalCount: number; idleCount: number; waitingCount: number };
const countsOf = (pool: 'primary' | 'replica', p: PoolCounts) => ({
  pool,
  total: p.totalCount,
  idle: p.idleCount,
  waiting: p.waitingCount,
});

export type DatabaseOptions = {
  /** PostgreSQL server; when absent, PGlite. */
  url?: string;
  /** A streaming replica of `url` (DATABASE_REPLICA_URL), for the heavy reads (read-routing.ts). */
  replicaUrl?: string;
  /** PGlite data dir parent (DATA_DIR); undefined keeps PGlite in memory (tests). */
  dataDir?: string;
  migrationsFolder: string;
  poolSize?: number;
  /** In-memory PGlite only (tests): start from this dumped data dir, already migrated (`migratedPgliteDump`), instead of a new cluster. */
  loadDataDir?: Blob;
  /** Tests: told of every statement Drizzle sends (after the migrations), to count the statements of a request. */
  onStatement?: (sql: string) => void;
};

/** Drizzle's logger option for `onStatement`. */
const statementLogger = (onStatement?: (sql: string) => void) =>
  onStatement ? { logger: { logQuery: (query: string) => onStatement(query) } } : {};

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.url ? openPostgres(opts.url, opts) : openPglite(opts);
}

// Each driver loads only when used: a server on PostgreSQL never loads PGlite's WASM, one on PGlite never loads pg.
async function openPostgres(url: string, opts: DatabaseOptions): Promise<Database> {
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10 });
  pool.on('error', (err) => console.error('postgres pool error', err.message));
  await migratePg(drizzlePg(pool) as never, { migrationsFolder: opts.migrationsFolder });
  const db = drizzlePg(pool, statementLogger(opts.onStatement)) as unknown as Db;
  if (!opts.replicaUrl)
    return { db, kind: 'postgres', reads: primaryOnly(db), pools: () => [countsOf('primary', pool)], close: () => pool.end() };
  // Reads only, no migrations (the replica replays the primary's); a dead replica is given up on quickly.
  const replicaPool = new pg.Pool({
    connectionString: opts.replicaUrl,
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: 2_000,
    application_name: 'divan-reader',
  });
  replicaPool.on('error', (err) => console.error('postgres replica pool error', err.message));
  const replica = drizzlePg(replicaPool, statementLogger(opts.onStatement)) as unknown as Db;
  const reads = withReplica(db, replica, {
    primaryQuery: (text, values) => pool.query(text, values),
    replicaQuery: (text, values) => replicaPool.query(text, values),
    warn: (message) => console.warn(message),
  });
  return {
    db,
    kind: 'postgres',
    reads,
    pools: () => [countsOf('primary', pool), countsOf('replica', replicaPool)],
    close: async () => {
      await Promise.all([pool.end(), replicaPool.end()]);
    },
  };
}

/**
 * PGlite runs Postgres in this process. Its WASM build starts with fsync off (`-F`) and its
 * filesystem layer swallows fsync, so we start it with fsync on, and a WalFlusher makes the host
 * fsync the WAL: a commit reaches the OS at once (safe against a killed process) and the disk
 * within the flush interval (see docs/decisions/0002-pglite-durability.md).
 */
async function loadPglite() {
  // Postgres's WASM is compiled by V8's baseline compiler only: TurboFan's optimised copy of the hot
  // functions costs ~40 MB of resident memory for ~30% on long searches (docs/decisions/0007).
  setFlagsFromString('--liftoff-only');
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  // fsync on (no -F); 8 MB of shared buffers instead of 128 (Postgres touches all of it at start: each MB is
  // a MB of resident memory); the OS page cache serves what does not fit (docs/decisions/0007).
  const startParams = [...PGlite.defaultStartParams.filter((p) => p !== '-F'), '-c', 'shared_buffers=8MB'];
  return { PGlite, pg_trgm, drizzlePglite, migratePglite, startParams };
}

/**
 * A migrated, empty in-memory database dumped as a data dir (tests): a new PGlite cluster and every
 * migration cost ~4 s of CPU, loading this dump ~0.7 s, so a test run makes it once per worker.
 */
export async function migratedPgliteDump(migrationsFolder: string): Promise<Blob> {
  const { PGlite, pg_trgm, drizzlePglite, migratePglite, startParams } = await loadPglite();
  const client = await PGlite.create({ startParams, extensions: { pg_trgm } });
  try {
    await migratePglite(drizzlePglite(client) as never, { migrationsFolder });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

async function openPglite(opts: DatabaseOptions): Promise<Database> {
  const { PGlite, pg_trgm, drizzlePglite, migratePglite, startParams } = await loadPglite();
  let lock: DataDirLock | undefined;
  let flusher: WalFlusher | undefined;
  let client: PGlite;
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
    client = await PGlite.create({ startParams, extensions: { pg_trgm }, ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  }
  // A computation's statements inside `inTurns` one at a time, so other requests' pass in between.
  takeTurns(client);
  const db = drizzlePglite(client, statementLogger(opts.onStatement)) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder: opts.migrationsFolder });
  return {
    db,
    kind: 'pglite',
    reads: primaryOnly(db),
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
