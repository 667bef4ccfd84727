import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { clinicalDataKeys } from './data-keys.tables';
import { masterKeyId, MasterKeyError, readKeyFile, type MasterKeys } from './master-key';

/** An unwrapped data key: its id goes into every ciphertext header, its scope into the associated data. */
export type DataKey = { id: string; scope: string; key: Buffer };

type Row = typeof clinicalDataKeys.$inferSelect;

/**
 * The data keys of the workspaces, wrapped by the master key in `clinical_data_keys` and cached
 * unwrapped in memory (32 bytes each; the hot path is a Map lookup). A scope's key is created on first
 * use with INSERT … ON CONFLICT DO NOTHING and read back, so two processes agree on one key.
 * Creation runs on the pool, never in a caller's transaction (its rollback would leave a cached key
 * with no row): encrypt before opening a transaction, as the services do.
 */
export class Keyring {
  private readonly byScope = new Map<string, DataKey>();
  private readonly pending = new Map<string, Promise<DataKey>>();
  private masters = new Map<string, Buffer>();
  private currentId: string;

  constructor(
    private readonly db: Db,
    private keys: MasterKeys,
    private readonly opts: { loadTimeoutMs?: number } = {},
  ) {
    this.currentId = this.useKeys(keys);
  }

  private keyFileStamp = 0;

  private useKeys(keys: MasterKeys) {
    this.keys = keys;
    if (keys.file) this.keyFileStamp = fileStamp(keys.file);
    this.masters = new Map([keys.current, ...keys.previous].map((k) => [masterKeyId(k), k]));
    return (this.currentId = masterKeyId(keys.current));
  }

  get masterKeyId() {
    return this.currentId;
  }

  /**
   * Start-up: every stored key must open with a configured master key (or start-up stops with one
   * line naming the variable), then all are unwrapped into memory; `scopes` are created now.
   */
  async start(scopes: string[] = []) {
    const rows = await this.db.select().from(clinicalDataKeys);
    const unknown = [...new Set(rows.map((r) => r.masterKeyId))].filter((id) => !this.masters.has(id));
    if (unknown.length) {
      const where = this.keys.file ? `the key file ${this.keys.file} (CLINICAL_KEY_FILE)` : 'CLINICAL_KEY';
      throw new MasterKeyError(
        `Invalid environment variable ${this.keys.file ? 'CLINICAL_KEY_FILE' : 'CLINICAL_KEY'}: this database's data keys are wrapped by master key ${unknown.join(', ')}, but ${where} holds ${[...this.masters.keys()].join(', ')}. Put the right key back (see README, "Keys and backups").`,
      );
    }
    for (const r of rows) this.cache(r);
    for (const s of scopes) await this.forScope(s);
  }

  /** The scope's data key, created on first use. */
  forScope(scope: string): Promise<DataKey> {
    const hit = this.byScope.get(scope);
    if (hit) return Promise.resolve(hit);
    let p = this.pending.get(scope);
    if (!p) {
      p = withTimeout(this.loadOrCreate(scope), this.opts.loadTimeoutMs ?? KEY_LOAD_TIMEOUT_MS, scope).finally(() =>
        this.pending.delete(scope),
      );
      this.pending.set(scope, p);
    }
    return p;
  }

  private async loadOrCreate(scope: string): Promise<DataKey> {
    const [found] = await this.db.select().from(clinicalDataKeys).where(eq(clinicalDataKeys.scope, scope));
    if (found) return this.cache(found);
    const id = randomBytes(8).toString('hex');
    const key = randomBytes(32);
    // A rotation by another process put a new master key in the key file: wrap new keys with it.
    if (this.keys.file && fileStamp(this.keys.file) !== this.keyFileStamp)
      this.useKeys({ ...readKeyFile(this.keys.file), file: this.keys.file });
    await this.db
      .insert(clinicalDataKeys)
      .values({ id, scope, wrappedKey: wrap(this.keys.current, id, scope, key), masterKeyId: this.currentId })
      .onConflictDoNothing();
    const [row] = await this.db.select().from(clinicalDataKeys).where(eq(clinicalDataKeys.scope, scope));
    return this.cache(row!);
  }

  private cache(row: Row): DataKey {
    const k = { id: row.id, scope: row.scope, key: unwrap(this.master(row.masterKeyId), row.id, row.scope, row.wrappedKey) };
    this.byScope.set(row.scope, k);
    return k;
  }

  private master(id: string): Buffer {
    let m = this.masters.get(id);
    // Another process rotated the master key: the key file holds the new one now.
    if (!m && this.keys.file) {
      this.useKeys({ ...readKeyFile(this.keys.file), file: this.keys.file });
      m = this.masters.get(id);
    }
    if (!m) throw new MasterKeyError(`data key wrapped by unknown master key ${id}`);
    return m;
  }

  /**
   * Rotation: every data key wrapped by another master key is re-wrapped by the current one, row by
   * row (each update stands alone, so a running server keeps reading either version).
   */
  async rewrapAll(): Promise<{ rewrapped: number; total: number }> {
    const rows = await this.db.select().from(clinicalDataKeys);
    let rewrapped = 0;
    for (const r of rows) {
      if (r.masterKeyId === this.currentId) continue;
      const key = unwrap(this.master(r.masterKeyId), r.id, r.scope, r.wrappedKey);
      await this.db
        .update(clinicalDataKeys)
        .set({ wrappedKey: wrap(this.keys.current, r.id, r.scope, key), masterKeyId: this.currentId, rewrappedAt: new Date() })
        .where(eq(clinicalDataKeys.id, r.id));
      rewrapped++;
    }
    return { rewrapped, total: rows.length };
  }

  /** How many data keys each master key wraps (the operator checks the old one wraps none before forgetting it). */
  async wrappedBy(): Promise<Map<string, number>> {
    const rows = await this.db.select({ m: clinicalDataKeys.masterKeyId }).from(clinicalDataKeys);
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.m, (counts.get(r.m) ?? 0) + 1);
    return counts;
  }
}

/**
 * A key loaded from inside a caller's transaction on PGlite would wait for that transaction for ever
 * (one connection): fail the caller instead, whose rollback frees the database (the load then completes).
 */
const KEY_LOAD_TIMEOUT_MS = 10_000;

function withTimeout<T>(p: Promise<T>, ms: number, scope: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, rej) => {
    timer = setTimeout(
      () =>
        rej(new Error(`data key of ${scope} not loaded in ${ms} ms: is it first used inside a transaction? Encrypt before opening it.`)),
      ms,
    );
    timer.unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

const fileStamp = (file: string) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

const wrapAad = (id: string, scope: string) => Buffer.from(`divan-data-key:${id}:${scope}`);

function wrap(master: Buffer, id: string, scope: string, key: Buffer): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', master, iv).setAAD(wrapAad(id, scope));
  const ct = Buffer.concat([c.update(key), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64');
}

function unwrap(master: Buffer, id: string, scope: string, wrapped: string): Buffer {
  const raw = Buffer.from(wrapped, 'base64');
  const d = createDecipheriv('aes-256-gcm', master, raw.subarray(0, 12)).setAAD(wrapAad(id, scope));
  d.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([d.update(raw.subarray(28)), d.final()]);
}
