import { defineConfig } from 'vitest/config';

/**
 * End-to-end: one real server (global setup) and one Chromium per file, one file at a time by default (each file
 * signs up its own accounts and reads only its own mails, by address; nothing depends on another file or
 * on their order), so E2E_WORKERS=2 may run two at once.
 */
/** Files at once: one by default — on the 2-core CI machine two at a time took 799 s against ~560 s one after another (one server and two Chromiums share the cores); E2E_WORKERS=2 on a bigger machine. */
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 1) || 1);

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
