import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './database';

/**
 * Where a heavy read goes (issue 31): the statistics, exports, the calendars and the public month of slots
 * tolerate a second of lag, so with DATABASE_REPLICA_URL they may read a streaming replica. Repositories
 * never choose: they ask for "a reader" here and get the replica or the primary.
 *
 * Read-your-writes by LSN, not by a sticky window: before a read goes to the replica, the primary's
 * flushed WAL position is taken (`pg_current_wal_flush_lsn()`, one trivial statement) and the replica must
 * have replayed up to it (`pg_last_wal_replay_lsn()`), waiting a few milliseconds if it has not. Every
 * transaction committed before the read began — the caller's own write through another web process, and a
 * write that dropped a cached answer everywhere — is then on the replica, so a cache is never refilled with
 * what the write replaced. A replica further behind than `maxWaitMs`, or failing, sends reads to the
 * primary (a failing one for `downForMs`, so a dead replica costs one connection timeout, not one per read).
 *
 * Without a replica (no DATABASE_REPLICA_URL, or PGlite) every reader is the primary and nothing is asked.
 */
export type ReadRouting = {
  /** The database for one heavy read: the replica when it has replayed every commit made before this call, else the primary. */
  reader(): Promise<Db>;
  /** Runs `fn` with `current()` answering `reader()`'s choice: for reads several ports make (the statistics). */
  onReplica<T>(fn: () => Promise<T>): Promise<T>;
  /** The database of the enclosing `onReplica`, else the primary. */
  current(): Db;
  /** How many reads went where (tests, metrics). */
  readonly counts: { replica: number; primary: number };
};

type Query = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export type ReplicaOptions = {
  /** Raw queries on each pool (pg's Pool.query), for the LSN checks. */
  primaryQuery: Query;
  replicaQuery: Query;
  /** How long a read may wait for the replica to catch up before it goes to the primary (default 250 ms). */
  maxWaitMs?: number;
  /** After a replica error, how long reads skip it (default 5 s). */
  downForMs?: number;
  warn?: (message: string) => void;
};

/** Every read on the primary: PGlite, or PostgreSQL without DATABASE_REPLICA_URL. */
export function primaryOnly(primary: Db): ReadRouting {
  const counts = { replica: 0, primary: 0 };
  return {
    counts,
    async reader() {
      counts.primary++;
      return primary;
    },
    onReplica: (fn) => fn(),
    current: () => primary,
  };
}

const POLL_MS = 5;

export function withReplica(primary: Db, replica: Db, o: ReplicaOptions): ReadRouting {
  const maxWaitMs = o.maxWaitMs ?? 250;
  const downForMs = o.downForMs ?? 5_000;
  const counts = { replica: 0, primary: 0 };
  const chosen = new AsyncLocalStorage<Db>();
  let downUntil = 0;

  const caughtUp = async (): Promise<boolean> => {
    if (Date.now() < downUntil) return false;
    try {
      const { rows } = await o.primaryQuery('SELECT pg_current_wal_flush_lsn()::text AS lsn');
      const lsn = rows[0]!.lsn as string;
      const deadline = Date.now() + maxWaitMs;
      for (;;) {
        // NULL on a server that is not a standby: never caught up, so never read.
        const { rows: r } = await o.replicaQuery('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [lsn]);
        if (r[0]!.ok === true) return true;
        if (r[0]!.ok === null) throw new Error('not a standby (pg_last_wal_replay_lsn() is null)');
        if (Date.now() >= deadline) return false;
        await new Promise((next) => setTimeout(next, POLL_MS));
      }
    } catch (err) {
      downUntil = Date.now() + downForMs;
      o.warn?.(`read replica skipped for ${downForMs} ms: ${(err as Error).message}`);
      return false;
    }
  };

  const reader = async () => {
    if (await caughtUp()) {
      counts.replica++;
      return replica;
    }
    counts.primary++;
    return primary;
  };
  return {
    counts,
    reader,
    async onReplica(fn) {
      if (chosen.getStore()) return fn();
      return chosen.run(await reader(), fn);
    },
    current: () => chosen.getStore() ?? primary,
  };
}

/** What a read-only port is built on: a database, or the routing whose `current()` it reads at each query. */
export type DbSource = Db | Pick<ReadRouting, 'current'>;
export const dbOf = (s: DbSource): Db => ('current' in s && typeof s.current === 'function' ? s.current() : (s as Db));
