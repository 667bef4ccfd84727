// Rate limits across server processes (issue 31): two app instances sharing one Redis count one visitor
// together — the public booking page's N+1th request is refused on either, whichever served the first N.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { redisUrlRequiredUnderCi } from '../../test/redis-fixtures';
import { createSecondApp, createTestApp, type TestApp } from '../../test/test-app';

const redisUrl = redisUrlRequiredUnderCi('rate limits shared across processes');
const N = 5;

describe.skipIf(!redisUrl)('the public booking rate limit through Redis', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const rateLimit = { perIpPerMinute: N, perEmailPer15Min: 10_000, uploadsPerMinute: 10_000, exportsPerMinute: 10_000 };
    a = await createTestApp({ redisUrl, rateLimit });
    // On PostgreSQL the same deployment's second process; on PGlite its own database (the limit lives in Redis alone).
    b = a.database === 'postgres' ? await createSecondApp(a, { redisUrl, rateLimit }) : await createTestApp({ redisUrl, rateLimit });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('refuses the N+1th request of one visitor on either instance, and not another visitor', async () => {
    // A visitor address of this run only: the shared Redis also holds other runs' counters.
    const visitor = `198.18.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0]! % 250)}`;
    const page = `/api/v1/public/reservations/${randomUUID()}`;
    const get = (t: TestApp, remoteAddress = visitor) => t.app.inject({ method: 'GET', url: page, remoteAddress });
    const statuses: number[] = [];
    for (let i = 0; i < N; i++) statuses.push((await get(i % 2 ? b : a)).statusCode);
    expect(statuses).not.toContain(429);
    for (const t of [a, b]) {
      const refused = await get(t);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    expect((await get(b, '198.19.0.1')).statusCode).not.toBe(429);
  });
});
