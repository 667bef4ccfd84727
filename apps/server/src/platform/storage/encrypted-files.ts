import { pipeline, Readable } from 'node:stream';
import { FILE_HEAD_BYTES, type Cipher } from '../crypto/cipher';
import type { Storage } from './storage';

/** The layout `Cipher.encryptStream` writes: header (with the iv) | ciphertext | 16-byte tag. */
const TAG_BYTES = 16;
const noop = () => {};

/**
 * Stores `source` under `key` encrypted with the workspace's key, as a stream (never held whole in
 * memory), the storage key bound as associated data. An error of `source` fails the write and leaves nothing behind.
 */
export async function writeEncrypted(
  storage: Storage,
  cipher: Cipher,
  workspaceId: string,
  key: string,
  source: Buffer | Readable,
): Promise<void> {
  const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
  const encrypt = await cipher.encryptStream(workspaceId, key);
  return storage.put(key, pipeline(input, encrypt, noop));
}

/**
 * The plain bytes of a file written by `writeEncrypted`: both ends (header and tag) are read first,
 * then the middle streams through the decipher. A wrong key or altered bytes fail the stream at its end.
 */
export async function readDecrypted(storage: Storage, cipher: Cipher, workspaceId: string, key: string): Promise<Readable> {
  const total = await storage.size(key);
  const [head, tag] = await Promise.all([
    readAll(storage.getRange(key, 0, Math.min(FILE_HEAD_BYTES, total - TAG_BYTES) - 1)),
    readAll(storage.getRange(key, total - TAG_BYTES, total - 1)),
  ]);
  const { offset, stream } = await cipher.decryptStream(workspaceId, head, tag, key);
  // An empty file is only its header and tag (a range read cannot be empty).
  const body = total > offset + TAG_BYTES ? storage.getRange(key, offset, total - TAG_BYTES - 1) : Readable.from([]);
  return pipeline(body, stream, noop);
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
