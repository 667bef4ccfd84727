import { DEFAULT_TIME_ZONE } from '@divan/core';
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/database';
import { sqlExecutor, type SqlExecutor } from '../db/sql-executor';
import { loadPgBoss } from './load-pg-boss';
import { currentRequestId, requestContext } from '../request-context';

/** Where a job's data carries the id of the request that enqueued it (taken off before its handler sees the data). */
export const REQUEST_ID_KEY = '_requestId';

export const JOBS_SCHEMA = 'pgboss';
/** Crons are written in the practice's time: "every night at 03:00" is 03:00 in Madrid, summer and winter. */
export const CRON_TIME_ZONE = DEFAULT_TIME_ZONE;

export type JobContext = { id: string; name: string; retryCount: number };

export type QueueDefinition<T> = {
  name: string;
  work: (data: T, job: JobContext) => Promise<void>;
  /** Retries after a failure (default 5): the first after `retryDelaySeconds` (default 30), doubling with backoff. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** A job active longer than this lost its process (or hangs): it fails and is retried (default 60). */
  expireInSeconds?: number;
  /** How often an idle worker asks for work (default 2 s); `wake` and sends from this process do not wait for it. */
  pollingIntervalSeconds?: number;
  /** Also enqueued on this cron, read in Europe/Madrid. */
  cron?: { expression: string; data: T };
};

export type SendOptions = {
  /** Enqueue inside this transaction: its rollback drops the job. */
  tx?: DbOrTx;
  /** Business key: the job id is derived from it, so sending the same key twice enqueues one job. */
  key?: string;
  startAfter?: Date;
};

export type JobsOptions = {
  log?: FastifyBaseLogger;
  /** False: this process enqueues but runs no job (a web-only process beside worker processes). */
  runWorkers?: boolean;
  /** How often expired jobs are failed for retry, and old ones archived (default 30 s). */
  maintenanceIntervalSeconds?: number;
  /** Jobs fetched per poll; each still runs alone, one after another (default 5). */
  batchSize?: number;
  /** `stop`: how long running jobs may take to finish before they are handed back (default 10 s). */
  stopTimeoutMs?: number;
  /**
   * A worker process silent this long (no heartbeat: killed, its machine gone) has lost its running jobs:
   * another worker hands them back for their retry (default 45 s), long before their queue's expiry.
   */
  workerLostSeconds?: number;
};

export type JobStats = { statements: number; busyMs: number; since: number };

export type QueueStats = { queue: string; waiting: number; active: number; scheduled: number; oldestWaitingSeconds: number };

type Queue = QueueDefinition<unknown> & {
  abort?: () => void;
  woken?: boolean;
  running?: Promise<void>;
  /** The job its handler runs now, and whether `stop` handed it back (its handler's end is then not reported). */
  current?: { id: string; handedBack?: boolean };
};

/**
 * Background work on pg-boss 10 (the Node 20 line) in the application's own database: on PostgreSQL
 * through the app's pool, on PGlite through its one connection. pg-boss gives the schema, delayed
 * jobs, retries with backoff, expiry of jobs whose process died, SKIP LOCKED claiming across
 * processes, and crons; the worker loop is ours: per queue, one job at a time, each completed or
 * failed on its own, polling slowly when idle and at once when this process enqueues.
 * Delivery is at least once: a handler with a side effect claims its key first (`claim`).
 */
export class Jobs {
  private boss: PgBoss | undefined;
  private readonly queues = new Map<string, Queue>();
  private readonly sweeps = new Map<string, () => Promise<number>>();
  private readonly executor: SqlExecutor;
  private stats_: JobStats = { statements: 0, busyMs: 0, since: Date.now() };
  private stopping = false;
  private stopped: Promise<void> | undefined;
  private started = false;
  /** This process as a worker (job_workers): its heartbeat and its reaping of lost workers' jobs. */
  readonly workerId = randomUUID();
  private liveness: NodeJS.Timeout[] = [];

  constructor(
    private readonly database: Database,
    private readonly opts: JobsOptions = {},
  ) {
    const raw = sqlExecutor(database.db);
    // Every statement pg-boss and the workers send, counted: the idle cost is measured (bench/).
    this.executor = {
      executeSql: async (text, values) => {
        const t0 = performance.now();
        try {
          return await raw.executeSql(text, values);
        } finally {
          this.stats_.statements++;
          this.stats_.busyMs += performance.now() - t0;
        }
      },
    };
  }

  /** Declares a queue and its handler; call before `start`. */
  define<T>(def: QueueDefinition<T>) {
    if (this.started) throw new Error(`queue ${def.name} defined after start`);
    this.queues.set(def.name, def as Queue);
  }

  /**
   * A bounded clean-up run by the hourly sweep job: it deletes at most a batch and returns how many
   * rows it handled (a full batch runs it again at once, up to a limit).
   */
  sweep(name: string, fn: () => Promise<number>) {
    this.sweeps.set(name, fn);
  }

  async start() {
    if (this.started) return;
    this.define({
      name: 'platform.sweep',
      work: () => this.runSweeps(),
      retryLimit: 1,
      expireInSeconds: 300,
      pollingIntervalSeconds: 30,
      cron: { expression: '17 * * * *', data: {} },
    });
    this.started = true;
    const PgBossClass = await loadPgBoss(this.database.kind);
    const boss = new PgBossClass({
      db: this.executor,
      schema: JOBS_SCHEMA,
      migrate: true,
      supervise: this.opts.runWorkers !== false,
      schedule: this.opts.runWorkers !== false,
      maintenanceIntervalSeconds: this.opts.maintenanceIntervalSeconds ?? 30,
      // Cron bookkeeping: every 30 s is enough for hourly and daily crons.
      cronMonitorIntervalSeconds: 30,
      cronWorkerIntervalSeconds: 15,
      clockMonitorIntervalMinutes: 10,
    } as PgBoss.ConstructorOptions);
    boss.on('error', (err: Error) => this.opts.log?.error({ err }, 'jobs: pg-boss error'));
    await boss.start();
    this.boss = boss;
    for (const q of this.queues.values()) {
      const options = {
        retryLimit: q.retryLimit ?? 5,
        retryDelay: q.retryDelaySeconds ?? 30,
        retryBackoff: q.retryBackoff ?? true,
        expireInSeconds: q.expireInSeconds ?? 60,
      };
      // Created once (pg-boss's create_queue is PL/pgSQL: calling it at every start would load the PL/pgSQL
      // runtime into PGlite's memory for nothing); kept in step with the code when the options change.
      const existing = await boss.getQueue(q.name);
      if (!existing) await boss.createQueue(q.name, { name: q.name, ...options });
      else if ((Object.keys(options) as (keyof typeof options)[]).some((k) => existing[k] !== options[k]))
        await boss.updateQueue(q.name, { name: q.name, ...options });
    }
    const crons = [...this.queues.values()].filter((q) => q.cron);
    for (const q of crons) await boss.schedule(q.name, q.cron!.expression, q.cron!.data as object, { tz: CRON_TIME_ZONE });
    for (const s of await boss.getSchedules()) if (!this.queues.get(s.name)?.cron) await boss.unschedule(s.name);
    if (this.opts.runWorkers !== false) this.startWorkers();
  }

  /** Starts this process's workers (`start` does, unless `runWorkers` is false). */
  startWorkers() {
    this.ready();
    if (!this.liveness.length) this.startLiveness();
    for (const q of this.queues.values()) q.running ??= this.loop(q);
  }

  /**
   * The heartbeat of this worker (every third of `workerLostSeconds`) and, every half of it, the jobs of
   * workers silent for longer handed back: failed for their retry as a job past its expiry would be
   * (the side effects they claimed stay claimed). A process that stops cleanly hands its own back.
   */
  private startLiveness() {
    const lostSeconds = this.opts.workerLostSeconds ?? 45;
    const beat = () =>
      this.executor
        .executeSql('INSERT INTO job_workers (id, heartbeat_at) VALUES ($1, now()) ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()', [
          this.workerId,
        ])
        .catch((err: unknown) => this.opts.log?.error({ err }, 'jobs: heartbeat failed'));
    const reap = () =>
      this.reapLostWorkers(lostSeconds).catch((err: unknown) => this.opts.log?.error({ err }, 'jobs: reaping lost workers failed'));
    void beat();
    this.liveness = [setInterval(beat, (lostSeconds * 1000) / 3), setInterval(reap, (lostSeconds * 1000) / 2)];
    for (const t of this.liveness) t.unref();
  }

  /** Hands back the running jobs of workers whose heartbeat is older than `lostSeconds`; answers how many. */
  async reapLostWorkers(lostSeconds = this.opts.workerLostSeconds ?? 45): Promise<number> {
    const boss = this.ready();
    // Taken in one statement: two reapers never hand the same run back twice.
    const res = (await this.executor.executeSql(
      `DELETE FROM job_runs r WHERE r.worker_id <> $1 AND NOT EXISTS (
         SELECT 1 FROM job_workers w WHERE w.id = r.worker_id AND w.heartbeat_at > now() - make_interval(secs => $2))
       RETURNING r.job_id, r.queue, r.worker_id`,
      [this.workerId, lostSeconds],
    )) as { rows: { job_id: string; queue: string; worker_id: string }[] };
    let handedBack = 0;
    for (const run of res.rows) {
      // Only a job still running: one already retried, or done, is not failed again.
      const active = (await this.executor.executeSql(
        `SELECT 1 FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND id = $2::uuid AND state = 'active'`,
        [run.queue, run.job_id],
      )) as { rows: unknown[] };
      if (!active.rows.length) continue;
      this.opts.log?.warn({ queue: run.queue, job: run.job_id, worker: run.worker_id }, 'jobs: its worker is lost, handed back');
      await boss.fail(run.queue, run.job_id, { message: 'worker lost: handed back' });
      handedBack++;
    }
    await this.executor.executeSql(
      `DELETE FROM job_workers w WHERE w.heartbeat_at < now() - make_interval(secs => $1)
         AND NOT EXISTS (SELECT 1 FROM job_runs r WHERE r.worker_id = w.id)`,
      [lostSeconds],
    );
    return handedBack;
  }

  /**
   * Takes no new job; each loop finishes the job it holds within `timeoutMs` (default `stopTimeoutMs`),
   * and one still running then is handed back (failed for its retry by another process: its side effect
   * claims a unique row, so a second run does not repeat it). A job cut off by a kill is retried after
   * its expiry. Called twice (SIGTERM, then the app's close), the second waits for the first.
   */
  stop(opts: { timeoutMs?: number } = {}): Promise<void> {
    if (!this.boss) return Promise.resolve();
    return (this.stopped ??= this.stopNow(this.boss, opts.timeoutMs ?? this.opts.stopTimeoutMs ?? 10_000));
  }

  private async stopNow(boss: PgBoss, timeoutMs: number) {
    this.stopping = true;
    for (const q of this.queues.values()) this.wakeQueue(q);
    const loops = Promise.all([...this.queues.values()].map((q) => q.running));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      loops.then(() => false),
      new Promise<boolean>((res) => (timer = setTimeout(() => res(true), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (timedOut)
      for (const q of this.queues.values()) {
        const job = q.current;
        if (!job || job.handedBack) continue;
        job.handedBack = true;
        this.opts.log?.warn({ queue: q.name, job: job.id, timeoutMs }, 'jobs: still running at shutdown, handed back');
        await this.executor
          .executeSql('DELETE FROM job_runs WHERE job_id = $1 AND worker_id = $2', [job.id, this.workerId])
          .catch(() => undefined);
        await boss
          .fail(q.name, job.id, { message: 'server stopping: handed back' })
          .catch((err: unknown) => this.opts.log?.error({ err, queue: q.name, job: job.id }, 'jobs: could not hand the job back'));
      }
    await boss.stop({ graceful: true, timeout: 1000, close: false, wait: true });
    for (const t of this.liveness) clearInterval(t);
    if (this.liveness.length)
      await this.executor
        .executeSql('DELETE FROM job_workers WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM job_runs WHERE worker_id = $1)', [this.workerId])
        .catch(() => undefined);
  }

  /** Enqueues a job; with `key`, the same key twice is one job (the second send returns null). */
  async send<T>(name: string, data: T, opts: SendOptions = {}): Promise<string | null> {
    const boss = this.ready();
    if (!this.queues.has(name)) throw new Error(`unknown queue ${name}`);
    const requestId = currentRequestId();
    const payload = requestId && isPlainObject(data) ? { ...data, [REQUEST_ID_KEY]: requestId } : data;
    const id = await boss.send(
      name,
      payload as object,
      {
        ...(opts.key ? { id: jobId(name, opts.key) } : {}),
        ...(opts.startAfter ? { startAfter: opts.startAfter } : {}),
        ...(opts.tx ? { db: sqlExecutor(opts.tx) } : {}),
      } as PgBoss.SendOptions,
    );
    this.wakeSoon(name);
    return id;
  }

  /**
   * Replaces the job of `key` (a reminder moved with its session): a pending or finished one is deleted
   * and the new one enqueued, in `tx` when given. A job running right now is left alone (returns null).
   */
  async reschedule<T>(name: string, key: string, data: T, opts: Omit<SendOptions, 'key'> = {}): Promise<string | null> {
    await this.cancel(name, key, opts.tx);
    return this.send(name, data, { ...opts, key });
  }

  /** Drops the pending job of `key`; a running one finishes. */
  async cancel(name: string, key: string, tx?: DbOrTx) {
    this.ready();
    const exec = tx ? sqlExecutor(tx) : this.executor;
    await exec.executeSql(`DELETE FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND id = $2 AND state <> 'active'`, [name, jobId(name, key)]);
  }

  /** Claims a side effect's business key; false when it was claimed before (the effect happened, or is happening). */
  async claim(db: DbOrTx, key: string): Promise<boolean> {
    const res = (await db.execute(sql`INSERT INTO job_claims (key) VALUES (${key}) ON CONFLICT DO NOTHING RETURNING key`)) as unknown as {
      rows: unknown[];
    };
    return res.rows.length === 1;
  }

  /** The state of a keyed job, for tests and status screens. */
  async stateOf(name: string, key: string): Promise<string | null> {
    const res = (await this.executor.executeSql(`SELECT state FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND id = $2`, [
      name,
      jobId(name, key),
    ])) as { rows: { state: string }[] };
    return res.rows[0]?.state ?? null;
  }

  /**
   * Each declared queue now (metrics): jobs due and waiting for a worker, running, scheduled for later (a
   * reminder's), and how long the oldest waiting one has been due. One grouped read of pg-boss's table.
   */
  async queueStats(): Promise<QueueStats[]> {
    this.ready();
    const res = (await this.executor.executeSql(
      `SELECT name,
        count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())::int AS waiting,
        count(*) FILTER (WHERE state = 'active')::int AS active,
        count(*) FILTER (WHERE state IN ('created', 'retry') AND start_after > now())::int AS scheduled,
        COALESCE(extract(epoch FROM now() - min(start_after) FILTER (WHERE state IN ('created', 'retry') AND start_after <= now())), 0)::float8 AS oldest
      FROM ${JOBS_SCHEMA}.job WHERE state IN ('created', 'retry', 'active') GROUP BY name`,
      [],
    )) as { rows: { name: string; waiting: number; active: number; scheduled: number; oldest: number }[] };
    const byName = new Map(res.rows.map((r) => [r.name, r]));
    return [...this.queues.keys()].sort().map((queue) => {
      const r = byName.get(queue);
      return {
        queue,
        waiting: r?.waiting ?? 0,
        active: r?.active ?? 0,
        scheduled: r?.scheduled ?? 0,
        oldestWaitingSeconds: r?.oldest ?? 0,
      };
    });
  }

  /** Statements sent by the job runner, and the time the database spent on them. */
  stats(): JobStats {
    return { ...this.stats_ };
  }

  resetStats() {
    this.stats_ = { statements: 0, busyMs: 0, since: Date.now() };
  }

  /** This process's worker of `name` looks for work now instead of at its next poll. */
  wake(name: string) {
    const q = this.queues.get(name);
    if (q) this.wakeQueue(q);
  }

  private wakeQueue(q: Queue) {
    q.woken = true;
    q.abort?.();
  }

  /**
   * A send inside a transaction is visible once it commits: on PGlite the worker's fetch waits behind the
   * transaction anyway; on PostgreSQL a second look shortly after catches the commit.
   */
  private wakeSoon(name: string) {
    setImmediate(() => this.wake(name));
    setTimeout(() => this.wake(name), 250).unref();
  }

  private ready(): PgBoss {
    if (!this.boss) throw new Error('jobs not started');
    return this.boss;
  }

  private async loop(q: Queue) {
    const boss = this.ready();
    const batchSize = this.opts.batchSize ?? 5;
    const interval = (q.pollingIntervalSeconds ?? 2) * 1000;
    while (!this.stopping) {
      let fetched = 0;
      q.woken = false;
      try {
        const jobs = (await boss.fetch(q.name, { batchSize, includeMetadata: true })) as PgBoss.JobWithMetadata[] | null;
        fetched = jobs?.length ?? 0;
        for (const job of jobs ?? []) {
          // Stopping mid-batch: the jobs not started go back at once instead of waiting for expiry.
          if (this.stopping) {
            await boss.fail(q.name, job.id, { message: 'server stopping' });
            continue;
          }
          await this.runOne(boss, q, job);
        }
      } catch (err) {
        this.opts.log?.error({ err, queue: q.name }, 'jobs: fetch failed');
      }
      if (fetched < batchSize && !this.stopping) await this.idle(q, interval);
    }
  }

  private async runOne(boss: PgBoss, q: Queue, job: PgBoss.JobWithMetadata) {
    const current: NonNullable<Queue['current']> = (q.current = { id: job.id });
    let data = job.data;
    let requestId: string | undefined;
    if (isPlainObject(data) && REQUEST_ID_KEY in data) {
      const { [REQUEST_ID_KEY]: rid, ...rest } = data;
      requestId = typeof rid === 'string' ? rid : undefined;
      data = rest;
    }
    try {
      await this.executor.executeSql(
        'INSERT INTO job_runs (job_id, queue, worker_id) VALUES ($1, $2, $3) ON CONFLICT (job_id) DO UPDATE SET worker_id = $3, started_at = now()',
        [job.id, q.name, this.workerId],
      );
      // Every line the handler logs carries the job, its queue and the request that enqueued it (request-context.ts).
      await requestContext.run({ requestId, job: job.id, queue: q.name }, () =>
        q.work(data, { id: job.id, name: q.name, retryCount: job.retryCount }),
      );
      if (!current.handedBack) await boss.complete(q.name, job.id);
    } catch (err) {
      if (current.handedBack) return;
      // The handler's failure (a throw, sync or not, of anything) ends here: logged, the job failed for its retry, the worker on to the next.
      this.opts.log?.error({ err, queue: q.name, job: job.id, retry: job.retryCount, requestId }, `jobs: handler of ${q.name} failed`);
      const message = err instanceof Error ? err.message : String(err);
      await boss
        .fail(q.name, job.id, { message })
        .catch((e: unknown) => this.opts.log?.error({ err: e, queue: q.name, job: job.id }, 'jobs: could not mark the job failed'));
    } finally {
      q.current = undefined;
      await this.executor
        .executeSql('DELETE FROM job_runs WHERE job_id = $1 AND worker_id = $2', [job.id, this.workerId])
        .catch((err: unknown) => this.opts.log?.error({ err, queue: q.name, job: job.id }, 'jobs: could not clear the run'));
    }
  }

  /** Waits for the next poll, unless a wake came in meanwhile (a send while the last job ran). */
  private async idle(q: Queue, ms: number) {
    if (q.woken) return;
    const ac = new AbortController();
    q.abort = () => ac.abort();
    await sleep(ms, undefined, { signal: ac.signal }).catch(() => {});
    q.abort = undefined;
  }

  /** Runs every sweep now (the hourly job does; so may an operator or a test). */
  async runSweeps() {
    for (const [name, fn] of this.sweeps) {
      let total = 0;
      // A full batch may mean more is left: up to 20 batches a run, so one sweep never holds the database long.
      for (let i = 0; i < 20 && !this.stopping; i++) {
        const n = await fn();
        total += n;
        if (n === 0) break;
        await sleep(0);
      }
      if (total) this.opts.log?.info({ sweep: name, rows: total }, 'jobs: sweep');
    }
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** A UUID derived from the queue and business key (name-based, like UUIDv5): the same key is the same job. */
export function jobId(name: string, key: string): string {
  const h = createHash('sha256').update(`${name}\n${key}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}
