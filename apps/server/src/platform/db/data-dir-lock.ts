import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export type DataDirLock = { release(): void };

export class DataDirInUseError extends Error {}

/** Exactly one process owns a PGlite data dir: a second one would corrupt it. */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = join(dataDir, 'divan.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new DataDirInUseError(
          `The data directory ${dataDir} is in use by another Diván process (PID ${pid}). Stop it first, or set DATA_DIR to another directory.`,
        );
      }
      // A stale lock left by a process that died: take it over.
      rmSync(file, { force: true });
    }
  }
  throw new DataDirInUseError(`Could not lock the data directory ${dataDir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
