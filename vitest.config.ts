import { defineConfig } from 'vitest/config';

/** Unit and API integration tests of every workspace except e2e (run by `npm run test:e2e`). */
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/web/src/**/*.test.{ts,tsx}', 'tools/**/*.test.js'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
