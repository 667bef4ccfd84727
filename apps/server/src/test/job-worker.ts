/**
 * A job-runner process for the job tests: the real database and Jobs, with one test queue whose handler
 * has an outside side effect (a line appended to EFFECT_FILE), claimed first as every such handler must.
 *   DATABASE_URL or DATA_DIR   the database (PostgreSQL, or PGlite on disk)
 *   EFFECT_FILE                where effects are appended: "<key> <pid>"
 *   HOLD_MS                    how long a handler keeps its job after the effect (to be killed mid-job)
 *   SEND_KEYS                  keys to enqueue once started (comma-separated)
 *   EXPIRE_SECONDS             the test queue's expiry (default 2)
 *   WORKER_LOST_SECONDS        when a silent worker's running jobs are handed back (Jobs' default when unset)
 * Prints "ready" once its workers run; SIGTERM stops it cleanly.
 */
import { appendFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../platform/db/database';
import { Jobs } from '../platform/jobs/jobs';

export const TEST_QUEUE = 'test.effect';
export type EffectJob = { key: string };

const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export async function openTestJobs(
  env: NodeJS.ProcessEnv,
  onEffect: (key: string) => void,
  opts: { holdMs?: number; runWorkers?: boolean; log?: (line: string) => void } = {},
) {
  const database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATABASE_URL ? undefined : env.DATA_DIR,
    migrationsFolder,
    poolSize: 4,
  });
  const jobs = new Jobs(database, {
    maintenanceIntervalSeconds: 1,
    batchSize: 10,
    runWorkers: opts.runWorkers,
    workerLostSeconds: env.WORKER_LOST_SECONDS ? Number(env.WORKER_LOST_SECONDS) : undefined,
  });
  jobs.define<EffectJob>({
    name: TEST_QUEUE,
    work: async ({ key }, job) => {
      const claimed = await jobs.claim(database.db, `effect:${key}`);
      opts.log?.(`ran ${key} retry=${job.retryCount} claimed=${claimed}`);
      if (!claimed) return;
      onEffect(key);
      if (opts.holdMs) await new Promise((r) => setTimeout(r, opts.holdMs));
    },
    expireInSeconds: Number(env.EXPIRE_SECONDS ?? 2),
    retryLimit: 3,
    retryDelaySeconds: 1,
    retryBackoff: false,
    pollingIntervalSeconds: 0.5,
  });
  await jobs.start();
  return { database, jobs };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const file = process.env.EFFECT_FILE!;
  const { database, jobs } = await openTestJobs(process.env, (key) => appendFileSync(file, `${key} ${process.pid}\n`), {
    holdMs: Number(process.env.HOLD_MS ?? 0),
    log: (line) => console.log(line),
  });
  for (const key of (process.env.SEND_KEYS ?? '').split(',').filter(Boolean)) await jobs.send<EffectJob>(TEST_QUEUE, { key }, { key });
  process.on('SIGTERM', () => {
    void jobs
      .stop()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
  console.log('ready');
}
