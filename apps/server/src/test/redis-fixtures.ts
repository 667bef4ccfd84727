import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { linkToken, PASSWORD } from './auth-flows';
import { startServerProcess, type ServerProcess } from './server-process';
import { AUTH, createPostgresDatabase, device } from './test-app';

/** REDIS_URL, for tests across processes sharing Redis: they skip without it, but under CI its absence fails the file (`what` must be tested). */
export function redisUrlRequiredUnderCi(what: string): string | undefined {
  const url = process.env.REDIS_URL;
  if (!url && process.env.CI === 'true') throw new Error(`REDIS_URL is required under CI: ${what} must be tested`);
  return url;
}

/**
 * Two real server processes, A and B, sharing one Redis as a deployment's do: one APP_SECRET (B accepts
 * A's tokens) and one clinical master key. On PostgreSQL (TEST_DATABASE_URL) both use one new database
 * and one DATA_DIR (an installation's files), on PGlite each its own. Rate-limit counters live in the
 * shared Redis too: they are raised so that a test does not trip over other runs' counts. `stop()` (for
 * afterAll) stops whatever was started, drops the database and removes the dirs, after a failed start too.
 */
export function serverProcessesSharingRedis(dirPrefix: string) {
  const servers: ServerProcess[] = [];
  const dirs: string[] = [];
  let dropDb: (() => Promise<void>) | undefined;
  return {
    async start(redisUrl: string) {
      const pgDb = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
      dropDb = pgDb?.drop;
      const shared = {
        REDIS_URL: redisUrl,
        APP_SECRET: randomBytes(32).toString('hex'),
        CLINICAL_KEY: randomBytes(32).toString('base64'),
        AUTH_RATE_LIMIT_IP: '100000',
        AUTH_RATE_LIMIT_EMAIL: '100000',
        ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      };
      for (let i = 0; i < 2; i++) {
        const dir = pgDb && dirs[0] ? dirs[0] : mkdtempSync(join(tmpdir(), dirPrefix));
        if (!dirs.includes(dir)) dirs.push(dir);
        servers.push(await startServerProcess({ ...shared, DATA_DIR: dir }));
      }
      const [a, b] = servers as [ServerProcess, ServerProcess];
      return { a, b, onPostgres: !!pgDb };
    },
    async stop() {
      await Promise.all(servers.map((s) => s.stop()));
      await dropDb?.();
      dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
    },
  };
}

/** A therapist signed up on a server process through its API, confirmed by the link its dev outbox holds: their access token. */
export async function therapistOn(server: ServerProcess, email: string, firstName = 'Nuria'): Promise<string> {
  const json = { 'content-type': 'application/json' };
  const signup = await fetch(`${server.url}${AUTH}/users`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ firstName, email, password: PASSWORD }),
  });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status} ${await signup.text()}`);
  const mails = (await (await fetch(`${server.url}/dev/mail/messages?to=${email}`)).json()) as { text: string }[];
  const confirmed = await fetch(`${server.url}${AUTH}/signup/challenge`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ code: linkToken(mails[0]!.text), ...device }),
  });
  if (confirmed.status !== 200) throw new Error(`confirm failed: ${confirmed.status} ${await confirmed.text()}`);
  return ((await confirmed.json()) as { accessToken: string }).accessToken;
}
