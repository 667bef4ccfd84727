import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app';
import { legacyFile, legacyText } from '../../test/legacy-cipher';
import { localDiskStorage } from '../storage/storage';
import { readAll, readDecrypted, writeEncrypted } from '../storage/encrypted-files';
import { ConfigError, loadConfig } from '../config';
import { Cipher } from './cipher';
import { Keyring } from './keyring';
import { loadMasterKeys, masterKeyId, MasterKeyError, writeKeyFile } from './master-key';

let t: TestApp;
let cipher: Cipher;
const w1 = randomUUID();
const w2 = randomUUID();
beforeAll(async () => {
  t = await createTestApp();
  cipher = t.app.services.cipher;
});
afterAll(() => t.close());

describe('clinical data cipher (envelope encryption)', () => {
  it('round-trips text with a fresh iv, a version and the data key id in the header', async () => {
    const a = await cipher.encryptText(w1, 'Refiere ansiedad nocturna');
    const b = await cipher.encryptText(w1, 'Refiere ansiedad nocturna');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v2:[0-9a-f]{16}:/);
    expect(a.slice(0, 20)).toBe(b.slice(0, 20));
    expect(a).not.toContain('ansiedad');
    expect(await cipher.decryptText(w1, a)).toBe('Refiere ansiedad nocturna');
  });

  it('uses a random key per workspace, wrapped by the master key, and binds the associated data', async () => {
    const a = await cipher.encryptText(w1, 'secreto', 'history:p1:title');
    await expect(cipher.decryptText(w2, a, 'history:p1:title')).rejects.toThrow();
    await expect(cipher.decryptText(w1, a, 'history:p1:body')).rejects.toThrow();
    await expect(cipher.decryptText(w1, a)).rejects.toThrow();
    expect(await cipher.decryptText(w1, a, 'history:p1:title')).toBe('secreto');
    const raw = Buffer.from(a.slice(20), 'base64');
    raw[raw.length - 1]! ^= 1;
    await expect(cipher.decryptText(w1, `${a.slice(0, 20)}${raw.toString('base64')}`, 'history:p1:title')).rejects.toThrow();
    const rows = await t.rows<{ scope: string; wrapped_key: string; master_key_id: string }>(
      sql`select scope, wrapped_key, master_key_id from clinical_data_keys where scope in (${w1}, ${w2})`,
    );
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.master_key_id))).toEqual(new Set([cipher.keyring.masterKeyId]));
  });

  it('round-trips a file as a stream, the storage key bound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'divan-files-'));
    try {
      const storage = localDiskStorage(dir);
      const data = Buffer.alloc(300_000, 7);
      data.write('%PDF-1.7 informe');
      await writeEncrypted(storage, cipher, w1, 'documents/a', Readable.from([data.subarray(0, 1000), data.subarray(1000)]));
      const enc = readFileSync(join(dir, 'documents/a'));
      expect(enc.length).toBe(data.length + 44);
      expect(enc.includes(Buffer.from('informe'))).toBe(false);
      expect((await buffer(await readDecrypted(storage, cipher, w1, 'documents/a'))).equals(data)).toBe(true);
      await writeEncrypted(storage, cipher, w1, 'documents/empty', Buffer.alloc(0));
      expect((await readAll(await readDecrypted(storage, cipher, w1, 'documents/empty'))).length).toBe(0);
      // Another workspace's key, or the bytes moved under another key, fail at the end of the stream.
      await expect(readDecrypted(storage, cipher, w2, 'documents/a')).rejects.toThrow();
      await storage.put('documents/b', enc);
      await expect(readAll(await readDecrypted(storage, cipher, w1, 'documents/b'))).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('still reads v1 text and files (APP_SECRET) written before envelope encryption', async () => {
    const v1 = legacyText(t.config.appSecret, w1, 'Nota antigua');
    expect(await cipher.decryptText(w1, v1)).toBe('Nota antigua');
    await expect(cipher.decryptText(w2, v1)).rejects.toThrow();
    const dir = mkdtempSync(join(tmpdir(), 'divan-files-'));
    try {
      const storage = localDiskStorage(dir);
      await storage.put('documents/old', legacyFile(t.config.appSecret, w1, Buffer.from('informe antiguo')));
      expect((await readAll(await readDecrypted(storage, cipher, w1, 'documents/old'))).toString()).toBe('informe antiguo');
      await storage.put('documents/old-empty', legacyFile(t.config.appSecret, w1, Buffer.alloc(0)));
      expect((await readAll(await readDecrypted(storage, cipher, w1, 'documents/old-empty'))).length).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('keyring', () => {
  it('gives two processes creating a workspace key at once the same key', async () => {
    const ws = randomUUID();
    const master = { current: loadMasterKeys(t.config.clinicalKey, t.config.dataDir).current, previous: [] };
    const [a, b] = [
      new Cipher(new Keyring(t.app.services.database.db, master)),
      new Cipher(new Keyring(t.app.services.database.db, master)),
    ];
    const [ea, eb] = await Promise.all([a.encryptText(ws, 'uno'), b.encryptText(ws, 'dos')]);
    expect(ea.slice(0, 20)).toBe(eb.slice(0, 20));
    expect(await b.decryptText(ws, ea)).toBe('uno');
    expect(await cipher.decryptText(ws, eb)).toBe('dos');
  });

  it.skipIf(process.env.TEST_DATABASE_URL)(
    'on PGlite, a first use inside a transaction fails the caller instead of waiting for ever',
    async () => {
      const db = t.app.services.database.db;
      const master = { current: loadMasterKeys(t.config.clinicalKey, t.config.dataDir).current, previous: [] };
      const c = new Cipher(new Keyring(db, master, { loadTimeoutMs: 300 }));
      const ws = randomUUID();
      await expect(db.transaction(async () => c.encryptText(ws, 'dentro'))).rejects.toThrow(
        /inside a transaction\? Encrypt before opening it/,
      );
      // The rollback freed the database: the key is made and used.
      expect(await c.decryptText(ws, await c.encryptText(ws, 'fuera'))).toBe('fuera');
    },
  );

  it('refuses to start with another master key, naming the variable', async () => {
    const other = new Keyring(t.app.services.database.db, { current: randomBytes(32), previous: [] });
    await expect(other.start()).rejects.toThrow(/^Invalid environment variable CLINICAL_KEY: .*wrapped by master key/);
  });

  it('rotation re-wraps every data key; the old master key is needed no more, every value still reads', async () => {
    const db = t.app.services.database.db;
    const old = loadMasterKeys(t.config.clinicalKey, t.config.dataDir).current;
    const before = await cipher.encryptText(w1, 'antes de rotar');
    const fresh = randomBytes(32);
    const rotating = new Keyring(db, { current: fresh, previous: [old] });
    await rotating.start();
    const { rewrapped, total } = await rotating.rewrapAll();
    expect(rewrapped).toBe(total);
    expect([...(await rotating.wrappedBy()).keys()]).toEqual([masterKeyId(fresh)]);
    // A process started with only the new key reads what was written before, and the running one still writes.
    const after = new Cipher(new Keyring(db, { current: fresh, previous: [] }));
    await after.start();
    expect(await after.decryptText(w1, before)).toBe('antes de rotar');
    expect(await after.decryptText(w1, await cipher.encryptText(w1, 'durante'))).toBe('durante');
    // … and one with only the old key refuses to start.
    await expect(new Keyring(db, { current: old, previous: [] }).start()).rejects.toThrow(MasterKeyError);
    await new Keyring(db, { current: old, previous: [fresh] }).rewrapAll();
  });

  it('a running server re-reads the key file when another process rotated the master key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'divan-key-'));
    try {
      const file = join(dir, 'clinical-key');
      const db = t.app.services.database.db;
      const old = loadMasterKeys(t.config.clinicalKey, t.config.dataDir).current;
      writeKeyFile(file, old, []);
      const running = new Keyring(db, loadMasterKeys({ file }, join(dir, 'data')));
      await running.start();
      const fresh = randomBytes(32);
      writeKeyFile(file, fresh, [old]);
      await new Keyring(db, loadMasterKeys({ file }, join(dir, 'data'))).rewrapAll();
      // The keys it creates from now on are wrapped by the new master key…
      const mine = randomUUID();
      await new Cipher(running).encryptText(mine, 'propio');
      const [row] = await t.rows<{ master_key_id: string }>(sql`select master_key_id from clinical_data_keys where scope = ${mine}`);
      expect(row!.master_key_id).toBe(masterKeyId(fresh));
      // …and it reads a workspace it never loaded, whose row is wrapped by the new key.
      const ws = randomUUID();
      const other = new Cipher(new Keyring(db, { current: fresh, previous: [] }));
      const enc = await other.encryptText(ws, 'nuevo');
      expect(await new Cipher(running).decryptText(ws, enc)).toBe('nuevo');
      await new Keyring(db, { current: old, previous: [fresh] }).rewrapAll();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('master key source', () => {
  it('creates the key file once outside DATA_DIR, refuses a wrong CLINICAL_KEY and a file inside DATA_DIR', () => {
    const dir = mkdtempSync(join(tmpdir(), 'divan-key-'));
    try {
      const data = join(dir, 'data');
      const first = loadMasterKeys({}, data, { create: true });
      expect(first.created).toBe(true);
      expect(first.file).toBe(`${data}.clinical-key`);
      const again = loadMasterKeys({}, data, { create: true });
      expect(again.created).toBeUndefined();
      expect(again.current.equals(first.current)).toBe(true);
      expect(() => loadMasterKeys({}, join(dir, 'other'))).toThrow(/^Invalid environment variable CLINICAL_KEY_FILE: .* does not exist/);
      expect(() => loadMasterKeys({ key: 'corta' }, data)).toThrow(/^Invalid environment variable CLINICAL_KEY: must be 32 random bytes/);
      expect(() => loadMasterKeys({ file: join(data, 'k') }, data)).toThrow(/must be outside DATA_DIR/);
      expect(loadMasterKeys({ key: randomBytes(32).toString('hex') }, data).current.length).toBe(32);
      // Through the environment: one line naming the variable, before anything is written.
      expect(() => loadConfig({ DATA_DIR: join(dir, 'env'), CLINICAL_KEY: 'not-a-key' })).toThrow(
        new ConfigError(
          'Invalid environment variable CLINICAL_KEY: must be 32 random bytes in base64 or hex (e.g. `openssl rand -base64 32`)',
        ),
      );
      expect(() => loadConfig({ DATA_DIR: join(dir, 'env'), CLINICAL_KEY_PREVIOUS: 'x'.repeat(44) })).toThrow(
        /^Invalid environment variable CLINICAL_KEY_PREVIOUS/,
      );
      expect(loadConfig({ DATA_DIR: join(dir, 'env'), CLINICAL_KEY: randomBytes(32).toString('base64') }).clinicalKey?.key).toBeTruthy();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
