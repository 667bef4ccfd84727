import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { SQL } from 'drizzle-orm';
import { buildApp, migrationsFolder, type BuildOptions } from '../app';
import { migratedPgliteDump } from '../platform/db/database';
import type { Config } from '../platform/config';

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * A real app on a fresh database for one test file: in-memory PGlite by default, a new PostgreSQL
 * database when TEST_DATABASE_URL is set (dropped on close).
 */
export async function createTestApp(overrides: Partial<Config> = {}, opts: BuildOptions = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'divan-test-'));
  const pgDb = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
  // In memory (no database URL given): a copy of this worker's migrated template, not a new cluster.
  const inMemory = !pgDb && !overrides.databaseUrl && overrides.inMemoryDatabase !== false;
  if (inMemory) opts = { databaseTemplate: await pgliteTemplate(), ...opts };
  const config: Config = {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    publicUrl: 'http://divan.test',
    dataDir,
    databaseUrl: pgDb?.url,
    inMemoryDatabase: !pgDb,
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

/** The migrated, empty PGlite data dir every in-memory test app of this worker starts from (made once: files share the worker's modules). */
let template: Promise<Blob> | undefined;
function pgliteTemplate(): Promise<Blob> {
  template ??= migratedPgliteDump(migrationsFolder).catch((err: unknown) => {
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

export async function createPostgresDatabase(adminUrl: string) {
  const name = `divan_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
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
