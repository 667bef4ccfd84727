import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import { buildApp, migrationsFolder, type BuildOptions } from '../app';
import { openDatabase } from '../platform/db/database';
import { hashMigrations } from './migrations-digest';
import { migratedPgliteDumpFile, seedMigratedDatabase } from './pglite-data-dir';
import { JOBS_SCHEMA } from '../platform/jobs/jobs';
import type { Config } from '../platform/config';

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * A real app on a fresh database for one test file: in-memory PGlite by default, a new PostgreSQL
 * database when TEST_DATABASE_URL is set (dropped on close). An explicit `databaseUrl` (a second
 * process of the same deployment, a restore target, or `undefined` for PGlite) is used as given.
 */
export async function createTestApp(overrides: Partial<Config> = {}, opts: BuildOptions = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'divan-test-'));
  const pgDb =
    process.env.TEST_DATABASE_URL && !('databaseUrl' in overrides)
      ? await createPostgresDatabase(process.env.TEST_DATABASE_URL)
      : undefined;
  // In memory (no database URL given): a copy of this worker's migrated template, not a new cluster.
  const inMemory = !pgDb && !overrides.databaseUrl && overrides.inMemoryDatabase !== false;
  if (inMemory) opts = { databaseTemplate: await pgliteTemplate(), ...opts };
  // On disk in its own new data dir: a copy of a migrated database too (test/pglite-data-dir.ts).
  else if (!pgDb && !overrides.databaseUrl && !overrides.dataDir) await seedMigratedDatabase(dataDir);
  const config: Config = {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    publicUrl: 'http://divan.test',
    dataDir,
    databaseUrl: pgDb?.url,
    inMemoryDatabase: !pgDb && !overrides.databaseUrl,
    mailFrom: 'Diván <no-reply@divan.test>',
    appSecret: randomBytes(32).toString('hex'),
    clinicalKey: { key: randomBytes(32).toString('base64') },
    logLevel: 'silent',
    rateLimit: { perIpPerMinute: 10_000, perEmailPer15Min: 10_000, uploadsPerMinute: 10_000, exportsPerMinute: 10_000 },
    webDist: join(dataDir, 'no-web'),
    patientListCache: 500,
    ...overrides,
  };
  const app = await buildApp(config, { logger: false, ...opts });
  await app.ready();
  const close = async () => {
    await app.close();
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  /** Raw SQL for assertions that look at the database itself. */
  const rows = async <T>(query: SQL) => ((await app.services.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  return { app, config, close, rows, ...clientFor(app), database: app.services.database.kind, clock: opts.clock };
}

/**
 * The migrated, empty PGlite data dir every in-memory test app of this worker starts from (read once: files
 * share the worker's modules), made once for every worker (test/pglite-data-dir.ts).
 */
let template: Promise<Blob> | undefined;
export function pgliteTemplate(): Promise<Blob> {
  template ??= migratedPgliteDumpFile().catch((err: unknown) => {
    template = undefined;
    throw err;
  });
  return template;
}

/**
 * A second server process of `a`'s deployment: same PostgreSQL database and DATA_DIR (its files), same
 * secret (so `a`'s tokens work), clinical key and clock. The clock matters: with a fixed test time in one process and the real
 * one in the other, what one wrote as still valid (a booking hold's ten minutes) reads as expired in the other.
 */
export const createSecondApp = (a: TestApp, overrides: Partial<Config> = {}, opts: BuildOptions = {}) =>
  createTestApp(
    {
      dataDir: a.config.dataDir,
      ...overrides,
      databaseUrl: a.config.databaseUrl,
      appSecret: a.config.appSecret,
      clinicalKey: a.config.clinicalKey,
    },
    { ...(a.clock ? { clock: a.clock } : {}), ...opts },
  );

function clientFor(app: FastifyInstance) {
  const call = (
    method: InjectOptions['method'],
    url: string,
    init: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  ) =>
    app.inject({
      method,
      url,
      headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers },
      ...(init.body !== undefined ? { payload: init.body as InjectOptions['payload'] } : {}),
    });
  return {
    get: (url: string, init?: Parameters<typeof call>[2]) => call('GET', url, init),
    post: (url: string, body?: unknown, init?: Parameters<typeof call>[2]) => call('POST', url, { ...init, body }),
    patch: (url: string, body?: unknown, init?: Parameters<typeof call>[2]) => call('PATCH', url, { ...init, body }),
    put: (url: string, body?: unknown, init?: Parameters<typeof call>[2]) => call('PUT', url, { ...init, body }),
    del: (url: string, init?: Parameters<typeof call>[2]) => call('DELETE', url, init),
    /** Newest mail to this address from the outbox. */
    async lastMail(to: string) {
      const [mail] = await app.services.mailer.list(to, 1);
      if (!mail) throw new Error(`no mail to ${to}`);
      return mail;
    },
  };
}

/**
 * A new PostgreSQL database on the server of `adminUrl`, dropped by `drop()`: a copy of the migrated
 * template (`CREATE DATABASE … TEMPLATE`, ~0.1 s instead of every migration and pg-boss's schema), or
 * `empty` for a test about an empty database; its commits do not wait for the disk.
 */
export async function createPostgresDatabase(adminUrl: string, opts: { empty?: boolean } = {}) {
  const name = `divan_t_${randomBytes(6).toString('hex')}`;
  const template = opts.empty ? undefined : await postgresTemplate(adminUrl);
  await onAdmin(adminUrl, async (admin) => {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
    // A test database is thrown away: its commits need not wait for the disk (each still reaches the
    // server's memory and WAL buffers before it is acknowledged, so every other process sees it at once).
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  });
  return {
    url: databaseUrlOf(adminUrl, name),
    async drop() {
      await onAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function onAdmin<T>(adminUrl: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

const databaseUrlOf = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * The migrated, empty PostgreSQL database every test database is copied from: drizzle's migrations and
 * pg-boss's schema, nothing an app writes at start (no installation marker: each copy gets its own from
 * its first app). Named by a hash of what it holds, so a changed migration makes a new one; made once per
 * server, under an advisory lock (several workers, or runs, ask at once), built under a temporary name
 * and renamed only once whole.
 */
let pgTemplate: Promise<string> | undefined;
function postgresTemplate(adminUrl: string): Promise<string> {
  pgTemplate ??= makePostgresTemplate(adminUrl).catch((err: unknown) => {
    pgTemplate = undefined;
    throw err;
  });
  return pgTemplate;
}

const TEMPLATE_LOCK = 0x64697661; // "diva"

async function makePostgresTemplate(adminUrl: string): Promise<string> {
  const { default: PgBoss } = await import('pg-boss');
  const bossSchema = PgBoss.getConstructionPlans(JOBS_SCHEMA);
  const hash = hashMigrations(createHash('sha256').update(bossSchema), migrationsFolder);
  const name = `divan_template_${hash.digest('hex').slice(0, 16)}`;
  return onAdmin(adminUrl, async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      // Each template carries, as its comment, when a run last used it: another checkout with other
      // migrations (a second clone, a CI run beside a session) keeps its own while it runs.
      const { rows } = await admin.query<{ datname: string; used: string | null }>(
        "SELECT datname, shobj_description(oid, 'pg_database') AS used FROM pg_database WHERE datname LIKE 'divan\\_template\\_%'",
      );
      const touch = (db: string) => admin.query(`COMMENT ON DATABASE ${db} IS '${Date.now()}'`);
      if (rows.some((r) => r.datname === name)) {
        await touch(name);
        return name;
      }
      const building = `${name}_${randomBytes(3).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${building}`);
      await touch(building);
      try {
        const database = await openDatabase({ url: databaseUrlOf(adminUrl, building), migrationsFolder, poolSize: 1 });
        try {
          await database.db.execute(sql.raw(bossSchema));
        } finally {
          await database.close();
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } catch (err) {
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        throw err;
      }
      // Templates of other migrations, or left half-built by a killed run, unused for an hour: nobody copies them any more.
      const stale = rows.filter((r) => !(Number(r.used) > Date.now() - 3_600_000));
      for (const { datname } of stale) await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => {});
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
}

export const json = <T = Record<string, unknown>>(res: LightMyRequestResponse) => res.json() as T;
export const AUTH = '/api/v1/realms/therapists';
export const device = {
  appVersion: '1.0.0',
  deviceManufacturer: 'unknown',
  deviceModel: 'unknown',
  platformType: 'web',
  platformVersion: '1.0.0+test',
};
