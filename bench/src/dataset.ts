import { randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import pg from 'pg';
import { atCleanup } from './lifecycle';
import { startDivan, type Managed } from './servers';
import { inLetters, sleep } from './util';

const AUTH = '/api/v1/realms/therapists';
const PASSWORD = 'Consulta2026';
const DEVICE = {
  appVersion: '1.0.0',
  deviceManufacturer: 'unknown',
  deviceModel: 'unknown',
  platformType: 'web',
  platformVersion: '1.0.0',
};

export type Session = { userId: string; email: string; accessToken: string; refreshToken: string };
export type DatabaseKind = 'pglite' | 'postgres';

export type Dataset = {
  kind: DatabaseKind;
  server: Managed;
  dataDir: string;
  databaseUrl?: string;
  users: number;
  /** Seconds to sign up and confirm every therapist. */
  seconds: number;
  session: Session;
};

/**
 * Where the server keeps the clinical master key of a data dir: beside it, never inside
 * (`<DATA_DIR>.clinical-key`, decision 0011), so a copy of the folder alone does not carry it.
 */
export const keyFileOf = (dataDir: string) => `${resolve(dataDir)}.clinical-key`;

/** A temporary DATA_DIR, removed at clean-up with the key file the server creates beside it. */
export function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'divan-bench-'));
  atCleanup(`remove ${dir}`, () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(keyFileOf(dir), { force: true });
  });
  return dir;
}

/**
 * A second data dir with the same data for another server: the folder (but its owner's lock) and its
 * clinical key file, without which a server refuses encrypted data. The source's server must be stopped.
 */
export function copyDataDir(source: string): string {
  const copy = tempDataDir();
  cpSync(source, copy, { recursive: true, filter: (src) => basename(src) !== 'divan.lock' });
  if (existsSync(keyFileOf(source))) copyFileSync(keyFileOf(source), keyFileOf(copy));
  return copy;
}

/** A fresh `divan_bench_<rand>` database on the server of `adminUrl`, dropped at clean-up. */
export async function tempDatabase(adminUrl: string): Promise<string> {
  const name = `divan_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  atCleanup(`drop database ${name}`, async () => {
    const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }> {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, json, text };
}

/** The confirmation link's token, from the dev outbox (newest first); polled a bounded number of times. */
async function confirmationToken(base: string, email: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const { status, json } = await call(base, 'GET', `/dev/mail/messages?to=${encodeURIComponent(email)}`);
    if (status !== 200) throw new Error(`outbox answered ${status} (is the server in production mode?)`);
    const text = (json as { text: string }[])[0]?.text;
    const token = text?.match(/\/verify-email\/([\w-]+)/)?.[1];
    if (token) return token;
    await sleep(100);
  }
  throw new Error(`no confirmation mail for ${email}`);
}

/** One therapist through the real API: sign up, read the link from the outbox, confirm (signs in). */
export async function signUpConfirmed(base: string, email: string, firstName: string): Promise<Session> {
  const created = await call(base, 'POST', `${AUTH}/users`, { firstName, email, password: PASSWORD });
  if (created.status !== 201) throw new Error(`sign-up of ${email} answered ${created.status}: ${created.text.slice(0, 300)}`);
  const code = await confirmationToken(base, email);
  const confirmed = await call(base, 'POST', `${AUTH}/signup/challenge`, { code, ...DEVICE });
  if (confirmed.status !== 200) throw new Error(`confirmation of ${email} answered ${confirmed.status}: ${confirmed.text.slice(0, 300)}`);
  const t = confirmed.json as { userId: string; accessToken: string; refreshToken: string };
  return { userId: t.userId, email, accessToken: t.accessToken, refreshToken: t.refreshToken };
}

/** Access tokens live 15 minutes: a new one (the refresh token rotated), for a part that runs longer. */
export async function refreshSession(base: string, session: Session): Promise<void> {
  const res = await fetch(`${base}${AUTH}/token?${new URLSearchParams(DEVICE)}`, {
    headers: { authorization: `Bearer ${session.refreshToken}` },
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await res.json()) as { accessToken: string; refreshToken?: string };
  if (!res.ok) throw new Error(`token refresh answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  session.accessToken = body.accessToken;
  if (body.refreshToken) session.refreshToken = body.refreshToken;
}

/** Signs up `count` therapists, `concurrency` at a time; returns the last session. */
export async function populate(base: string, count: number, concurrency: number, tag: string): Promise<Session> {
  let next = 0;
  let last: Session | undefined;
  let failed = false;
  const worker = async () => {
    while (next < count && !failed) {
      const i = next++;
      try {
        last = await signUpConfirmed(base, `terapeuta${i}.${tag}@example.com`, `Terapeuta ${inLetters(i)}`);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return last!;
}

/** A fresh database (PGlite in a temporary DATA_DIR, or a new PostgreSQL database), its server, and N therapists. */
export async function createDataset(kind: DatabaseKind, o: { users: number; adminUrl: string; concurrency: number }): Promise<Dataset> {
  const dataDir = tempDataDir();
  const databaseUrl = kind === 'postgres' ? await tempDatabase(o.adminUrl) : undefined;
  const server = await startDivan({ dataDir, databaseUrl });
  const started = performance.now();
  const session = await populate(server.url, o.users, o.concurrency, randomBytes(3).toString('hex'));
  const seconds = (performance.now() - started) / 1000;
  return { kind, server, dataDir, databaseUrl, users: o.users, seconds, session };
}
