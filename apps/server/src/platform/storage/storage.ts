import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors';

/**
 * A key whose bytes are not in storage though a row names them: a DATA_DIR that is not the one the other
 * processes write to, a volume lost or restored without its files. A Spanish 410 for the client and one
 * error line naming the key (error-handler.ts), never a 500 with a bare ENOENT.
 */
export class StoredFileMissing extends AppError {
  constructor(readonly storageKey: string) {
    super('stored_file_missing');
  }
}

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/** A read stream whose "no such file" fails it as StoredFileMissing (Fastify hands an error before the first byte to its handler). */
function readOf(file: string, key: string, range?: { start: number; end: number }): Readable {
  const source = createReadStream(file, range);
  const out = new PassThrough();
  source.once('error', (err) => out.destroy(isMissing(err) ? new StoredFileMissing(key) : err));
  // A reader that gives up (a download cut) closes the file too.
  out.once('close', () => source.destroy());
  return source.pipe(out);
}

/** A storage key: letters, digits, `_ . / -`, no `..` (the same on disk and in a bucket). */
export function checkedKey(key: string): string {
  if (!/^[\w./-]+$/.test(key) || key.includes('..') || key.startsWith('/')) throw new Error(`invalid storage key ${key}`);
  return key;
}

/** Where blobs live. Local disk under DATA_DIR/files by default; an S3-compatible bucket with S3_BUCKET (s3-storage.ts). */
export type Storage = {
  /** A stream is written as it arrives (never held in memory); if it fails, nothing is left behind. */
  put(key: string, data: Buffer | Readable): Promise<void>;
  /** A key with no bytes fails the stream (or `size`) with StoredFileMissing. */
  get(key: string): Readable;
  /** Bytes `start` to `end`, both inclusive (encrypted files keep their iv and tag at the ends). */
  getRange(key: string, start: number, end: number): Readable;
  size(key: string): Promise<number>;
  delete(key: string): Promise<void>;
  /** Every stored key and its size, in no set order (the move between drivers reads it; writes not yet whole are not listed). */
  list(): AsyncIterable<{ key: string; size: number }>;
  /**
   * Writes `data` only if nothing is stored under `key`; false when something was (the installation marker:
   * two processes starting at once on a new installation). Atomic on disk; on S3 a conditional write
   * (`If-None-Match: *`), atomic where the store honours it (AWS S3, MinIO; s3rver ignores it and overwrites).
   */
  putIfAbsent(key: string, data: Buffer): Promise<boolean>;
  /** Where the bytes are, for an operator's message: `DATA_DIR/files` or `s3://bucket` (no secret in it). */
  readonly description: string;
  /** Removes what writes that never finished left behind, at most `max`, older than `olderThanMs`; the number removed. */
  sweepAbandoned?(olderThanMs: number, max: number): Promise<number>;
  /**
   * A GET URL valid `seconds` that serves the bytes without this process (S3 only): for bytes the server
   * need not decrypt nor re-check per request (public images). Undefined on disk.
   */
  presignedUrl?(key: string, o: { seconds: number; contentType?: string; fileName?: string }): Promise<string>;
  /** Lets go of connections (an operator command's end); the disk has none. */
  close?(): void;
};

export function localDiskStorage(root: string): Storage {
  const path = (key: string) => join(root, checkedKey(key));
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
    get: (key) => readOf(path(key), key),
    getRange: (key, start, end) => readOf(path(key), key, { start, end }),
    size: async (key) => {
      try {
        return (await stat(path(key))).size;
      } catch (err) {
        throw isMissing(err) ? new StoredFileMissing(key) : err;
      }
    },
    delete: (key) => rm(path(key), { force: true }),
    description: root,
    async putIfAbsent(key, data) {
      const target = path(key);
      await mkdir(dirname(target), { recursive: true });
      // Created whole, or not at all: a hard link fails if another process made the file first.
      const tmp = `${target}.${randomUUID()}.tmp`;
      await writeFile(tmp, data, { mode: 0o600 });
      try {
        await link(tmp, target);
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        return false;
      } finally {
        await rm(tmp, { force: true });
      }
    },
    async sweepAbandoned(olderThanMs, max) {
      let removed = 0;
      const now = Date.now();
      const walk = async (dir: string): Promise<void> => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const e of entries) {
          if (removed >= max) return;
          const file = join(dir, e.name);
          if (e.isDirectory()) await walk(file);
          else if (e.name.endsWith('.tmp') && now - (await stat(file)).mtimeMs > olderThanMs) {
            await rm(file, { force: true });
            removed++;
          }
        }
      };
      await walk(root);
      return removed;
    },
    async *list() {
      async function* walk(dir: string): AsyncGenerator<{ key: string; size: number }> {
        const entries = await readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
          if (isMissing(err)) return [];
          throw err;
        });
        for (const e of entries) {
          const file = join(dir, e.name);
          if (e.isDirectory()) yield* walk(file);
          // A write in progress (or abandoned by a crash) is not a file yet.
          else if (e.isFile() && !e.name.endsWith('.tmp'))
            yield { key: relative(root, file).split(sep).join('/'), size: (await stat(file)).size };
        }
      }
      yield* walk(root);
    },
  };
}
