import { defineConfig } from 'vitest/config';

/** Unit and API integration tests of every workspace except e2e (run by `npm run test:e2e`). */
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/web/src/**/*.test.{ts,tsx}', 'tools/**/*.test.js'],
    // Generous: CI's two cores run three files at once, some of them spawning server processes; a test that
    // waits on the machine rather than on its own code must not fail for it (timings never belong in tests).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait (on the database, jobs, timers, child processes) more than they compute: three at
    // once on CI's two cores, instead of vitest's default of one (cores - 1). Files share their worker's
    // module cache (no per-file isolation): the server's module graph is loaded once per worker, not per
    // file (~3 s each). Every file builds its own app and database, so nothing else is shared.
    maxWorkers: 3,
    isolate: false,
    reporters: ['default'],
  },
});
