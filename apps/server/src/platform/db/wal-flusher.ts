import { closeSync, fsyncSync, openSync, readdirSync, statSync } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Fsyncs the PGlite WAL segments written since the last pass. PGlite's WASM filesystem turns
 * Postgres' own fsync calls into no-ops, so the host does it: commits are on disk within `intervalMs`
 * (plus the pass's own time). The periodic pass runs on libuv's thread pool (fs/promises), so a slow
 * disk never holds the event loop; a pass starts only when the one before has ended. The last pass,
 * at shutdown, is synchronous: the process may exit right after it.
 */
export class WalFlusher {
  private timer: NodeJS.Timeout | undefined;
  private lastPass = 0;
  private running: Promise<void> | undefined;

  constructor(
    private readonly pgdata: string,
    private readonly intervalMs = 200,
  ) {}

  start() {
    this.timer = setInterval(() => void this.pass(), this.intervalMs);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.flush(true);
  }

  /** One periodic pass, off the event loop; a pass asked for while one runs is that same pass. */
  pass(): Promise<void> {
    if (this.running) return this.running;
    const since = this.lastPass - this.intervalMs;
    this.lastPass = Date.now();
    this.running = syncDirAsync(join(this.pgdata, 'pg_wal'), since)
      // The data dir may be gone (tests removing it); nothing to flush then.
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Synchronous; `all` also syncs the data files (after the shutdown checkpoint). */
  flush(all = false) {
    const since = all ? 0 : this.lastPass - this.intervalMs;
    this.lastPass = Date.now();
    try {
      syncDir(join(this.pgdata, 'pg_wal'), since, false);
      if (all) syncDir(this.pgdata, 0, true);
    } catch {
      // As above.
    }
  }
}

function syncDir(dir: string, since: number, recursive: boolean) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (recursive) syncDir(path, since, true);
      continue;
    }
    if (!entry.isFile() || statSync(path).mtimeMs < since) continue;
    const fd = openSync(path, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

async function syncDirAsync(dir: string, since: number) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(dir, entry.name);
    try {
      if ((await stat(path)).mtimeMs < since) continue;
      const file = await open(path, 'r+');
      try {
        await file.sync();
      } finally {
        await file.close();
      }
    } catch {
      // A segment recycled or removed between the listing and its turn: nothing left to sync.
    }
  }
}
