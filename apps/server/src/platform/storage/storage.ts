import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';

/** Where blobs live. Local disk under DATA_DIR/files by default; an S3-compatible store later. */
export type Storage = {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Readable;
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
      await writeFile(tmp, data);
      await rename(tmp, target);
    },
    get: (key) => createReadStream(path(key)),
    delete: (key) => rm(path(key), { force: true }),
  };
}
