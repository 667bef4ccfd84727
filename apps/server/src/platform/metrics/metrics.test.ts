import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig } from '../config';
import { freePort } from '../../test/server-process';
import { createTestApp, type TestApp } from '../../test/test-app';

const TOKEN = 'metrics-token-0123456789';
const opened: TestApp[] = [];
afterAll(async () => {
  for (const t of opened) await t.close();
});

/** The value of one series in Prometheus's text format (`name{a="1",b="2"}`, its labels in any order), or undefined. */
const sample = (text: string, series: string) => {
  const [, name, labels = ''] = /^([^{]+)(?:\{(.*)\})?$/.exec(series)!;
  const want = labels.split(',').filter(Boolean).sort().join(',');
  for (const line of text.split('\n')) {
    const m = /^([^{ ]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m && m[1] === name && (m[2] ?? '').split(',').filter(Boolean).sort().join(',') === want) return Number(m[3]);
  }
  return undefined;
};

describe('/metrics', () => {
  it('does not exist without METRICS_PORT or METRICS_TOKEN', async () => {
    const t = await createTestApp();
    opened.push(t);
    expect((await t.get('/metrics')).statusCode).toBe(404);
    expect((await t.get('/metrics', { token: TOKEN })).statusCode).toBe(404);
  });

  it('on the main port behind METRICS_TOKEN: requests per route pattern, latency, job queues, sockets, pools, process', async () => {
    const t = await createTestApp({ metrics: { token: TOKEN } });
    opened.push(t);
    expect((await t.get('/metrics')).statusCode).toBe(404);
    expect((await t.get('/metrics', { token: 'metrics-token-wrong-000000' })).statusCode).toBe(404);

    await t.get('/api/v1/health');
    await t.get('/api/v1/health');
    const workspaceId = randomUUID();
    expect((await t.get(`/api/v1/workspaces/${workspaceId}/patients`)).statusCode).toBe(401);
    await t.get(`/no-such-page-${workspaceId}`);
    const later = new Date(Date.now() + 3_600_000);
    await t.app.services.jobs.send('platform.sweep', {}, { key: 'metrics-scheduled', startAfter: later });

    const res = await t.get('/metrics', { token: TOKEN });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    const role = 'role="all"';
    expect(sample(text, `divan_http_requests_total{method="GET",route="/api/v1/health",status="200",${role}}`)).toBe(2);
    expect(
      sample(text, `divan_http_requests_total{method="GET",route="/api/v1/workspaces/:workspaceId/patients",status="401",${role}}`),
    ).toBe(1);
    expect(text).not.toContain(workspaceId); // the pattern, never the raw URL
    expect(text).toMatch(/divan_http_requests_total\{method="GET",route="[^"]*",status="404"/);
    expect(sample(text, `divan_http_request_duration_seconds_count{method="GET",route="/api/v1/health",${role}}`)).toBe(2);
    expect(sample(text, `divan_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/health",${role}}`)).toBe(2);
    expect(sample(text, `divan_jobs_queue_depth{queue="platform.sweep",state="scheduled",${role}}`)).toBe(1);
    expect(sample(text, `divan_jobs_queue_depth{queue="platform.sweep",state="waiting",${role}}`)).toBe(0);
    expect(sample(text, `divan_jobs_oldest_waiting_seconds{queue="platform.sweep",${role}}`)).toBe(0);
    expect(sample(text, `divan_jobs_queue_collect{${role}}`)).toBe(1);
    expect(sample(text, `divan_websockets{${role}}`)).toBe(0);
    expect(text).toContain('divan_process_cpu_user_seconds_total');
    expect(text).toContain('divan_nodejs_eventloop_lag_seconds');
    if (t.database === 'postgres')
      expect(sample(text, `divan_db_pool_connections{pool="primary",state="total",${role}}`)).toBeGreaterThan(0);
    else expect(text).not.toContain('divan_db_pool_connections');
  });

  it('on its own listener with METRICS_PORT, and then not on the main port', async () => {
    const port = await freePort();
    const t = await createTestApp({ metrics: { port }, processRole: 'worker' });
    opened.push(t);
    expect((await t.get('/metrics', { token: TOKEN })).statusCode).toBe(404);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(sample(text, 'divan_jobs_queue_depth{queue="platform.sweep",state="waiting",role="worker"}')).toBe(0);
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  });

  it('is configured by METRICS_PORT or METRICS_TOKEN, a bad value stopping the start with its name', () => {
    const base = { DATA_DIR: '/tmp/divan-metrics', APP_SECRET: 'x'.repeat(32) };
    expect(loadConfig(base).metrics).toBeUndefined();
    expect(loadConfig({ ...base, METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, token: undefined });
    expect(loadConfig({ ...base, METRICS_TOKEN: TOKEN }).metrics).toEqual({ port: undefined, token: TOKEN });
    expect(() => loadConfig({ ...base, METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ ...base, METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ ...base, SHUTDOWN_DRAIN_MS: '10000' })).toThrow(/SHUTDOWN_DRAIN_MS/);
  });
});
