import { pipeline, Readable } from 'node:stream';
import type { Cipher } from '../crypto/cipher';
import type { Storage } from './storage';

/** The layout `Cipher.encryptStream` writes: iv | ciphertext | tag. */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const noop = () => {};

/**
 * Stores `source` under `key` encrypted with the workspace's key, as a stream (never held whole in
 * memory). An error of `source` fails the write and leaves nothing behind.
 */
export function writeEncrypted(storage: Storage, cipher: Cipher, workspaceId: string, key: string, source: Buffer | Readable): Promise<void> {
  const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
  return storage.put(key, pipeline(input, cipher.encryptStream(workspaceId), noop));
}

/**
 * The plain bytes of a file written by `writeEncrypted`: both ends (iv and tag) are read first,
 * then the middle streams through the decipher. A wrong key or altered bytes fail the stream at its end.
 */
export async function readDecrypted(storage: Storage, cipher: Cipher, workspaceId: string, key: string): Promise<Readable> {
  const total = await storage.size(key);
  const [iv, tag] = await Promise.all([readAll(storage.getRange(key, 0, IV_BYTES - 1)), readAll(storage.getRange(key, total - TAG_BYTES, total - 1))]);
  // An empty file is only its iv and tag (a range read cannot be empty).
  const body = total > IV_BYTES + TAG_BYTES ? storage.getRange(key, IV_BYTES, total - TAG_BYTES - 1) : Readable.from([]);
  return pipeline(body, cipher.decryptStream(workspaceId, iv, tag), noop);
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
