import { afterAll, describe, expect, it } from 'vitest';
import { authenticatedSocket } from '../../test/ws-client';
import { redisUrlRequiredUnderCi, serverProcessesSharingRedis, therapistOn } from '../../test/redis-fixtures';

const redisUrl = redisUrlRequiredUnderCi('the fan-out across processes');
const processes = serverProcessesSharingRedis('divan-rt-');
afterAll(() => processes.stop());

const patch = (url: string, body: unknown, token: string) =>
  fetch(url, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });

describe.skipIf(!redisUrl)('realtime across two server processes sharing Redis', () => {
  it('an event published by process A reaches a socket held by process B', async () => {
    console.log('realtime-redis: using', redisUrl);
    // B accepts A's tokens (one APP_SECRET). On PostgreSQL both share one database (as in production) and B's profile cache is checked
    // too; on PGlite each process has its own.
    const { a, b, onPostgres } = await processes.start(redisUrl!);
    const email = `redis-${Date.now()}@example.com`;
    const accessToken = await therapistOn(a, email);

    // B caches the profile; the change made through A must reach B's cache as well as its sockets.
    const meOnB = async () =>
      (
        (await (await fetch(`${b.url}/api/v1/me`, { headers: { authorization: `Bearer ${accessToken}` } })).json()) as {
          lastName: string | null;
        }
      ).lastName;
    if (onPostgres) expect(await meOnB()).toBeNull();
    const ws = await authenticatedSocket(b.url, accessToken);
    const res = await patch(`${a.url}/api/v1/me`, { lastName: 'Soler' }, accessToken);
    expect(res.status).toBe(200);
    expect((await ws.next('profile-updated', 10_000)).data).toMatchObject({ lastName: 'Soler', email });
    if (onPostgres) expect(await meOnB()).toBe('Soler');
    ws.close();
    // Two real server processes start here: on a busy two-core machine that alone can take most of 30 s.
  }, 120_000);
});
