import { createHash } from 'node:crypto';
import {
  cpSync,
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
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migratedPgliteDump, openDatabase } from '../platform/db/database';
import { hashMigrations } from './migrations-digest';

/**
 * A new DATA_DIR (in the OS temp dir) whose PGlite database is already migrated, for the tests that start
 * servers, job runners or apps on PGlite on disk: a copy of one migrated data dir, instead of a new cluster
 * and every migration at each start (~5 s of CPU, 15 s and more on a busy 2-core machine).
 *
 * Only the database: nothing else a first start writes (no secret, no clinical key, no stored files, no
 * installation id, no pg-boss schema), so a test of what a new installation does still sees it happen.
 * A test about making the cluster itself uses a bare mkdtemp.
 */
export async function migratedDataDir(prefix = 'divan-test-'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  seedPgdata(dir, await template());
  return dir;
}

/** Gives `dataDir` (empty, or without a database yet) the migrated database. */
export async function seedMigratedDatabase(dataDir: string): Promise<void> {
  if (!existsSync(join(dataDir, 'pgdata'))) seedPgdata(dataDir, await template());
}

const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../../drizzle');
const seedPgdata = (dir: string, from: string) => cpSync(from, join(dir, 'pgdata'), { recursive: true });

/**
 * The migrated pgdata, made once per set of migrations and PGlite version and shared by every worker of the
 * run and by later runs: `divan-pgdata-<hash>` in the temp dir, renamed into place whole, so a directory
 * that exists is complete; one worker makes it while the others wait for it (`madeOnce`).
 */
let made: Promise<string> | undefined;
function template(): Promise<string> {
  made ??= madeOnce('divan-pgdata-', '', async (final) => {
    const building = mkdtempSync(`${final}.building-`);
    try {
      const database = await openDatabase({ dataDir: building, migrationsFolder });
      await database.close();
      try {
        renameSync(join(building, 'pgdata'), final);
      } catch (err) {
        if (!existsSync(final)) throw err; // made meanwhile by a run without the lock
      }
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
  }).catch((err: unknown) => {
    made = undefined;
    throw err;
  });
  return made;
}

/**
 * The migrated, empty in-memory database every in-memory test app starts from (`migratedPgliteDump`, a
 * data dir as a tarball): made once per set of migrations and PGlite version for every worker of the run
 * and later runs (`divan-pgdump-<hash>.tar` in the temp dir), instead of a new cluster and every migration
 * in each worker (~6 s of CPU; the workers of a run start at once, each made its own).
 */
export async function migratedPgliteDumpFile(): Promise<Blob> {
  const file = await madeOnce('divan-pgdump-', '.tar', async (final) => {
    const dump = Buffer.from(await (await migratedPgliteDump(migrationsFolder)).arrayBuffer());
    const partial = `${final}.building-${process.pid}`;
    writeFileSync(partial, dump);
    renameSync(partial, final);
  });
  return new Blob([readFileSync(file)]);
}

/** The hash of the migrations and PGlite's version (its package.json is not exported: found above its entry). */
function templateHash(): string {
  const hash = createHash('sha256');
  let pkg = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(pkg, 'package.json'))) pkg = dirname(pkg);
  hash.update(readFileSync(join(pkg, 'package.json')));
  hashMigrations(hash, migrationsFolder);
  return hash.digest('hex').slice(0, 16);
}

/**
 * `<kind><hash><suffix>` in the temp dir (templateHash), made by `make(final)` (which puts it there whole, by a rename) unless it exists:
 * under a lock directory (`<name>.lock`, holding its maker's pid), so of the workers asking at once one
 * makes it and the others wait for it, instead of each making its own. A lock whose process is gone is
 * taken over; one made while a migration changed is thrown away and made again. Older versions of the same kind (another hash: one of them is 40-odd MB) go when one is made.
 */
async function madeOnce(kind: string, suffix: string, make: (final: string) => Promise<void>): Promise<string> {
  const hash = templateHash();
  const name = `${kind}${hash}${suffix}`;
  const final = join(tmpdir(), name);
  const lock = `${final}.lock`;
  for (;;) {
    if (existsSync(final)) return final;
    try {
      mkdirSync(lock);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (!lockHolderAlive(lock)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      if (existsSync(final)) return final;
      const older = new RegExp(`^${kind}[0-9a-f]{16}${suffix.replace('.', '\\.')}$`);
      for (const old of readdirSync(tmpdir()).filter((f) => f !== name && older.test(f))) {
        rmSync(join(tmpdir(), old), { recursive: true, force: true });
      }
      await make(final);
      // A migration written while it was made (an edit in the working tree): it is not the one of `name`.
      if (templateHash() === hash) return final;
      rmSync(final, { recursive: true, force: true });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    return madeOnce(kind, suffix, make);
  }
}

/** Whether the process that took `lock` still runs (a lock just made, its pid not written yet, counts as held). */
function lockHolderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs < 10_000;
    } catch {
      return false; // released meanwhile
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
