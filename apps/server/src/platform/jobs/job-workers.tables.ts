import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The processes running jobs, each with its last heartbeat, and the job each is running now: a job whose
 * process stopped beating (killed, its machine gone) is handed back for its retry by another worker after
 * JOBS_WORKER_LOST_SECONDS, instead of waiting out its queue's expiry (15 minutes for an invoice batch).
 * Platform bookkeeping of pg-boss's jobs, not a workspace's data.
 */
export const jobWorkers = pgTable('job_workers', {
  id: text('id').primaryKey(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
});

export const jobRuns = pgTable('job_runs', {
  jobId: text('job_id').primaryKey(),
  queue: text('queue').notNull(),
  workerId: text('worker_id').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});
