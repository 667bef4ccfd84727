import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';
import client from 'prom-client';
import type { Database } from '../db/database';
import type { Jobs, QueueStats } from '../jobs/jobs';

export type MetricsSources = {
  database: Database;
  jobs: Jobs;
  /** Open websockets (the chat's and the video room's) in this process. */
  sockets: () => number;
  role: 'web' | 'worker' | 'all';
};

/**
 * Prometheus metrics of one process (prom-client, its own registry: tests build several apps in one
 * process). Requests by route pattern (never the raw URL: one series per route, not per patient id),
 * their latency, the job queues, the sockets, the database pools, and Node's defaults (event loop, heap,
 * CPU, handles). What is read from elsewhere (queues, sockets, pools) is read at scrape time.
 */
export class Metrics {
  readonly registry = new client.Registry();
  private readonly requests: client.Counter<'method' | 'route' | 'status'>;
  private readonly latency: client.Histogram<'method' | 'route'>;

  constructor(s: MetricsSources) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ role: s.role });
    client.collectDefaultMetrics({ register: this.registry, prefix: 'divan_' });
    this.requests = new client.Counter({
      name: 'divan_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.latency = new client.Histogram({
      name: 'divan_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    // One read of the queues per scrape, shared by the three gauges (a registry collects its metrics at once).
    let reading: Promise<QueueStats[] | null> | undefined;
    const queues = () =>
      (reading ??= s.jobs
        .queueStats()
        .catch(() => null)
        .finally(() => (reading = undefined)));
    new client.Gauge({
      name: 'divan_jobs_queue_depth',
      help: 'Jobs per queue: waiting (due, no worker yet), active (running), scheduled (due later)',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        this.reset();
        for (const q of (await queues()) ?? []) {
          this.set({ queue: q.queue, state: 'waiting' }, q.waiting);
          this.set({ queue: q.queue, state: 'active' }, q.active);
          this.set({ queue: q.queue, state: 'scheduled' }, q.scheduled);
        }
      },
    });
    new client.Gauge({
      name: 'divan_jobs_oldest_waiting_seconds',
      help: 'How long the oldest due job of each queue has waited for a worker (0: none waiting)',
      labelNames: ['queue'],
      registers,
      async collect() {
        this.reset();
        for (const q of (await queues()) ?? []) this.set({ queue: q.queue }, q.oldestWaitingSeconds);
      },
    });
    new client.Gauge({
      name: 'divan_jobs_queue_collect',
      help: '1 when the job queues could be read at this scrape, else 0',
      registers,
      async collect() {
        this.set((await queues()) ? 1 : 0);
      },
    });
    new client.Gauge({
      name: 'divan_websockets',
      help: 'Open websockets (chat and notifications, video room) in this process',
      registers,
      collect() {
        this.set(s.sockets());
      },
    });
    if (s.database.pools) {
      const pools = s.database.pools;
      new client.Gauge({
        name: 'divan_db_pool_connections',
        help: 'PostgreSQL pool connections by pool (primary, replica) and state (total, idle, waiting: requests queued for one)',
        labelNames: ['pool', 'state'],
        registers,
        collect() {
          for (const p of pools()) {
            this.set({ pool: p.pool, state: 'total' }, p.total);
            this.set({ pool: p.pool, state: 'idle' }, p.idle);
            this.set({ pool: p.pool, state: 'waiting' }, p.waiting);
          }
        },
      });
    }
  }

  /** One answered request: its route pattern (`/api/v1/workspaces/:workspaceId/patients`), or `unmatched` (a 404 outside every route). */
  observe(method: string, route: string | undefined, status: number, seconds: number) {
    const r = route ?? 'unmatched';
    this.requests.inc({ method, route: r, status: String(status) });
    this.latency.observe({ method, route: r }, seconds);
  }

  text() {
    return this.registry.metrics();
  }
}

/** Counts every request (before the routes: the hook then applies to each). */
export function countRequests(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onResponse', async (req, reply) => {
    metrics.observe(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
}

/**
 * Serves GET /metrics: on its own listener when METRICS_PORT is set (not on the main port then), else on
 * the main port behind `Authorization: Bearer <METRICS_TOKEN>` (without it: 404, as if it did not exist).
 * Returns the separate listener, started, or undefined.
 */
export async function serveMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  config: { port?: number; token?: string; host: string },
): Promise<Server | undefined> {
  if (config.port !== undefined) {
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') return void res.writeHead(404).end();
      metrics.text().then(
        (body) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body),
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((res, rej) => {
      server.once('error', rej);
      server.listen(config.port, config.host, () => res());
    });
    app.addHook('onClose', () => new Promise<void>((res) => server.close(() => res())));
    return server;
  }
  const token = config.token;
  if (!token) return undefined;
  const expected = createHash('sha256').update(`Bearer ${token}`).digest();
  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
    const given = createHash('sha256')
      .update(req.headers.authorization ?? '')
      .digest();
    // Without the token the address does not exist: the same 404 as any unknown one.
    if (!timingSafeEqual(given, expected)) throw new AppError('not_found');
    return reply.type(metrics.registry.contentType).send(await metrics.text());
  });
  return undefined;
}
