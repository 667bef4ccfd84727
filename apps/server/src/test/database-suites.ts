import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';

/**
 * Where the server's test files run (read by the root vitest.config.ts).
 *
 * Without TEST_DATABASE_URL (a machine without PostgreSQL): every file, on PGlite.
 * With it (CI), every file runs once, on the database it is about: on PostgreSQL — the stricter
 * database: real concurrency, locks, two processes on one database — except the files below, which
 * run on PGlite (TEST_DATABASE_URL emptied): what is PGlite's own, and each module's main API test, so
 * each module's SQL runs on the embedded database the product starts on. A few files run on both:
 * checks of PGlite's own behaviour beside PostgreSQL ones, and module tests with PostgreSQL-only parts.
 *
 * Entries are paths from apps/server/src or bare file names (matched in any folder), so a file moved
 * inside its module stays listed; an entry that matches no file fails the run under CI and warns otherwise.
 */

/** About PGlite alone, or skipped on PostgreSQL. */
export const PGLITE_ONLY = [
  // The embedded database's data dir: durability across kills, the lock, the backup / restore commands.
  'platform/db/durability.test.ts',
  'platform/db/data-dir-lock.test.ts',
  'platform/db/backup.test.ts',
  // On PGlite on disk, whatever TEST_DATABASE_URL says: no clinical text in its data files and WAL.
  'platform/crypto/at-rest.test.ts',
  // The server process's log pipe and `npm run demo`, which start on PGlite.
  'platform/log-pipe.test.ts',
  'demo/demo.test.ts',
];

/**
 * One per module (modules/<name>), its main API test: on PGlite only (they ran on both until CI's time
 * had to halve). Nothing in them is about concurrency or a second process: those files run on PostgreSQL.
 */
export const MODULES_ON_PGLITE = [
  'audit.test.ts',
  'auth.test.ts',
  'billing.test.ts',
  'booking.test.ts',
  'chat.test.ts',
  'companion-sessions.test.ts',
  'companion-invoices.test.ts',
  'consent-templates.test.ts',
  'documents.test.ts',
  'feedback.test.ts',
  'invoices.test.ts',
  'measures.test.ts',
  'meet.test.ts',
  'patient-accounts.test.ts',
  'patient-export.test.ts',
  'patient-import.test.ts',
  'patients.test.ts',
  'payments.test.ts',
  'tasks.test.ts',
  'users.test.ts',
  'workspaces.test.ts',
];

/** Run on both databases. */
export const PGLITE_ALSO = [
  // PGlite's own: jobs on its one connection and on disk, a first key use inside a transaction, the
  // outbox's bytes in its files, the installation marker following the database, events after a
  // commit on one connection, holds interleaving in one process, reminders across a restart on disk.
  'platform/jobs/jobs.test.ts',
  'platform/crypto/cipher.test.ts',
  'platform/mail/smtp.test.ts',
  'platform/storage/installation.test.ts',
  'platform/events/event-bus.test.ts',
  'booking-concurrency.test.ts',
  'reminders-processes.test.ts',
  // Module tests with parts only PostgreSQL can run (two processes on one database): the rest on PGlite too.
  'sessions.test.ts', // both auth/sessions.test.ts (revocation) and sessions/sessions.test.ts
  'invoice-numbering.test.ts',
  // The statistics' SQL (issue 28): the golden dataset on both databases.
  'analytics.test.ts',
  // …and its summary of months against the rows after random writes (triggers, numeric minutes, zones).
  'session-month-stats.test.ts',
  // …and the invoices' (issued by date, collected by the instant paid in Madrid, rectified, voided).
  'invoice-month-stats.test.ts',
  // The shard-ready migration's fill of the child tables, through their triggers (issue 31).
  'child-tables-workspace-migration.test.ts',
];

const SERVER_SRC = 'apps/server/src';
export const SERVER_TESTS = `${SERVER_SRC}/**/*.test.ts`;
/** A listed entry as an include glob from the repository's root. */
export const serverGlob = (entry: string) => `${SERVER_SRC}/**/${entry}`;

/** The entries of both lists that match no test file (`root`: the repository). */
export function unmatchedEntries(root: string): string[] {
  const files = (readdirSync(join(root, SERVER_SRC), { recursive: true, encoding: 'utf8' }) as string[]).map(
    (f) => `/${f.split(sep).join('/')}`,
  );
  return [...PGLITE_ONLY, ...MODULES_ON_PGLITE, ...PGLITE_ALSO].filter((entry) => !files.some((f) => f.endsWith(`/${entry}`)));
}
