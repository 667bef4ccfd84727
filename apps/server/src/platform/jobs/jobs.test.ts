// Background jobs on the app's own database: PGlite on disk by default, PostgreSQL with TEST_DATABASE_URL.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { openDatabase, type Database } from '../db/database';
import { createPostgresDatabase } from '../../test/test-app';
import { openTestJobs, TEST_QUEUE, type EffectJob } from '../../test/job-worker';
import { migratedDataDir } from '../../test/pglite-data-dir';
import { CRON_TIME_ZONE, Jobs, jobId } from './jobs';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const migrationsFolder = join(serverDir, 'drizzle');
const pgAdmin = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A fresh database for one test: a PGlite data dir (migrated already: test/pglite-data-dir.ts), or a new PostgreSQL database. */
async function freshDatabase(): Promise<NodeJS.ProcessEnv> {
  if (pgAdmin) {
    const db = await createPostgresDatabase(pgAdmin);
    cleanups.push(db.drop);
    return { DATABASE_URL: db.url };
  }
  const dir = await migratedDataDir('divan-jobs-');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { DATA_DIR: dir };
}

const until = async (check: () => boolean | Promise<boolean>, ms = 20_000, what = 'condition') => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: not met in ${ms} ms`);
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rowsOf = async <T>(database: Database, q: ReturnType<typeof sql>) =>
  ((await database.db.execute(q)) as unknown as { rows: T[] }).rows;

describe('jobs in one process', () => {
  it('runs once, after start, a delayed job that fell due while the server was down', async () => {
    const env = await freshDatabase();
    const seen: string[] = [];
    const a = await openTestJobs(env, (k) => seen.push(k));
    const due = Date.now() + 1200;
    await a.jobs.send<EffectJob>(TEST_QUEUE, { key: 'late' }, { key: 'late', startAfter: new Date(due) });
    await a.jobs.stop();
    await a.database.close();
    await until(() => Date.now() > due, 5_000, 'the job due'); // due now, and nobody is running
    const b = await openTestJobs(env, (k) => seen.push(k));
    try {
      await until(() => seen.length === 1, 10_000, 'the delayed job ran');
      await pause(1500);
      expect(seen).toEqual(['late']);
    } finally {
      await b.jobs.stop();
      await b.database.close();
    }
  });

  it('never runs a job enqueued in a transaction that rolled back; runs the committed one; one job per key', async () => {
    const env = await freshDatabase();
    const seen: string[] = [];
    const { database, jobs } = await openTestJobs(env, (k) => seen.push(k));
    try {
      await expect(
        database.db.transaction(async (tx) => {
          await jobs.send<EffectJob>(TEST_QUEUE, { key: 'rolled-back' }, { tx, key: 'rolled-back' });
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      await database.db.transaction(async (tx) => {
        await jobs.send<EffectJob>(TEST_QUEUE, { key: 'committed' }, { tx, key: 'committed' });
      });
      expect(await jobs.send<EffectJob>(TEST_QUEUE, { key: 'committed' }, { key: 'committed' })).toBeNull();
      await until(() => seen.includes('committed'));
      await pause(1500);
      expect(seen).toEqual(['committed']);
      expect(await jobs.stateOf(TEST_QUEUE, 'rolled-back')).toBeNull();
      expect(await jobs.stateOf(TEST_QUEUE, 'committed')).toBe('completed');
    } finally {
      await jobs.stop();
      await database.close();
    }
  });

  it('lets a rescheduled job replace the pending one', async () => {
    const env = await freshDatabase();
    const seen: string[] = [];
    const { database, jobs } = await openTestJobs(env, (k) => seen.push(k));
    try {
      await jobs.send<EffectJob>(TEST_QUEUE, { key: 'moved' }, { key: 'moved', startAfter: new Date(Date.now() + 3_600_000) });
      expect(await jobs.stateOf(TEST_QUEUE, 'moved')).toBe('created');
      expect(await jobs.reschedule<EffectJob>(TEST_QUEUE, 'moved', { key: 'moved' }, { startAfter: new Date() })).toBe(
        jobId(TEST_QUEUE, 'moved'),
      );
      await until(() => seen.length === 1);
      expect(await jobs.stateOf(TEST_QUEUE, 'moved')).toBe('completed');
    } finally {
      await jobs.stop();
      await database.close();
    }
  });

  it('retries a failing job with its delay, and schedules crons in Europe/Madrid', async () => {
    const env = await freshDatabase();
    const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? undefined : env.DATA_DIR, migrationsFolder });
    const jobs = new Jobs(database, { maintenanceIntervalSeconds: 1 });
    const attempts: number[] = [];
    jobs.define<{ n: number }>({
      name: 'test.flaky',
      work: async (_d, job) => {
        attempts.push(job.retryCount);
        if (job.retryCount < 2) throw new Error('not yet');
      },
      retryLimit: 3,
      retryDelaySeconds: 1,
      retryBackoff: false,
      pollingIntervalSeconds: 0.5,
      cron: { expression: '0 3 * * *', data: { n: 1 } },
    });
    await jobs.start();
    try {
      await jobs.send('test.flaky', { n: 0 }, { key: 'flaky' });
      await until(async () => (await jobs.stateOf('test.flaky', 'flaky')) === 'completed', 15_000);
      expect(attempts).toEqual([0, 1, 2]);
      const schedules = await rowsOf<{ name: string; cron: string; timezone: string }>(
        database,
        sql`select name, cron, timezone from pgboss.schedule order by name`,
      );
      expect(schedules).toEqual([
        { name: 'platform.sweep', cron: '17 * * * *', timezone: CRON_TIME_ZONE },
        { name: 'test.flaky', cron: '0 3 * * *', timezone: 'Europe/Madrid' },
      ]);
    } finally {
      await jobs.stop();
      await database.close();
    }
  });
});

describe('a job handler that throws', () => {
  it('is logged at error level by its queue, fails its job, and the worker goes on to the next', async () => {
    const env = await freshDatabase();
    const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? undefined : env.DATA_DIR, migrationsFolder });
    const errors: { queue?: string; msg: string }[] = [];
    const log = {
      error: (obj: { queue?: string }, msg: string) => void errors.push({ queue: obj.queue, msg }),
      warn: () => {},
      info: () => {},
    };
    const jobs = new Jobs(database, { maintenanceIntervalSeconds: 1, log: log as unknown as FastifyBaseLogger });
    const done: number[] = [];
    jobs.define<{ n: number }>({
      name: 'test.throws',
      // Not async: a synchronous throw, of an Error or of anything at all.
      work: ((data: { n: number } | null) => {
        if (data!.n === 1) return (null as unknown as { event: string }).event;
        if (data!.n === 2) throw null;
        done.push(data!.n);
        return Promise.resolve();
      }) as unknown as (data: { n: number }) => Promise<void>,
      retryLimit: 0,
      pollingIntervalSeconds: 0.5,
    });
    await jobs.start();
    try {
      for (const n of [1, 2, 3]) await jobs.send('test.throws', { n }, { key: `n${n}` });
      const states = () => Promise.all(['n1', 'n2', 'n3'].map((k) => jobs.stateOf('test.throws', k)));
      await until(async () => (await states()).join() === 'failed,failed,completed', 15_000, 'both failed, the next one done');
      expect(done).toEqual([3]);
      expect(errors).toEqual([
        { queue: 'test.throws', msg: 'jobs: handler of test.throws failed' },
        { queue: 'test.throws', msg: 'jobs: handler of test.throws failed' },
      ]);
    } finally {
      await jobs.stop();
      await database.close();
    }
  });
});

type Worker = { child: ChildProcess; output: () => string; stop(): Promise<void>; kill(): Promise<void> };

/** The job-runner fixture (src/test/job-worker.ts) in its own process. */
async function startWorker(env: NodeJS.ProcessEnv): Promise<Worker> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/test/job-worker.ts'], {
    cwd: serverDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  await until(() => out.includes('ready') || child.exitCode !== null, 60_000, 'worker ready');
  if (!out.includes('ready')) throw new Error(`worker did not start:\n${out}`);
  const w: Worker = {
    child,
    output: () => out,
    stop: async () => void (child.kill('SIGTERM'), await exited),
    kill: async () => void (child.kill('SIGKILL'), await exited),
  };
  cleanups.push(() => (child.exitCode === null ? w.kill() : undefined));
  return w;
}
const effects = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []);

describe('jobs across server processes', () => {
  it('a process killed with SIGKILL mid-job causes no second side effect when the job is retried', async () => {
    const env = await freshDatabase();
    const file = join(mkdtempSync(join(tmpdir(), 'divan-effects-')), 'effects.txt');
    const a = await startWorker({ ...env, EFFECT_FILE: file, HOLD_MS: '60000', SEND_KEYS: 'k1' });
    await until(() => effects(file).length === 1, 15_000, 'the effect of the first attempt');
    await a.kill(); // mid-job: the job is active, its effect done, its completion never written
    const b = await startWorker({ ...env, EFFECT_FILE: file });
    await until(() => /ran k1 retry=1 claimed=false/.test(b.output()), 30_000, 'the retry after expiry');
    await pause(1000);
    expect(effects(file)).toEqual([`k1 ${a.child.pid}`]);
    await b.stop();
  }, 180_000);

  it('the job of a process killed with SIGKILL is handed back once its heartbeat is missed, long before its expiry', async () => {
    const env = await freshDatabase();
    const file = join(mkdtempSync(join(tmpdir(), 'divan-effects-')), 'effects.txt');
    // An expiry of 15 minutes (an invoice batch's): only the lost heartbeat can bring the job back within the test.
    const slow = { ...env, EFFECT_FILE: file, EXPIRE_SECONDS: '900', WORKER_LOST_SECONDS: '2' };
    const a = await startWorker({ ...slow, HOLD_MS: '60000', SEND_KEYS: 'k1' });
    await until(() => effects(file).length === 1, 15_000, 'the effect of the first attempt');
    await a.kill();
    const b = await startWorker(slow);
    await until(() => /ran k1 retry=1 claimed=false/.test(b.output()), 30_000, 'the retry after the lost heartbeat');
    expect(effects(file)).toEqual([`k1 ${a.child.pid}`]);
    await b.stop();
    // Nothing of either is left: a's run and heartbeat went when b handed the job back, b's own when it stopped.
    const probe = await openTestJobs(env, () => {}, { runWorkers: false });
    try {
      expect(await rowsOf(probe.database, sql`select job_id from job_runs`)).toEqual([]);
      expect(await rowsOf(probe.database, sql`select id from job_workers`)).toEqual([]);
      expect(await rowsOf(probe.database, sql`select state from pgboss.job where name = ${TEST_QUEUE} and state <> 'completed'`)).toEqual(
        [],
      );
    } finally {
      await probe.jobs.stop();
      await probe.database.close();
    }
  }, 180_000);

  it.skipIf(!pgAdmin)(
    'two processes on one PostgreSQL run each of 1,000 jobs exactly once, sharing them',
    async () => {
      const env = await freshDatabase();
      const file = join(mkdtempSync(join(tmpdir(), 'divan-effects-')), 'effects.txt');
      const workers = [await startWorker({ ...env, EFFECT_FILE: file }), await startWorker({ ...env, EFFECT_FILE: file })];
      const sender = await openTestJobs(env, () => {}, { runWorkers: false });
      try {
        const keys = Array.from({ length: 1000 }, (_, i) => `job-${i}`);
        for (let i = 0; i < keys.length; i += 100)
          await sender.database.db.transaction(async (tx) => {
            for (const key of keys.slice(i, i + 100)) await sender.jobs.send<EffectJob>(TEST_QUEUE, { key }, { tx, key });
          });
        await until(() => effects(file).length >= 1000, 120_000, '1,000 effects');
        await pause(1500);
        const lines = effects(file);
        expect(lines).toHaveLength(1000);
        expect(new Set(lines.map((l) => l.split(' ')[0])).size).toBe(1000);
        const byPid = new Map<string, number>();
        for (const l of lines) byPid.set(l.split(' ')[1]!, (byPid.get(l.split(' ')[1]!) ?? 0) + 1);
        // Both took part: SKIP LOCKED shares the queue instead of serialising it.
        expect([...byPid.keys()].sort()).toEqual(workers.map((w) => String(w.child.pid)).sort());
        const [{ n }] = (await rowsOf<{ n: string }>(
          sender.database,
          sql`select count(*) as n from pgboss.job where name = ${TEST_QUEUE} and state = 'completed'`,
        )) as [{ n: string }];
        expect(Number(n)).toBe(1000);
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
        await sender.jobs.stop();
        await sender.database.close();
      }
    },
    180_000,
  );
});
