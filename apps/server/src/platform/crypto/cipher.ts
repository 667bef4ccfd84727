import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, type CipherGCM, type DecipherGCM } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { DataKey, Keyring } from './keyring';

/**
 * Clinical data at rest: AES-256-GCM with the workspace's random data key (see Keyring: wrapped by
 * the master key, never derived from APP_SECRET). Text is `v2:<key id>:<base64(iv|tag|ciphertext)>`;
 * files are `DIVANv2\n | key id (8 bytes) | iv | ciphertext | tag`, as streams. The associated data
 * binds the header, the scope (workspace) and what the call site names (row and column, e.g.
 * `history:<patient>:title`): a value moved to another workspace, row or column does not decrypt.
 *
 * `v1:` text and header-less files (HKDF of APP_SECRET, before issue 9) are still read;
 * `npm run admin -- rotate-clinical-key` re-encrypts them (see reencrypt.ts).
 */
export class Cipher {
  private readonly legacyKeys = new Map<string, Buffer>();

  constructor(
    readonly keyring: Keyring,
    /** APP_SECRET: only to read `v1:` data written before envelope encryption. */
    private readonly legacySecret?: string,
  ) {}

  /** Loads every data key (and creates those of `scopes`): call once at start-up. */
  start(scopes: string[] = []) {
    return this.keyring.start(scopes);
  }

  /** The workspace's key for synchronous use over many values (a page of history, say). */
  async forWorkspace(workspaceId: string): Promise<WorkspaceCipher> {
    return new WorkspaceCipher(await this.keyring.forScope(workspaceId), (ws) => this.legacyKey(ws));
  }

  async encryptText(workspaceId: string, plain: string, aad = ''): Promise<string> {
    return (await this.forWorkspace(workspaceId)).encryptText(plain, aad);
  }

  async decryptText(workspaceId: string, stored: string, aad = ''): Promise<string> {
    return (await this.forWorkspace(workspaceId)).decryptText(stored, aad);
  }

  /** A stream that writes the header, then the ciphertext, then the 16-byte tag. */
  async encryptStream(workspaceId: string, aad = ''): Promise<Transform> {
    const k = await this.keyring.forScope(workspaceId);
    const iv = randomBytes(12);
    const head = Buffer.concat([FILE_MAGIC, Buffer.from(k.id, 'hex'), iv]);
    const c = createCipheriv('aes-256-gcm', k.key, iv).setAAD(Buffer.concat([head, Buffer.from(`|${k.scope}|${aad}`)]));
    return encryptingTransform(head, c);
  }

  /**
   * Decrypts a file given its first FILE_HEAD_BYTES bytes and its last 16 (the tag): the ciphertext
   * starts at `offset` and ends before the tag. A wrong key or altered bytes fail the stream at its end.
   */
  async decryptStream(workspaceId: string, head: Buffer, tag: Buffer, aad = ''): Promise<{ offset: number; stream: Transform }> {
    let d: DecipherGCM;
    let offset: number;
    if (head.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC)) {
      const k = await this.keyring.forScope(workspaceId);
      if (head.subarray(8, 16).toString('hex') !== k.id) throw new Error('file encrypted with another data key');
      d = createDecipheriv('aes-256-gcm', k.key, head.subarray(16, 28)).setAAD(
        Buffer.concat([head.subarray(0, 28), Buffer.from(`|${k.scope}|${aad}`)]),
      );
      offset = FILE_HEAD_BYTES;
    } else {
      d = createDecipheriv('aes-256-gcm', this.legacyKey(workspaceId), head.subarray(0, 12));
      offset = 12;
    }
    d.setAuthTag(tag);
    return { offset, stream: decryptingTransform(d) };
  }

  private legacyKey(workspaceId: string): Buffer {
    if (!this.legacySecret) throw new Error('v1 data needs APP_SECRET');
    let k = this.legacyKeys.get(workspaceId);
    if (!k) {
      k = Buffer.from(hkdfSync('sha256', this.legacySecret, workspaceId, 'divan-clinical-data-v1', 32));
      this.legacyKeys.set(workspaceId, k);
    }
    return k;
  }
}

/** Bytes to read from the start of a file before decrypting it (v2 header; v1 needs the first 12). */
export const FILE_HEAD_BYTES = 28;
export const FILE_OVERHEAD_BYTES = FILE_HEAD_BYTES + 16;
const FILE_MAGIC = Buffer.from('DIVANv2\n');

export class WorkspaceCipher {
  constructor(
    private readonly k: DataKey,
    private readonly legacyKey: (workspaceId: string) => Buffer,
  ) {}

  private aad(aad: string) {
    return Buffer.from(`v2:${this.k.id}|${this.k.scope}|${aad}`);
  }

  encryptText(plain: string, aad = ''): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.k.key, iv).setAAD(this.aad(aad));
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return `v2:${this.k.id}:${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
  }

  decryptText(stored: string, aad = ''): string {
    if (stored.startsWith('v2:')) {
      const kid = stored.slice(3, 19);
      if (kid !== this.k.id || stored[19] !== ':') throw new Error('text encrypted with another data key');
      const raw = Buffer.from(stored.slice(20), 'base64');
      const d = createDecipheriv('aes-256-gcm', this.k.key, raw.subarray(0, 12)).setAAD(this.aad(aad));
      d.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    }
    if (stored.startsWith('v1:')) {
      const raw = Buffer.from(stored.slice(3), 'base64');
      const d = createDecipheriv('aes-256-gcm', this.legacyKey(this.k.scope), raw.subarray(0, 12));
      d.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    }
    throw new Error('unknown cipher version');
  }
}

/** True for text written before envelope encryption (re-encrypted by the rotation command). */
export const isLegacyText = (stored: string) => stored.startsWith('v1:');

function encryptingTransform(head: Buffer, c: CipherGCM): Transform {
  let started = false;
  return new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      if (!started) {
        started = true;
        this.push(head);
      }
      cb(null, c.update(chunk));
    },
    flush(cb: TransformCallback) {
      if (!started) this.push(head);
      this.push(c.final());
      cb(null, c.getAuthTag());
    },
  });
}

function decryptingTransform(d: DecipherGCM): Transform {
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
