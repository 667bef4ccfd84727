import type { Db } from '../../platform/db/database';
import type { Jobs, QueueDefinition } from '../../platform/jobs/jobs';
import { anyStale, MONTHS_PER_REFRESH, refreshSome, staleWorkspaces } from './session-month-stats.queries';

/** Writes that touched a month are refreshed after this quiet time at most (one job per workspace and window). */
export const REFRESH_WINDOW_SECONDS = 20;

const REFRESH_QUEUE = 'sessions.month-stats';

/**
 * The per-month summary of sessions (issue 28, docs/decisions/0027-statistics-summary.md): refreshed by a
 * debounced job after writes and by a cron that catches whatever no event announced (a restore, a
 * migration). Exactness does not depend on it: a stale month is read from the rows.
 */
export class SessionMonthStats {
  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    // Real time: the job waits on the database's clock, not a test's moved one.
    private readonly clock: () => Date = () => new Date(),
  ) {}

  readonly queue: QueueDefinition<{ workspaceId?: string }> = {
    name: REFRESH_QUEUE,
    work: async ({ workspaceId }) => {
      if (workspaceId) await this.refresh(workspaceId);
      else await this.refreshAll();
    },
    retryLimit: 3,
    expireInSeconds: 300,
    cron: { expression: '*/10 * * * *', data: {} },
  };

  /** A workspace's sessions changed: its refresh runs at the end of the current window (once per window). */
  async changed(workspaceId: string) {
    const w = REFRESH_WINDOW_SECONDS * 1000;
    const at = Math.ceil((this.clock().getTime() + 1) / w) * w;
    await this.jobs.send(REFRESH_QUEUE, { workspaceId }, { key: `${workspaceId}:${at}`, startAfter: new Date(at) });
  }

  /** At start: one refresh of every stale month, in the background, when there is any. */
  async catchUp() {
    if (await anyStale(this.db)) await this.jobs.send(REFRESH_QUEUE, {});
  }

  /** Every workspace with a stale month. */
  async refreshAll(): Promise<number> {
    let months = 0;
    for (const id of await staleWorkspaces(this.db)) months += await this.refresh(id);
    return months;
  }

  /** Recomputes a workspace's stale months from its sessions; returns how many it refreshed. */
  async refresh(workspaceId: string): Promise<number> {
    let done = 0;
    for (;;) {
      const n = await this.db.transaction((tx) => refreshSome(tx, workspaceId));
      done += n;
      if (n < MONTHS_PER_REFRESH) return done;
    }
  }
}
