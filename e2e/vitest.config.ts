import { defineConfig } from 'vitest/config';

/**
 * End-to-end: one real server (global setup) and one Chromium per file, two files at a time (each file
 * signs up its own accounts and reads only its own mails, by address; nothing depends on another file or
 * on their order). E2E_WORKERS=1 runs them one after another.
 */
/** Files at once: two on the 2-core machine CI runs on; E2E_WORKERS overrides it. */
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 2);

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: workers > 1,
    maxWorkers: workers,
    pool: 'forks',
    reporters: ['default'],
  },
});
