import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCb, type ScryptOptions } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';

/**
 * The encrypted backup archive (`npm run backup`): a passphrase-derived key (scrypt) and
 * AES-256-GCM in 64 KiB records, each authenticated, numbered by its nonce and flagged when last, so
 * a wrong passphrase, a changed byte, a reordered or a cut archive is refused. Inside: named entries
 * (the database dump, the stored files, the manifest). The clinical master key is never inside.
 *
 * Layout: header (MAGIC | version | log2 N | r | p | salt[16] | nonce prefix[8] | check tag[16]),
 * then records (final flag u8 | length u32 | ciphertext | tag[16]); the plain stream is entries
 * (name length u16 | name | size u64 | bytes), ended by a zero name length.
 */
const MAGIC = Buffer.from('DIVANBK1');
const HEADER_BYTES = MAGIC.length + 4 + 16 + 8 + 16;
const RECORD = 64 * 1024;
const KDF = { logN: 17, r: 8, p: 1 };

export class BackupError extends Error {}
export const WRONG_PASSPHRASE = 'La contraseña de la copia no es correcta: no se ha restaurado nada.';
export const DAMAGED = 'La copia está dañada o incompleta: no se ha restaurado nada.';
export const NOT_AN_ARCHIVE = 'Este archivo no es una copia cifrada de Diván.';

function deriveKey(passphrase: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const opts: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r };
  return new Promise((res, rej) => scryptCb(passphrase.normalize('NFC'), salt, 32, opts, (err, key) => (err ? rej(err) : res(key))));
}

const nonce = (prefix: Buffer, n: number) => {
  const b = Buffer.alloc(12);
  prefix.copy(b, 0);
  b.writeUInt32BE(n, 8);
  return b;
};

export type ArchiveEntry = { name: string; size: number; data: () => Readable | Buffer };

/** Writes `entries` into `file`, encrypted with `passphrase`. */
export async function writeArchive(
  file: string,
  passphrase: string,
  entries: AsyncIterable<ArchiveEntry> | Iterable<ArchiveEntry>,
  kdf = KDF,
) {
  const salt = randomBytes(16);
  const prefix = randomBytes(8);
  const key = await deriveKey(passphrase, salt, kdf.logN, kdf.r, kdf.p);
  const params = Buffer.concat([MAGIC, Buffer.from([1, kdf.logN, kdf.r, kdf.p]), salt, prefix]);
  const check = createCipheriv('aes-256-gcm', key, nonce(prefix, 0xffffffff)).setAAD(params);
  check.final();
  const header = Buffer.concat([params, check.getAuthTag()]);
  const out = createWriteStream(file, { mode: 0o600, flags: 'wx' });
  const write = async (b: Buffer) => {
    if (!out.write(b)) await once(out, 'drain');
  };
  let counter = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const seal = async (plain: Buffer, final: boolean) => {
    const c = createCipheriv('aes-256-gcm', key, nonce(prefix, counter++)).setAAD(Buffer.concat([header, Buffer.from([final ? 1 : 0])]));
    const ct = Buffer.concat([c.update(plain), c.final()]);
    const len = Buffer.alloc(5);
    len.writeUInt8(final ? 1 : 0, 0);
    len.writeUInt32BE(ct.length, 1);
    await write(Buffer.concat([len, ct, c.getAuthTag()]));
  };
  const push = async (b: Buffer) => {
    pending.push(b);
    pendingBytes += b.length;
    while (pendingBytes >= RECORD) {
      const all = Buffer.concat(pending);
      await seal(all.subarray(0, RECORD), false);
      pending = [all.subarray(RECORD)];
      pendingBytes = pending[0]!.length;
    }
  };
  try {
    await write(header);
    for await (const e of entries) {
      const name = Buffer.from(e.name, 'utf8');
      const head = Buffer.alloc(2 + name.length + 8);
      head.writeUInt16BE(name.length, 0);
      name.copy(head, 2);
      head.writeBigUInt64BE(BigInt(e.size), 2 + name.length);
      await push(head);
      const data = e.data();
      let seen = 0;
      for await (const chunk of Buffer.isBuffer(data) ? [data] : data) {
        seen += (chunk as Buffer).length;
        await push(chunk as Buffer);
      }
      if (seen !== e.size) throw new Error(`${e.name} changed while it was copied (${seen} bytes instead of ${e.size})`);
    }
    await push(Buffer.alloc(2));
    await seal(Buffer.concat(pending), true);
    out.end();
    await once(out, 'finish');
  } catch (err) {
    out.destroy();
    throw err;
  }
}

/** Reads exact byte counts from a stream of chunks. */
class ByteReader {
  private buf: Buffer = Buffer.alloc(0);
  private done = false;
  constructor(private readonly it: AsyncIterator<Buffer>) {}
  async fill(n: number) {
    while (this.buf.length < n && !this.done) {
      const r = await this.it.next();
      if (r.done) this.done = true;
      else this.buf = this.buf.length ? Buffer.concat([this.buf, r.value]) : r.value;
    }
    return this.buf.length >= n;
  }
  async read(n: number, onShort: () => Error): Promise<Buffer> {
    if (!(await this.fill(n))) throw onShort();
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }
  async atEnd() {
    return !(await this.fill(1));
  }
}

/** The plain bytes of an archive, record by record; throws BackupError on a wrong passphrase or damage. */
async function* decryptRecords(file: string, passphrase: string): AsyncGenerator<Buffer> {
  const raw = new ByteReader(createReadStream(file, { highWaterMark: RECORD + 21 })[Symbol.asyncIterator]());
  const header = await raw.read(HEADER_BYTES, () => new BackupError(NOT_AN_ARCHIVE));
  if (!header.subarray(0, MAGIC.length).equals(MAGIC) || header[8] !== 1) throw new BackupError(NOT_AN_ARCHIVE);
  const [logN, r, p] = [header[9]!, header[10]!, header[11]!];
  if (logN < 10 || logN > 20 || r < 1 || r > 32 || p < 1 || p > 16) throw new BackupError(DAMAGED);
  const salt = header.subarray(12, 28);
  const prefix = header.subarray(28, 36);
  const key = await deriveKey(passphrase, salt, logN, r, p);
  const check = createDecipheriv('aes-256-gcm', key, nonce(prefix, 0xffffffff)).setAAD(header.subarray(0, 36));
  check.setAuthTag(header.subarray(36, 52));
  try {
    check.final();
  } catch {
    throw new BackupError(WRONG_PASSPHRASE);
  }
  const short = () => new BackupError(DAMAGED);
  for (let n = 0; ; n++) {
    const len = await raw.read(5, short);
    const final = len[0] === 1;
    const size = len.readUInt32BE(1);
    if (len[0]! > 1 || size > RECORD) throw new BackupError(DAMAGED);
    const body = await raw.read(size + 16, short);
    const d = createDecipheriv('aes-256-gcm', key, nonce(prefix, n)).setAAD(Buffer.concat([header, Buffer.from([final ? 1 : 0])]));
    d.setAuthTag(body.subarray(size));
    let plain: Buffer;
    try {
      plain = Buffer.concat([d.update(body.subarray(0, size)), d.final()]);
    } catch {
      throw new BackupError(DAMAGED);
    }
    yield plain;
    if (final) {
      if (!(await raw.atEnd())) throw new BackupError(DAMAGED);
      return;
    }
  }
}

/**
 * Reads every entry of the archive: `open(name, size)` gives where its bytes go (null: skipped).
 * Only when this resolves is the whole archive known to be intact: write into a staging place.
 */
export async function readArchive(
  file: string,
  passphrase: string,
  open: (name: string, size: number) => Writable | null,
): Promise<string[]> {
  const plain = new ByteReader(decryptRecords(file, passphrase));
  const short = () => new BackupError(DAMAGED);
  const names: string[] = [];
  for (;;) {
    const nameLen = (await plain.read(2, short)).readUInt16BE(0);
    if (nameLen === 0) break;
    const name = (await plain.read(nameLen, short)).toString('utf8');
    const size = Number((await plain.read(8, short)).readBigUInt64BE(0));
    const sink = open(name, size);
    let left = size;
    while (left > 0) {
      const n = Math.min(left, RECORD);
      const chunk = await plain.read(n, short);
      if (sink && !sink.write(chunk)) await once(sink, 'drain');
      left -= n;
    }
    if (sink) {
      sink.end();
      await once(sink, 'finish');
    }
    names.push(name);
  }
  if (!(await plain.atEnd())) throw new BackupError(DAMAGED);
  return names;
}
