import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import {
  MODULES_ON_PGLITE,
  PGLITE_ALSO,
  PGLITE_ONLY,
  SERVER_TESTS,
  serverGlob,
  unmatchedEntries,
} from './apps/server/src/test/database-suites.ts';

/**
 * Unit and API integration tests of every workspace except e2e (run by `npm run test:e2e`).
 * The server's database suite runs once: on PGlite without TEST_DATABASE_URL; with it (CI), each file
 * once, on PostgreSQL or (PGlite's own files and each module's main API test) on PGlite, a few on both
 * (apps/server/src/test/database-suites.ts).
 */
const postgres = process.env.TEST_DATABASE_URL;
const ci = process.env.CI === 'true';
// Under CI a skipped suite is a failure: the database suite must run on PostgreSQL there.
if (ci && !postgres) throw new Error('CI=true: set TEST_DATABASE_URL (the database suite runs on PostgreSQL in CI)');
const unmatched = unmatchedEntries(fileURLToPath(new URL('.', import.meta.url)));
if (unmatched.length) {
  const message = `apps/server/src/test/database-suites.ts names test files that do not exist (moved or renamed?): ${unmatched.join(', ')}`;
  if (ci) throw new Error(message);
  console.warn(message);
}

const server = (name: string, include: string[], extra: TestProjectInlineConfiguration['test'] = {}): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, ...extra },
});
const projects: TestProjectInlineConfiguration[] = [
  { extends: true, test: { name: 'core', include: ['packages/*/src/**/*.test.ts'] } },
  {
    extends: true,
    // The web's `@/` (apps/web/vite.config.ts), for its component tests (`*.test.tsx`, each on jsdom by its own comment).
    resolve: { alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) } },
    test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'] },
  },
  { extends: true, test: { name: 'tools', include: ['tools/**/*.test.js'] } },
  ...(postgres
    ? [
        server('server-postgres', [SERVER_TESTS], {
          exclude: [...configDefaults.exclude, ...[...PGLITE_ONLY, ...MODULES_ON_PGLITE].map(serverGlob)],
        }),
        // Emptied, not removed: every check reads it as "not on PostgreSQL".
        server('server-pglite', [...PGLITE_ONLY, ...MODULES_ON_PGLITE, ...PGLITE_ALSO].map(serverGlob), { env: { TEST_DATABASE_URL: '' } }),
      ]
    : [server('server', [SERVER_TESTS])]),
];

/**
 * `TEST_REPORT=<file>.json`: also vitest's JSON report, and each file's whole time (import, hooks, tests) in
 * <file>.files.json; `node scripts/slowest-tests.mjs <file>.json` lists the slowest files.
 */
const report = process.env.TEST_REPORT;

export default defineConfig({
  test: {
    projects,
    // Generous: CI's two cores run three files at once, some of them spawning server processes; a test that
    // waits on the machine rather than on its own code must not fail for it (timings never belong in tests).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait (on the database, jobs, timers, child processes) more than they compute: three at
    // once on CI's two cores, instead of vitest's default of one (cores - 1). Four measured faster in a warm
    // checkout (381–412 s against 428 s) but slower in a fresh clone's CI run (497 s against 395 s: each
    // worker transforms the server's graph again), so three. Files share their worker's
    // module cache (no per-file isolation): the server's module graph is loaded once per worker, not per
    // file (~3 s each). Every file builds its own app and database, so nothing else is shared.
    maxWorkers: 3,
    isolate: false,
    reporters: report ? ['default', 'json', './scripts/file-times-reporter.mjs'] : ['default'],
    ...(report ? { outputFile: { json: report } } : {}),
  },
});
