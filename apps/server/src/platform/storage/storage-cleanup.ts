import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DbOrTx } from '../db/database';
import type { Jobs } from '../jobs/jobs';
import type { Storage } from './storage';

const DELETE_QUEUE = 'storage.delete';
/** A write is renamed into place when complete; a temporary file this old was abandoned by a crash or a cut upload. */
const ABANDONED_AFTER_MS = 24 * 3_600_000;

/**
 * Stored bytes outlive no row: deleting them is a job written in the transaction that deletes their rows,
 * so the bytes go only once it commits, and still go if the process dies right after.
 */
export class StorageCleanup {
  constructor(
    private readonly jobs: Jobs,
    private readonly storage: Storage,
    private readonly root: string,
  ) {
    jobs.define<{ keys: string[] }>({
      name: DELETE_QUEUE,
      // Deleting a file twice is harmless: no claim needed.
      work: async ({ keys }) => void (await Promise.all(keys.map((k) => this.storage.delete(k)))),
      retryLimit: 10,
      pollingIntervalSeconds: 10,
    });
    jobs.sweep('storage.abandoned-uploads', () => this.sweepAbandoned());
  }

  /** The bytes of `keys` are deleted after `tx` commits (nothing happens if it rolls back). */
  async deleteAfterCommit(tx: DbOrTx, keys: string[]) {
    if (keys.length) await this.jobs.send(DELETE_QUEUE, { keys }, { tx });
  }

  /** Temporary files of writes that never finished, at most 500 a run. */
  private async sweepAbandoned(now = Date.now()): Promise<number> {
    let removed = 0;
    const walk = async (dir: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        if (removed >= 500) return;
        const path = join(dir, e.name);
        if (e.isDirectory()) await walk(path);
        else if (e.name.endsWith('.tmp') && now - (await stat(path)).mtimeMs > ABANDONED_AFTER_MS) {
          await rm(path, { force: true });
          removed++;
        }
      }
    };
    await walk(this.root);
    return removed;
  }
}
