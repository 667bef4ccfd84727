import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectSocket } from '../../test/ws-client';
import { startServerProcess, type ServerProcess } from '../../test/server-process';
import { createPostgresDatabase } from '../../test/test-app';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl && process.env.CI === 'true') throw new Error('REDIS_URL is required under CI: the fan-out across processes must be tested');
const servers: ServerProcess[] = [];
const dirs: string[] = [];
let dropDb: (() => Promise<void>) | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await dropDb?.();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const device = {
  appVersion: '1.0.0',
  deviceManufacturer: 'unknown',
  deviceModel: 'unknown',
  platformType: 'web',
  platformVersion: '1.0.0',
};
const post = (url: string, body: unknown, token?: string, method = 'POST') =>
  fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe.skipIf(!redisUrl)('realtime across two server processes sharing Redis', () => {
  it('an event published by process A reaches a socket held by process B', async () => {
    console.log('realtime-redis: using', redisUrl);
    // Same APP_SECRET, so B accepts A's tokens, and one clinical master key, as processes sharing a database must. On PostgreSQL both share one database (as in
    // production) and B's profile cache is checked too; on PGlite each process has its own.
    const appSecret = randomBytes(32).toString('hex');
    const pgDb = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
    dropDb = pgDb?.drop;
    // Rate-limit counters live in the shared Redis too: this test must not trip over other runs' counts.
    const shared = {
      REDIS_URL: redisUrl!,
      APP_SECRET: appSecret,
      CLINICAL_KEY: randomBytes(32).toString('base64'),
      AUTH_RATE_LIMIT_IP: '100000',
      AUTH_RATE_LIMIT_EMAIL: '100000',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    };
    for (let i = 0; i < 2; i++) {
      // On one PostgreSQL database the processes share one DATA_DIR, as an installation must (its files).
      const dir = pgDb && dirs[0] ? dirs[0] : mkdtempSync(join(tmpdir(), 'divan-rt-'));
      if (!dirs.includes(dir)) dirs.push(dir);
      servers.push(await startServerProcess({ ...shared, DATA_DIR: dir }));
    }
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const email = `redis-${Date.now()}@example.com`;
    expect((await post(`${a.url}/api/v1/realms/therapists/users`, { firstName: 'Nuria', email, password: 'Consulta2026' })).status).toBe(
      201,
    );
    const mails = (await (await fetch(`${a.url}/dev/mail/messages?to=${email}`)).json()) as { text: string }[];
    const token = mails[0]!.text.match(/verify-email\/([\w-]+)/)![1];
    const session = (await (await post(`${a.url}/api/v1/realms/therapists/signup/challenge`, { code: token, ...device })).json()) as {
      accessToken: string;
    };

    // B caches the profile; the change made through A must reach B's cache as well as its sockets.
    const meOnB = async () =>
      (
        (await (await fetch(`${b.url}/api/v1/me`, { headers: { authorization: `Bearer ${session.accessToken}` } })).json()) as {
          lastName: string | null;
        }
      ).lastName;
    if (pgDb) expect(await meOnB()).toBeNull();
    const ws = await connectSocket(b.url);
    ws.send('authenticate', { token: session.accessToken, realm: 'therapists' });
    await ws.next('authenticated');
    const res = await post(`${a.url}/api/v1/me`, { lastName: 'Soler' }, session.accessToken, 'PATCH');
    expect(res.status).toBe(200);
    expect((await ws.next('profile-updated', 10_000)).data).toMatchObject({ lastName: 'Soler', email });
    if (pgDb) expect(await meOnB()).toBe('Soler');
    ws.close();
    // Two real server processes start here: on a busy two-core machine that alone can take most of 30 s.
  }, 120_000);
});
