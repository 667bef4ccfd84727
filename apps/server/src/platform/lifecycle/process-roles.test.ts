// PROCESS_ROLE: a web process serves HTTP and runs no job; a worker runs the jobs and serves only the
// health routes. Two processes of one deployment on one PostgreSQL database (the pair needs it).
import { afterAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../config';
import { until } from '../../test/until';
import { AUTH, createSecondApp, createTestApp, type TestApp } from '../../test/test-app';

const opened: TestApp[] = [];
afterAll(async () => {
  for (const t of opened.reverse()) await t.close();
});

describe('PROCESS_ROLE', () => {
  it('is parsed: web enqueues only; worker and all run the jobs; anything else stops the start', () => {
    const base = { DATA_DIR: '/tmp/divan-roles', APP_SECRET: 'x'.repeat(32) };
    expect(loadConfig({ ...base, PROCESS_ROLE: 'web' })).toMatchObject({ processRole: 'web', runJobs: false });
    expect(loadConfig({ ...base, PROCESS_ROLE: 'worker' })).toMatchObject({ processRole: 'worker', runJobs: true });
    expect(loadConfig(base)).toMatchObject({ processRole: 'all', runJobs: true });
    expect(() => loadConfig({ ...base, PROCESS_ROLE: 'api' })).toThrow(/PROCESS_ROLE/);
  });

  it('a worker serves the health routes and nothing else over HTTP', async () => {
    const worker = await createTestApp({ processRole: 'worker' });
    opened.push(worker);
    expect((await worker.get('/health/ready')).statusCode).toBe(200);
    expect((await worker.get('/health/live')).statusCode).toBe(200);
    expect((await worker.get('/api/v1/health')).statusCode).toBe(200);
    for (const path of ['/api/v1/openapi.json', '/', '/api/v1/notifications', '/dev/mail'])
      expect((await worker.get(path)).statusCode, path).toBe(404);
    expect((await worker.post(`${AUTH}/users`, { firstName: 'Nuria', email: 'w@divan.test', password: 'Consulta2026' })).statusCode).toBe(
      404,
    );
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('a web process runs no job it enqueues; the worker beside it does', async () => {
    const web = await createTestApp({ processRole: 'web', runJobs: false });
    opened.push(web);
    expect((await web.get('/health/ready')).statusCode).toBe(200);
    await web.app.services.jobs.send('platform.sweep', {}, { key: 'roles-test' });
    await sleep(1500);
    expect(await web.app.services.jobs.stateOf('platform.sweep', 'roles-test')).toBe('created');
    const worker = await createSecondApp(web, { processRole: 'worker', runJobs: true });
    opened.push(worker);
    const state = () => web.app.services.jobs.stateOf('platform.sweep', 'roles-test');
    expect(await until(state, (s) => s === 'completed', 15_000)).toBe('completed');
  });
});
