import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectSocket } from '../../test/ws-client';
import { startServerProcess, type ServerProcess } from '../../test/server-process';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl && process.env.CI === 'true') throw new Error('REDIS_URL is required under CI: the fan-out across processes must be tested');
const servers: ServerProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const device = { appVersion: '1.0.0', deviceManufacturer: 'unknown', deviceModel: 'unknown', platformType: 'web', platformVersion: '1.0.0' };
const post = (url: string, body: unknown, token?: string, method = 'POST') =>
  fetch(url, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

describe.skipIf(!redisUrl)('realtime across two server processes sharing Redis', () => {
  it('an event published by process A reaches a socket held by process B', async () => {
    console.log('realtime-redis: using', redisUrl);
    // Same APP_SECRET, so B accepts A's tokens; each process has its own database.
    const appSecret = randomBytes(32).toString('hex');
    const shared = { REDIS_URL: redisUrl!, APP_SECRET: appSecret };
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'divan-rt-'));
      dirs.push(dir);
      servers.push(await startServerProcess({ ...shared, DATA_DIR: dir }));
    }
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const email = `redis-${Date.now()}@example.com`;
    expect((await post(`${a.url}/api/v1/realms/therapists/users`, { firstName: 'Nuria', email, password: 'Consulta2026' })).status).toBe(201);
    const mails = (await (await fetch(`${a.url}/dev/mail/messages?to=${email}`)).json()) as { text: string }[];
    const token = mails[0]!.text.match(/verify-email\/([\w-]+)/)![1];
    const session = (await (await post(`${a.url}/api/v1/realms/therapists/signup/challenge`, { code: token, ...device })).json()) as { accessToken: string };

    const ws = await connectSocket(b.url);
    ws.send('authenticate', { token: session.accessToken, realm: 'therapists' });
    await ws.next('authenticated');
    const res = await post(`${a.url}/api/v1/me`, { lastName: 'Soler' }, session.accessToken, 'PATCH');
    expect(res.status).toBe(200);
    expect((await ws.next('profile-updated', 10_000)).data).toMatchObject({ lastName: 'Soler', email });
    ws.close();
  });
});
