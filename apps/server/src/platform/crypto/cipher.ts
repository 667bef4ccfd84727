import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Clinical data at rest: AES-256-GCM with a key per workspace, derived from APP_SECRET by HKDF
 * (salt: the workspace id). Text becomes `v1:<base64(iv|tag|ciphertext)>`; files are
 * `iv | ciphertext | tag`, encrypted and decrypted as streams.
 */
export class Cipher {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly appSecret: string) {}

  private key(workspaceId: string): Buffer {
    let k = this.keys.get(workspaceId);
    if (!k) {
      k = Buffer.from(hkdfSync('sha256', this.appSecret, workspaceId, 'divan-clinical-data-v1', 32));
      this.keys.set(workspaceId, k);
    }
    return k;
  }

  encryptText(workspaceId: string, plain: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key(workspaceId), iv);
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `v1:${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
  }

  decryptText(workspaceId: string, stored: string): string {
    if (!stored.startsWith('v1:')) throw new Error('unknown cipher version');
    const raw = Buffer.from(stored.slice(3), 'base64');
    const d = createDecipheriv('aes-256-gcm', this.key(workspaceId), raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }

  /** A stream that writes `iv`, then the ciphertext, then the 16-byte tag. */
  encryptStream(workspaceId: string): Transform {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key(workspaceId), iv);
    let started = false;
    return new Transform({
      transform(chunk: Buffer, _enc, cb: TransformCallback) {
        if (!started) {
          started = true;
          this.push(iv);
        }
        cb(null, c.update(chunk));
      },
      flush(cb: TransformCallback) {
        if (!started) this.push(iv);
        this.push(c.final());
        cb(null, c.getAuthTag());
      },
    });
  }

  /** Decrypts `ciphertext` (the bytes between iv and tag) given the iv and tag read first. */
  decryptStream(workspaceId: string, iv: Buffer, tag: Buffer): Transform {
    const d = createDecipheriv('aes-256-gcm', this.key(workspaceId), iv);
    d.setAuthTag(tag);
    return new Transform({
      transform(chunk: Buffer, _enc, cb: TransformCallback) {
        cb(null, d.update(chunk));
      },
      flush(cb: TransformCallback) {
        try {
          cb(null, d.final());
        } catch (err) {
          cb(err as Error);
        }
      },
    });
  }
}
