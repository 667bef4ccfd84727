import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export type DataDirLock = { release(): void };

export class DataDirInUseError extends Error {}

type LockInfo = { host: string; pid: number; token: string; heartbeatAt: number };

export type LockOptions = {
  /** How often the owner rewrites its heartbeat (default 10 s). */
  heartbeatMs?: number;
  /** A lock from another host whose heartbeat is older than this is stale (default 30 s). */
  staleMs?: number;
  /** This machine's name (tests). */
  host?: string;
};

/**
 * Exactly one process owns a PGlite data dir: a second one would corrupt it. The lock file names the
 * owner's host, pid and a random token, and the owner rewrites its heartbeat every few seconds.
 * On the same host the pid tells whether the owner lives. Across hosts (two containers sharing a volume,
 * where both are often pid 1) a pid says nothing: a fresh heartbeat means the owner lives. So a
 * crash on the same machine is taken over at once, and one elsewhere after the stale period.
 */
export function acquireDataDirLock(dataDir: string, opts: LockOptions = {}): DataDirLock {
  const file = join(dataDir, 'divan.lock');
  const host = opts.host ?? hostname();
  const staleMs = opts.staleMs ?? 30_000;
  const mine: LockInfo = { host, pid: process.pid, token: randomUUID(), heartbeatAt: Date.now() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify(mine));
      closeSync(fd);
      return hold(file, mine, opts.heartbeatMs ?? 10_000);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readLock(file);
      if (owner && ownerLives(owner, host, staleMs)) {
        const where = owner.host === host ? `PID ${owner.pid}` : `PID ${owner.pid} on ${owner.host}`;
        throw new DataDirInUseError(
          `The data directory ${dataDir} is in use by another Diván process (${where}). Stop it first, or set DATA_DIR to another directory.`,
        );
      }
      // A stale lock left by a process that died: take it over (two takers race on the `wx` create above).
      rmSync(file, { force: true });
    }
  }
  throw new DataDirInUseError(`Could not lock the data directory ${dataDir}.`);
}

function ownerLives(owner: LockInfo, host: string, staleMs: number): boolean {
  if (owner.host === host) return owner.pid !== process.pid && isAlive(owner.pid);
  return Date.now() - owner.heartbeatAt < staleMs;
}

function hold(file: string, mine: LockInfo, heartbeatMs: number): DataDirLock {
  const beat = setInterval(() => {
    // Rewritten only while it is still ours (after a long stall another process may have taken it over).
    if (readLock(file)?.token !== mine.token) return;
    try {
      writeFileSync(file, JSON.stringify({ ...mine, heartbeatAt: Date.now() }), { mode: 0o600 });
    } catch {
      // The next beat tries again.
    }
  }, heartbeatMs);
  beat.unref();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      clearInterval(beat);
      if (readLock(file)?.token === mine.token) rmSync(file, { force: true });
    },
  };
}

/** The lock's owner; a lock written by an older Diván holds only a pid (taken as this host's). */
function readLock(file: string): LockInfo | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
  if (/^\d+$/.test(text)) return { host: hostname(), pid: Number(text), token: '', heartbeatAt: 0 };
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    return typeof v.pid === 'number' && typeof v.host === 'string'
      ? { host: v.host, pid: v.pid, token: String(v.token ?? ''), heartbeatAt: Number(v.heartbeatAt ?? 0) }
      : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
