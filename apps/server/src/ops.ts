import { PGlite } from '@electric-sql/pglite';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { APP_VERSION, PLAN_IDS } from '@divan/core';
import { sql } from 'drizzle-orm';
import { ConfigError, loadConfig } from './platform/config';
import { acquireDataDirLock, DataDirInUseError } from './platform/db/data-dir-lock';
import { AppError } from './platform/errors';

/**
 * Operator commands: `backup [dir]`, `restore <dir> [--force]`, `admin …` and `demo`.
 * A backup is a folder: the database (PGlite data dir tarball, or pg_dump custom format), the
 * stored files, the app secret (tokens and encrypted data depend on it) and a manifest.
 */
const [command, ...args] = process.argv.slice(2);
const USAGE = `Usage:
  npm run backup [-- <folder>]
  npm run restore -- <folder> [--force]
  npm run admin -- list-workspaces
  npm run admin -- set-plan <workspaceId> <basic|advance|team|none> [--seats N] [--period-end YYYY-MM-DD]
  npm run demo`;

async function main() {
  const config = loadConfig();
  if (command === 'backup') return backup(config, args[0]);
  if (command === 'restore') return restore(config, args.find((a) => !a.startsWith('--')), args.includes('--force'));
  if (command === 'admin') return admin(config, args);
  if (command === 'demo') return demo(config);
  throw new ConfigError(USAGE);
}

/** Operator commands on workspaces. On PGlite the server must be stopped (one process owns the data). */
async function admin(config: ReturnType<typeof loadConfig>, argv: string[]) {
  const [sub, ...rest] = argv;
  const flag = (name: string) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const { buildApp } = await import('./app');
  const app = await buildApp(config, { logger: false });
  try {
    if (sub === 'list-workspaces') {
      const rows = await app.services.database.db.execute(
        sql`select w.id, w.name, w.plan_id, w.plan_seats, u.email from workspaces w join users u on u.id = w.owner_id order by w.created_at`,
      );
      for (const r of (rows as unknown as { rows: Record<string, unknown>[] }).rows)
        console.log(`${r.id}  ${String(r.plan_id ?? 'sin plan').padEnd(8)} ${String(r.plan_seats).padStart(3)} plazas  ${r.name} (${r.email})`);
      return;
    }
    if (sub === 'set-plan') {
      const [workspaceId, planArg] = rest;
      const plan = planArg === 'none' ? null : PLAN_IDS.find((p) => p === planArg);
      if (!workspaceId || plan === undefined) throw new ConfigError(USAGE);
      const seats = flag('seats') ? Number.parseInt(flag('seats')!, 10) : undefined;
      if (seats !== undefined && (!Number.isInteger(seats) || seats < 1)) throw new ConfigError('--seats must be a whole number of at least 1');
      const periodEnd = flag('period-end') ? new Date(`${flag('period-end')}T23:59:59Z`) : undefined;
      if (periodEnd && Number.isNaN(periodEnd.getTime())) throw new ConfigError('--period-end must be a date, YYYY-MM-DD');
      const row = await app.services.workspaces.setPlan(workspaceId, { id: plan, seats, periodEnd });
      console.log(`${row.name}: plan ${row.planId ?? 'none'}, ${row.planSeats} seats`);
      return;
    }
    throw new ConfigError(USAGE);
  } finally {
    await app.close();
  }
}

/** A demo clinic with fictional patients, to try the app; running it again adds nothing twice. */
async function demo(config: ReturnType<typeof loadConfig>) {
  const { buildApp } = await import('./app');
  const { seedDemo } = await import('./demo/demo-seed');
  const { DEMO_PASSWORD, DEMO_THERAPISTS, DEMO_WORKSPACE } = await import('./demo/demo-data');
  const app = await buildApp(config, { logger: false });
  try {
    const r = await seedDemo(app);
    console.log(`Demo workspace "${DEMO_WORKSPACE}" (plan team): ${r.created} patients created, ${r.existing} already there, ${r.entries} history entries added.`);
    console.log(`\nOpen ${config.publicUrl} and sign in:`);
    console.log(`  email:    ${DEMO_THERAPISTS.lead.email}`);
    console.log(`  password: ${DEMO_PASSWORD}`);
    console.log(`  colleague: ${DEMO_THERAPISTS.colleague.email} (same password)`);
    if (!config.smtpUrl && config.env !== 'production') console.log(`Sign-in asks for a 6-digit code: without SMTP it is in the outbox, ${config.publicUrl}/dev/mail`);
  } finally {
    await app.close();
  }
}

async function backup(config: ReturnType<typeof loadConfig>, target?: string) {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const out = resolve(target ?? join(config.dataDir, 'backups', stamp));
  mkdirSync(out, { recursive: true });
  if (config.databaseUrl) {
    execFileSync('pg_dump', ['--format=custom', '--no-owner', `--file=${join(out, 'database.dump')}`, config.databaseUrl], { stdio: 'inherit' });
  } else {
    // PGlite is embedded: the server must be stopped so the copy is consistent.
    const lock = acquireDataDirLock(config.dataDir);
    try {
      const db = await PGlite.create(join(config.dataDir, 'pgdata'));
      await db.query('CHECKPOINT');
      const dump = await db.dumpDataDir('gzip');
      writeFileSync(join(out, 'database.tar.gz'), Buffer.from(await dump.arrayBuffer()));
      await db.close();
    } finally {
      lock.release();
    }
  }
  const files = join(config.dataDir, 'files');
  if (existsSync(files)) cpSync(files, join(out, 'files'), { recursive: true });
  writeFileSync(join(out, 'app-secret'), config.appSecret + '\n', { mode: 0o600 });
  const manifest = { product: 'divan', version: APP_VERSION, createdAt: new Date().toISOString(), database: config.databaseUrl ? 'postgres' : 'pglite' };
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  console.log(`Backup written to ${out}`);
}

async function restore(config: ReturnType<typeof loadConfig>, from: string | undefined, force: boolean) {
  if (!from) throw new ConfigError('Usage: npm run restore -- <backup folder> [--force]');
  const src = resolve(from);
  const manifestFile = join(src, 'manifest.json');
  if (!existsSync(manifestFile)) throw new ConfigError(`${src} is not a Diván backup (no manifest.json).`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { database: 'pglite' | 'postgres' };
  const target = config.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.database !== target)
    throw new ConfigError(`This backup holds a ${manifest.database} database; the configuration points at ${target}.`);
  mkdirSync(config.dataDir, { recursive: true });
  const lock = acquireDataDirLock(config.dataDir);
  try {
    const pgdata = join(config.dataDir, 'pgdata');
    const hasData = target === 'pglite' ? existsSync(pgdata) && readdirSync(pgdata).length > 0 : false;
    if (hasData && !force) throw new ConfigError(`${config.dataDir} already holds a database. Add --force to replace it (it is kept aside, not deleted).`);
    const aside = `.before-restore-${Date.now()}`;
    if (target === 'postgres') {
      execFileSync('pg_restore', ['--clean', '--if-exists', '--no-owner', `--dbname=${config.databaseUrl}`, join(src, 'database.dump')], { stdio: 'inherit' });
    } else {
      if (hasData) renameSync(pgdata, pgdata + aside);
      const tarball = new Blob([readFileSync(join(src, 'database.tar.gz'))]);
      const db = await PGlite.create(pgdata, { loadDataDir: tarball });
      await db.query('SELECT 1');
      await db.close();
    }
    const files = join(config.dataDir, 'files');
    if (existsSync(files)) renameSync(files, files + aside);
    if (existsSync(join(src, 'files'))) cpSync(join(src, 'files'), files, { recursive: true });
    writeFileSync(join(config.dataDir, 'app-secret'), readFileSync(join(src, 'app-secret')), { mode: 0o600 });
    console.log(`Restored ${src} into ${config.dataDir}${hasData ? ` (previous data kept as *${aside})` : ''}`);
  } finally {
    lock.release();
  }
}

main().catch((err: unknown) => {
  const known = err instanceof ConfigError || err instanceof DataDirInUseError || err instanceof AppError;
  console.error(known ? (err as Error).message : err);
  process.exit(1);
});
