import { PGlite } from '@electric-sql/pglite';
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createInterface } from 'node:readline';
import type { Client as PgClient } from 'pg';
import { APP_VERSION } from '@divan/core';
import { ConfigError, type Config } from '../config';
import { readArchive, writeArchive, type ArchiveEntry } from '../crypto/backup-archive';
import { loadMasterKeys, masterKeyId } from '../crypto/master-key';
import { openStorage } from '../storage/open-storage';
import type { Storage } from '../storage/storage';
import { acquireDataDirLock } from './data-dir-lock';

/**
 * `npm run backup` and `npm run restore`: one file, encrypted with a passphrase (BACKUP_PASSPHRASE or
 * asked for), holding the database, the stored files, the token secret and a manifest. The clinical
 * master key is not in it: a backup and its key are kept apart, and a restore needs both.
 */
type Manifest = { product: 'divan'; version: string; createdAt: string; database: 'pglite' | 'postgres'; clinicalMasterKeyId?: string };

const MIN_PASSPHRASE = 12;

/** BACKUP_PASSPHRASE, or asked for on the terminal (twice when making a backup). */
export async function backupPassphrase(forBackup: boolean): Promise<string> {
  let pass = process.env.BACKUP_PASSPHRASE;
  if (!pass) {
    if (!process.stdin.isTTY)
      throw new ConfigError('Falta la contraseña de la copia: pon BACKUP_PASSPHRASE o ejecuta el comando en una terminal.');
    pass = await ask('Contraseña de la copia: ');
    if (forBackup && (await ask('Repite la contraseña: ')) !== pass)
      throw new ConfigError('Las dos contraseñas no coinciden: no se ha hecho la copia.');
  }
  if (forBackup && pass.length < MIN_PASSPHRASE)
    throw new ConfigError(`La contraseña de la copia debe tener al menos ${MIN_PASSPHRASE} caracteres.`);
  return pass;
}

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  let muted = false;
  // What is typed is not echoed.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s) => void (muted || process.stdout.write(s));
  const answer = new Promise<string>((res) => rl.question(question, res));
  muted = true;
  const a = await answer;
  rl.close();
  process.stdout.write('\n');
  return a;
}

function configuredMasterKeyId(config: Config): string | undefined {
  try {
    return masterKeyId(loadMasterKeys(config.clinicalKey, config.dataDir).current);
  } catch {
    return undefined;
  }
}

/** Every stored file (DATA_DIR/files or the bucket, through the storage interface), read when the archive reaches it. */
async function storedFiles(storage: Storage): Promise<ArchiveEntry[]> {
  const entries: ArchiveEntry[] = [];
  for await (const f of storage.list()) entries.push({ name: `files/${f.key}`, size: f.size, data: () => storage.get(f.key) });
  return entries;
}

/** The restored files into the bucket (S3_BUCKET): each staged file put under its key; objects already there are replaced. */
async function uploadStaged(storage: Storage, root: string, dir = root): Promise<number> {
  let n = 0;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, d.name);
    if (d.isDirectory()) n += await uploadStaged(storage, root, full);
    else if (d.isFile()) {
      await storage.put(relative(root, full).split(sep).join('/'), createReadStream(full));
      n++;
    }
  }
  return n;
}

export async function backup(config: Config, passphrase: string, target?: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let out = resolve(target ?? join(config.dataDir, 'backups', `divan-${stamp}.backup`));
  if (existsSync(out) && statSync(out).isDirectory()) out = join(out, `divan-${stamp}.backup`);
  mkdirSync(dirname(out), { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'divan-backup-'));
  try {
    let database: ArchiveEntry;
    if (config.databaseUrl) {
      const dump = join(scratch, 'database.dump');
      execFileSync('pg_dump', ['--format=custom', '--no-owner', `--file=${dump}`, config.databaseUrl], { stdio: 'inherit' });
      database = { name: 'database.dump', size: statSync(dump).size, data: () => createReadStream(dump) };
    } else {
      // PGlite is embedded: the server must be stopped so the copy is consistent.
      const lock = acquireDataDirLock(config.dataDir);
      try {
        const db = await PGlite.create(join(config.dataDir, 'pgdata'));
        await db.query('CHECKPOINT');
        const dump = Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
        await db.close();
        database = { name: 'database.tar.gz', size: dump.length, data: () => dump };
      } finally {
        lock.release();
      }
    }
    const manifest: Manifest = {
      product: 'divan',
      version: APP_VERSION,
      createdAt: new Date().toISOString(),
      database: config.databaseUrl ? 'postgres' : 'pglite',
      clinicalMasterKeyId: configuredMasterKeyId(config),
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + '\n');
    const secret = Buffer.from(config.appSecret + '\n');
    const storage = await openStorage(config);
    await writeArchive(out, passphrase, [
      { name: 'manifest.json', size: manifestBytes.length, data: () => manifestBytes },
      database,
      // The token secret (and the key of data written before envelope encryption, until re-encrypted).
      { name: 'app-secret', size: secret.length, data: () => secret },
      ...(await storedFiles(storage)),
    ]).finally(() => storage.close?.());
    return out;
  } catch (err) {
    rmSync(out, { force: true });
    throw err;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const ENTRY = /^(manifest\.json|database\.tar\.gz|database\.dump|app-secret|files\/[\w@.-]+(\/[\w@.-]+)*)$/;

/**
 * Decrypts the whole archive into a staging folder beside DATA_DIR first: a wrong passphrase or a
 * damaged archive stops there, with DATA_DIR untouched. Then the database, the files and the token
 * secret take their places (what was there is kept aside with --force).
 */
export async function restore(config: Config, from: string, passphrase: () => Promise<string>, force: boolean): Promise<string> {
  const src = resolve(from);
  if (!existsSync(src) || !statSync(src).isFile()) throw new ConfigError(`${src} no es un archivo de copia.`);
  const target = config.databaseUrl ? 'postgres' : 'pglite';
  mkdirSync(config.dataDir, { recursive: true });
  const lock = acquireDataDirLock(config.dataDir);
  const staging = `${config.dataDir}.restoring-${Date.now()}`;
  try {
    const pgdata = join(config.dataDir, 'pgdata');
    const hasData =
      target === 'pglite' ? existsSync(pgdata) && readdirSync(pgdata).length > 0 : await postgresHasTables(config.databaseUrl!);
    if (hasData && !force)
      throw new ConfigError(
        `${target === 'pglite' ? config.dataDir : 'La base de datos de DATABASE_URL'} ya tiene datos. Añade --force para sustituirla (en PGlite se guarda aparte; en PostgreSQL se borra).`,
      );
    const pass = await passphrase();
    mkdirSync(staging, { recursive: true, mode: 0o700 });
    await readArchive(src, pass, (name) => {
      if (!ENTRY.test(name) || name.split('/').includes('..')) throw new ConfigError(`La copia contiene una entrada inesperada: ${name}`);
      mkdirSync(dirname(join(staging, name)), { recursive: true });
      return createWriteStream(join(staging, name), { mode: 0o600 });
    });
    const manifest = JSON.parse(readFileSync(join(staging, 'manifest.json'), 'utf8')) as Manifest;
    if (manifest.product !== 'divan') throw new ConfigError('Este archivo no es una copia de Diván.');
    if (manifest.database !== target)
      throw new ConfigError(`Esta copia contiene una base de datos ${manifest.database}; la configuración apunta a ${target}.`);

    const aside = `.before-restore-${Date.now()}`;
    if (target === 'postgres') {
      // --clean cannot drop pg-boss's partitioned tables: with --force the schemas go first, then a plain restore.
      if (hasData) await dropSchemas(config.databaseUrl!);
      execFileSync('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${config.databaseUrl}`, join(staging, 'database.dump')], {
        stdio: 'inherit',
      });
    } else {
      if (hasData) renameSync(pgdata, pgdata + aside);
      const db = await PGlite.create(pgdata, { loadDataDir: new Blob([readFileSync(join(staging, 'database.tar.gz'))]) });
      await db.query('SELECT 1');
      await db.close();
    }
    if (config.s3) {
      // The files go back into the bucket (S3_BUCKET), not into DATA_DIR.
      const storage = await openStorage(config);
      try {
        if (existsSync(join(staging, 'files'))) await uploadStaged(storage, join(staging, 'files'));
      } finally {
        storage.close?.();
      }
    } else {
      const files = join(config.dataDir, 'files');
      if (existsSync(files)) renameSync(files, files + aside);
      if (existsSync(join(staging, 'files'))) moveDir(join(staging, 'files'), files);
    }
    writeFileSync(join(config.dataDir, 'app-secret'), readFileSync(join(staging, 'app-secret')), { mode: 0o600 });
    const kept = target === 'pglite' ? ` (lo anterior queda como *${aside})` : ' (la base de datos anterior se ha sustituido)';
    const lines = [`Copia ${src} restaurada en ${config.dataDir}${hasData ? kept : ''}.`];
    const needed = manifest.clinicalMasterKeyId;
    if (needed && needed !== configuredMasterKeyId(config))
      lines.push(
        `Esta copia necesita la clave maestra clínica ${needed}: ponla en CLINICAL_KEY o en el archivo de clave antes de arrancar (no va dentro de la copia).`,
      );
    return lines.join('\n');
  } finally {
    rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}

async function withPostgres<T>(url: string, fn: (c: PgClient) => Promise<T>): Promise<T> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const postgresHasTables = (url: string) =>
  withPostgres(
    url,
    async (c) => (await c.query(`select 1 from pg_tables where schemaname in ('public', 'pgboss', 'drizzle') limit 1`)).rowCount! > 0,
  );

const dropSchemas = (url: string) =>
  withPostgres(url, (c) =>
    c.query(
      'drop schema if exists pgboss cascade; drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public',
    ),
  );

function moveDir(from: string, to: string) {
  try {
    renameSync(from, to);
  } catch {
    cpSync(from, to, { recursive: true });
  }
}
