import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/database';

export type Readiness = {
  ready: boolean;
  /** Why not: the first failing check (draining first: a stopping process is not ready whatever its database says). */
  reason?: 'draining' | 'database_unreachable' | 'migrations_pending';
};

/** How long the readiness probe waits for the database before calling it unreachable. */
const PROBE_TIMEOUT_MS = 2000;

/**
 * The process as a load balancer sees it (GET /health/ready): ready while its database answers, holds
 * every migration this build knows, and no SIGTERM came; draining from the signal on (main.ts), so the
 * balancer stops sending before the listener closes.
 */
export class Lifecycle {
  private draining_ = false;
  private lastMigration: number | undefined | null = null;

  constructor(
    private readonly db: Db,
    private readonly migrationsFolder?: string,
  ) {}

  get draining() {
    return this.draining_;
  }

  /** From now on readiness answers 503 (SIGTERM). */
  drain() {
    this.draining_ = true;
  }

  async readiness(): Promise<Readiness> {
    if (this.draining_) return { ready: false, reason: 'draining' };
    let applied: number | null;
    try {
      applied = await withTimeout(this.appliedMigration(), PROBE_TIMEOUT_MS);
    } catch {
      return { ready: false, reason: 'database_unreachable' };
    }
    // Checked again: the probe may have waited out a SIGTERM.
    if (this.draining_) return { ready: false, reason: 'draining' };
    const expected = this.expectedMigration();
    if (expected !== undefined && (applied === null || applied < expected)) return { ready: false, reason: 'migrations_pending' };
    return { ready: true };
  }

  /** The newest migration the database holds (drizzle's journal time, `created_at`), null when none. */
  private async appliedMigration(): Promise<number | null> {
    const res = (await this.db.execute(sql`SELECT max(created_at) AS last FROM drizzle.__drizzle_migrations`)) as unknown as {
      rows: { last: string | number | null }[];
    };
    const last = res.rows[0]?.last;
    return last === null || last === undefined ? null : Number(last);
  }

  /** The newest migration of this build (drizzle/meta/_journal.json), read once; undefined without a folder. */
  private expectedMigration(): number | undefined {
    if (this.lastMigration !== null) return this.lastMigration;
    if (!this.migrationsFolder) return (this.lastMigration = undefined);
    const journal = JSON.parse(readFileSync(join(this.migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: { when: number }[];
    };
    return (this.lastMigration = Math.max(...journal.entries.map((e) => e.when)));
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, rej) => {
      timer = setTimeout(() => rej(new Error('timeout')), ms);
    }),
  ]);
}
