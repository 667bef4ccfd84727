import { closeSync, fsyncSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Fsyncs the PGlite WAL segments written since the last pass. PGlite's WASM filesystem turns
 * Postgres' own fsync calls into no-ops, so the host does it: commits are on disk within `intervalMs`.
 */
export class WalFlusher {
  private timer: NodeJS.Timeout | undefined;
  private lastPass = 0;

  constructor(
    private readonly pgdata: string,
    private readonly intervalMs = 200,
  ) {}

  start() {
    this.timer = setInterval(() => this.flush(), this.intervalMs);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.flush(true);
  }

  /** `all` also syncs the data files (after the shutdown checkpoint). */
  flush(all = false) {
    const since = all ? 0 : this.lastPass - this.intervalMs;
    this.lastPass = Date.now();
    try {
      syncDir(join(this.pgdata, 'pg_wal'), since, false);
      if (all) syncDir(this.pgdata, 0, true);
    } catch {
      // The data dir may be gone (tests removing it); nothing to flush then.
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
