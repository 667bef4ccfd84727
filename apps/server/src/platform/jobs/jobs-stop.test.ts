// Stopping the job runner within a bound (SIGTERM): no new job is taken; a job still running when the
// bound passes is handed back (failed for its retry by another worker) and stop returns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Jobs } from './jobs';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('Jobs.stop', () => {
  it('hands back a job that outlives the bound, and a second stop waits for the first', async () => {
    const jobs = new Jobs(t.app.services.database, { runWorkers: true });
    let started = false;
    let release: () => void = () => {};
    jobs.define({
      name: 'test.slow',
      pollingIntervalSeconds: 0.2,
      retryDelaySeconds: 1,
      work: async () => {
        started = true;
        await new Promise<void>((res) => (release = res));
      },
    });
    await jobs.start();
    await jobs.send('test.slow', {}, { key: 'slow-1' });
    for (const end = Date.now() + 10_000; !started && Date.now() < end;) await new Promise((r) => setTimeout(r, 50));
    expect(started).toBe(true);
    expect(await jobs.stateOf('test.slow', 'slow-1')).toBe('active');

    const t0 = Date.now();
    const first = jobs.stop({ timeoutMs: 500 });
    const second = jobs.stop({ timeoutMs: 60_000 });
    await first;
    await second;
    expect(Date.now() - t0).toBeLessThan(3000);
    // Handed back: ready for another worker to retry, not left active until it expires.
    expect(await jobs.stateOf('test.slow', 'slow-1')).toBe('retry');
    release(); // the handler's late end reports nothing
    await new Promise((r) => setTimeout(r, 100));
    expect(await jobs.stateOf('test.slow', 'slow-1')).toBe('retry');
  });
});
