import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../platform/db/database';
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
 * that exists is complete (two workers making it at once: the second's rename fails and it uses the first's).
 */
let made: Promise<string> | undefined;
function template(): Promise<string> {
  made ??= makeTemplate().catch((err: unknown) => {
    made = undefined;
    throw err;
  });
  return made;
}

async function makeTemplate(): Promise<string> {
  const hash = createHash('sha256');
  // PGlite's version too (its package.json is not exported: found above its entry).
  let pkg = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(pkg, 'package.json'))) pkg = dirname(pkg);
  hash.update(readFileSync(join(pkg, 'package.json')));
  hashMigrations(hash, migrationsFolder);
  const name = `divan-pgdata-${hash.digest('hex').slice(0, 16)}`;
  const final = join(tmpdir(), name);
  if (existsSync(final)) return final;
  // Older templates (other migrations) go: one of them is 40-odd MB.
  for (const old of readdirSync(tmpdir()).filter((f) => f.startsWith('divan-pgdata-') && f !== name && !f.includes('.'))) {
    rmSync(join(tmpdir(), old), { recursive: true, force: true });
  }
  const building = mkdtempSync(join(tmpdir(), `${name}.building-`));
  try {
    const database = await openDatabase({ dataDir: building, migrationsFolder });
    await database.close();
    try {
      renameSync(join(building, 'pgdata'), final);
    } catch (err) {
      if (!existsSync(final)) throw err;
    }
    return final;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}
