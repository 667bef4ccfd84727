import type { Managed } from './servers';
import { sleep } from './util';

type JobStats = { statements: number; busyMs: number; since: number };

export type JobsIdle = { seconds: number; statements: number; statementsPerMinute: number; busyMs: number; connectionShare: number };

const stats = async (server: Managed) => {
  const res = await fetch(`${server.url}/dev/jobs`);
  if (!res.ok) throw new Error(`/dev/jobs answered ${res.status}`);
  return (await res.json()) as JobStats;
};

/**
 * What the job runner costs an idle server: the statements it sends (polls, maintenance, cron
 * bookkeeping) and the time the database spends on them, as a share of the window. On PGlite that
 * share is time the one connection is not free for requests.
 */
export async function measureJobsIdle(server: Managed, seconds: number): Promise<JobsIdle> {
  const a = await stats(server);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const b = await stats(server);
  const ms = performance.now() - t0;
  const statements = b.statements - a.statements;
  const busyMs = b.busyMs - a.busyMs;
  return { seconds: ms / 1000, statements, statementsPerMinute: (statements * 60_000) / ms, busyMs, connectionShare: busyMs / ms };
}
