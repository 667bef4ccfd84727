import type { DbOrTx } from '../db/database';
import type { Jobs } from '../jobs/jobs';
import type { Storage } from './storage';

const DELETE_QUEUE = 'storage.delete';
/**
 * A write on disk is renamed into place when complete; a temporary file this old was abandoned by a crash or a cut
 * upload. On S3 a failed upload is aborted by the driver; a crash's unfinished multipart upload is the bucket's
 * lifecycle rule's (AbortIncompleteMultipartUpload, README).
 */
const ABANDONED_AFTER_MS = 24 * 3_600_000;

/**
 * Stored bytes outlive no row: deleting them is a job written in the transaction that deletes their rows,
 * so the bytes go only once it commits, and still go if the process dies right after.
 */
export class StorageCleanup {
  constructor(
    private readonly jobs: Jobs,
    private readonly storage: Storage,
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

  /** What writes that never finished left behind (temporary files on disk), at most 500 a run. */
  private async sweepAbandoned(): Promise<number> {
    return (await this.storage.sweepAbandoned?.(ABANDONED_AFTER_MS, 500)) ?? 0;
  }
}
