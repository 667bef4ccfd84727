import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';

/** Where blobs live. Local disk under DATA_DIR/files by default; an S3-compatible store later. */
export type Storage = {
  /** A stream is written as it arrives (never held in memory); if it fails, nothing is left behind. */
  put(key: string, data: Buffer | Readable): Promise<void>;
  get(key: string): Readable;
  /** Bytes `start` to `end`, both inclusive (encrypted files keep their iv and tag at the ends). */
  getRange(key: string, start: number, end: number): Readable;
  size(key: string): Promise<number>;
  delete(key: string): Promise<void>;
};

export function localDiskStorage(root: string): Storage {
  const path = (key: string) => {
    if (!/^[\w./-]+$/.test(key) || key.includes('..')) throw new Error(`invalid storage key ${key}`);
    return join(root, key);
  };
  return {
    async put(key, data) {
      const target = path(key);
      await mkdir(dirname(target), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const tmp = `${target}.${randomUUID()}.tmp`;
      try {
        if (Buffer.isBuffer(data)) await writeFile(tmp, data);
        else await pipeline(data, createWriteStream(tmp));
        await rename(tmp, target);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },
    get: (key) => createReadStream(path(key)),
    getRange: (key, start, end) => createReadStream(path(key), { start, end }),
    size: async (key) => (await stat(path(key))).size,
    delete: (key) => rm(path(key), { force: true }),
  };
}
