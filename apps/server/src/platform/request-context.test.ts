// Request ids through the jobs: a job enqueued while a request runs carries the request's id, and every
// line its handler logs says so (with the job and its queue), whichever process runs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Jobs, REQUEST_ID_KEY } from './jobs/jobs';
import { createServer } from './modules/http';
import { requestContext } from './request-context';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('request ids', () => {
  it('each answer names its request id, unique across requests (and processes: a UUID)', async () => {
    const a = await t.get('/api/v1/health');
    const b = await t.get('/api/v1/health');
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
  });

  it('reach the logs of the jobs a request enqueued; the handler never sees the carrier field', async () => {
    const lines: Record<string, unknown>[] = [];
    // The server's own logger (createServer's options: its mixin), writing here.
    const server = createServer({ ...t.config, logLevel: 'info' }, { logStream: { write: (l: string) => lines.push(JSON.parse(l)) } });
    const log = server.log;
    const jobs = new Jobs(t.app.services.database, { log, runWorkers: true });
    const seen: unknown[] = [];
    jobs.define<{ n: number }>({
      name: 'test.request-id',
      pollingIntervalSeconds: 0.2,
      work: async (data) => {
        seen.push(data);
        log.info({ n: data.n }, 'test job handled');
      },
    });
    await jobs.start();
    try {
      await requestContext.run({ requestId: 'req-0001' }, () => jobs.send('test.request-id', { n: 1 }));
      await jobs.send('test.request-id', { n: 2 }); // outside any request
      for (const end = Date.now() + 15_000; seen.length < 2 && Date.now() < end;) await new Promise((r) => setTimeout(r, 50));
      expect(seen).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
      expect(seen.some((d) => REQUEST_ID_KEY in (d as object))).toBe(false);
      const handled = lines.filter((l) => l.msg === 'test job handled');
      expect(handled.find((l) => l.n === 1)).toMatchObject({ requestId: 'req-0001', queue: 'test.request-id', job: expect.any(String) });
      expect(handled.find((l) => l.n === 2)).toMatchObject({ queue: 'test.request-id' });
      expect(handled.find((l) => l.n === 2)).not.toHaveProperty('requestId');
    } finally {
      await jobs.stop();
      await server.close();
    }
  });
});
