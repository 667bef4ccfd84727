import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3rver } from '../../test/s3rver';
import { readAll } from './encrypted-files';
import { moveStorage, StorageMoveError } from './move-storage';
import { s3Storage, type S3Storage } from './s3-storage';
import { localDiskStorage, type Storage } from './storage';

/** `npm run storage:move`: disk → bucket cut after 3 objects, run again to the end, every object verified; and back. */
const root = mkdtempSync(join(tmpdir(), 'divan-move-'));
const back = mkdtempSync(join(tmpdir(), 'divan-move-back-'));
let s3: Awaited<ReturnType<typeof startS3rver>>;
let bucket: S3Storage;
const disk = localDiskStorage(root);
const objects = new Map<string, Buffer>();
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  s3 = await startS3rver('divan-move');
  bucket = s3Storage(s3.config);
  for (let i = 0; i < 8; i++) objects.set(`documents/ws/${i}/doc-${i}`, randomBytes(1000 + i * 50_000));
  objects.set('installation-id', Buffer.from('abc\n'));
  for (const [k, v] of objects) await disk.put(k, v);
});
afterAll(async () => {
  bucket?.close?.();
  await s3?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(back, { recursive: true, force: true });
});

const verify = async (s: Storage) => {
  for (const [k, v] of objects) expect(sha(await readAll(s.get(k))), k).toBe(sha(v));
};

describe('moving the files between drivers', () => {
  it('survives an interruption: the second run skips what was copied and verified, and finishes', async () => {
    const lines: string[] = [];
    await expect(moveStorage(disk, bucket, { log: (l) => lines.push(l), stopAfter: 3 })).rejects.toBeInstanceOf(StorageMoveError);
    expect(lines.filter((l) => l.includes('copiado y verificado'))).toHaveLength(3);
    lines.length = 0;
    const r = await moveStorage(disk, bucket, { log: (l) => lines.push(l) });
    expect(r).toMatchObject({ copied: 6, skipped: 3 });
    expect(lines.at(-1)).toMatch(/^9 objetos de .* en s3:\/\/divan-move .*: 6 copiados y verificados, 3 ya estaban/);
    await verify(bucket);
    // A third run copies nothing; an object changed at the target is copied again.
    await bucket.put('documents/ws/0/doc-0', Buffer.from('estropeado'));
    expect(await moveStorage(disk, bucket, { log: () => {} })).toMatchObject({ copied: 1, skipped: 8 });
    await verify(bucket);
  });

  it('moves them back to a disk', async () => {
    expect(await moveStorage(bucket, localDiskStorage(back), { log: () => {} })).toMatchObject({ copied: 9, skipped: 0 });
    await verify(localDiskStorage(back));
  });
});
