import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Cipher } from '../crypto/cipher';
import type { Keyring } from '../crypto/keyring';
import { startS3rver } from '../../test/s3rver';
import { readAll, readDecrypted, writeEncrypted } from './encrypted-files';
import { s3Storage, type S3Storage } from './s3-storage';
import { localDiskStorage, StoredFileMissing, type Storage } from './storage';

/**
 * One contract, two drivers: the local disk and an S3 bucket (s3rver on loopback). Whatever a module
 * does with files (documents, videos, consents, exports, pictures) behaves the same on either.
 * No database: the real Cipher on a fixed data key, for the encrypted layout read by ranges.
 */
const WS = '00000000-0000-4000-8000-000000000001';
const key = randomBytes(32);
const cipher = new Cipher({ forScope: async (scope: string) => ({ id: '0123456789abcdef', scope, key }) } as unknown as Keyring);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** A stream of `n` chunks of 64 KiB, pulled as it is read. */
const chunks = (n: number, seed = 1) => Array.from({ length: n }, (_, i) => Buffer.alloc(65_536, (i * 7 + seed) % 251));
const listed = async (s: Storage) => {
  const all = new Map<string, number>();
  for await (const f of s.list()) all.set(f.key, f.size);
  return all;
};

function storageContract(name: string, open: () => Storage) {
  describe(`storage contract: ${name}`, () => {
    let s: Storage;
    beforeAll(() => {
      s = open();
    });

    it('writes a buffer and a stream, reads them whole, by range and by size; a second write replaces the first', async () => {
      await s.put('documents/ws/ab/one', Buffer.from('hola, mundo'));
      expect((await readAll(s.get('documents/ws/ab/one'))).toString()).toBe('hola, mundo');
      expect((await readAll(s.getRange('documents/ws/ab/one', 6, 10))).toString()).toBe('mundo');
      expect((await readAll(s.getRange('documents/ws/ab/one', 0, 0))).toString()).toBe('h');
      expect(await s.size('documents/ws/ab/one')).toBe(11);

      // 6.25 MiB from a stream: more than one part of a multipart upload.
      const big = chunks(100);
      await s.put('learning/v/full.mp4', Readable.from(big));
      const whole = Buffer.concat(big);
      expect(await s.size('learning/v/full.mp4')).toBe(whole.length);
      expect(sha(await readAll(s.get('learning/v/full.mp4')))).toBe(sha(whole));
      const mid = await readAll(s.getRange('learning/v/full.mp4', 5_000_000, 5_400_000));
      expect(mid.equals(whole.subarray(5_000_000, 5_400_001))).toBe(true);

      await s.put('documents/ws/ab/one', Readable.from([Buffer.from('otra')]));
      expect((await readAll(s.get('documents/ws/ab/one'))).toString()).toBe('otra');
      await s.put('documents/ws/ab/empty', Buffer.alloc(0));
      expect((await readAll(s.get('documents/ws/ab/empty'))).length).toBe(0);
      expect(await s.size('documents/ws/ab/empty')).toBe(0);
    });

    it('keeps encrypted files as the encryption layer wrote them, read back by their ends and middle', async () => {
      const plain = Buffer.from('Informe de Begoña: GAD-7 = 14. '.repeat(3000));
      await writeEncrypted(s, cipher, WS, 'private/ws/invoice/ab/x', Readable.from([plain.subarray(0, 1000), plain.subarray(1000)]));
      const stored = await readAll(s.get('private/ws/invoice/ab/x'));
      expect(stored.length).toBe(plain.length + 44);
      expect(stored.includes(Buffer.from('Begoña'))).toBe(false);
      expect((await readAll(await readDecrypted(s, cipher, WS, 'private/ws/invoice/ab/x'))).equals(plain)).toBe(true);
      await writeEncrypted(s, cipher, WS, 'private/ws/invoice/ab/empty', Buffer.alloc(0));
      expect((await readAll(await readDecrypted(s, cipher, WS, 'private/ws/invoice/ab/empty'))).length).toBe(0);
    });

    it('says StoredFileMissing with the key for a key without bytes, and deletes (twice) without complaint', async () => {
      const k = 'documents/ws/ab/nada';
      await expect(readAll(s.get(k))).rejects.toEqual(new StoredFileMissing(k));
      await expect(readAll(s.getRange(k, 0, 10))).rejects.toMatchObject({ storageKey: k, statusCode: 410 });
      await expect(s.size(k)).rejects.toMatchObject({ storageKey: k });
      await s.put(k, Buffer.from('x'));
      await s.delete(k);
      await s.delete(k);
      await expect(s.size(k)).rejects.toBeInstanceOf(StoredFileMissing);
    });

    it('leaves nothing behind when the source fails, and stops reading when the reader gives up', async () => {
      let sent = 0;
      const failing = new Readable({
        read() {
          // Past the first part, so a multipart upload has begun.
          if (sent++ < 90) this.push(Buffer.alloc(65_536, 1));
          else this.destroy(new Error('connection lost'));
        },
      });
      await expect(s.put('documents/ws/ab/cut', failing)).rejects.toThrow('connection lost');
      await expect(s.size('documents/ws/ab/cut')).rejects.toBeInstanceOf(StoredFileMissing);
      expect((await listed(s)).has('documents/ws/ab/cut')).toBe(false);

      // A download cut after its first bytes: the stream closes, nothing hangs, the next read works.
      const reading = s.get('learning/v/full.mp4');
      for await (const chunk of reading) {
        expect((chunk as Buffer).length).toBeGreaterThan(0);
        break;
      }
      expect(reading.destroyed).toBe(true);
      expect(await s.size('learning/v/full.mp4')).toBe(100 * 65_536);
    });

    it('writes a new key whole with putIfAbsent, and on disk never over an existing one', async () => {
      expect(await s.putIfAbsent('installation-id', Buffer.from('primera\n'))).toBe(true);
      expect((await readAll(s.get('installation-id'))).toString()).toBe('primera\n');
      const second = await s.putIfAbsent('installation-id', Buffer.from('segunda\n'));
      // s3rver ignores If-None-Match on a write (AWS S3 and MinIO honour it): there, the write goes through.
      if (name === 'local disk') {
        expect(second).toBe(false);
        expect((await readAll(s.get('installation-id'))).toString()).toBe('primera\n');
      }
      await s.delete('installation-id');
      expect(s.description).toMatch(name === 'local disk' ? /divan-contract-/ : /^s3:\/\/divan-test \(http:\/\/127\.0\.0\.1:\d+\)$/);
    });

    it('lists every key with its size, and refuses keys that leave the store', async () => {
      const all = await listed(s);
      expect(all.get('documents/ws/ab/one')).toBe(4);
      expect(all.get('learning/v/full.mp4')).toBe(100 * 65_536);
      expect(all.get('private/ws/invoice/ab/x')).toBe(Buffer.byteLength('Informe de Begoña: GAD-7 = 14. '.repeat(3000)) + 44);
      expect([...all.keys()].every((k) => !k.endsWith('.tmp'))).toBe(true);
      for (const bad of ['../x', '/etc/passwd', 'a b', 'a/../../b'])
        await expect(Promise.resolve().then(() => s.put(bad, Buffer.from('x')))).rejects.toThrow(/invalid storage key/);
    });
  });
}

const root = mkdtempSync(join(tmpdir(), 'divan-contract-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
storageContract('local disk', () => localDiskStorage(root));

let s3: Awaited<ReturnType<typeof startS3rver>>;
let bucket: S3Storage;
beforeAll(async () => {
  s3 = await startS3rver();
  bucket = s3Storage(s3.config);
});
afterAll(async () => {
  bucket?.close?.();
  await s3?.close();
});
storageContract('S3 (s3rver)', () => bucket);

describe('S3 only', () => {
  it('gives a short-lived presigned URL that serves the bytes without this process', async () => {
    await bucket.put('learning/v/preview.mp4', Buffer.from('fragmento'));
    const url = await bucket.presignedUrl('learning/v/preview.mp4', {
      seconds: 60,
      contentType: 'video/mp4',
      fileName: 'vista previa.mp4',
    });
    expect(url).toContain('X-Amz-Expires=60');
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(await res.text()).toBe('fragmento');
    expect(url).toMatch(/X-Amz-Signature=[0-9a-f]{64}/);
    // s3rver does not check V4 signatures (real stores do); it does refuse a key it does not know.
    expect((await fetch(url.replace('X-Amz-Credential=S3RVER', 'X-Amz-Credential=OTHER'))).status).toBe(403);
  });
});
