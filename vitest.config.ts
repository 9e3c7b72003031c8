import { configDefaults, defineConfig } from 'vitest/config';

// The backup drill and the two-instance test start their own PostgreSQL servers whichever engine the
// API suite uses, so the PostgreSQL pass (FLORIN_TEST_DB=postgres) leaves them to the first pass.
const ownServers = process.env.FLORIN_TEST_DB === 'postgres' ? ['apps/server/src/{ops,scale}/**'] : [];

export default defineConfig({
  test: {
    // Two cores: more workers only queue behind PGlite's WASM start-up.
    maxWorkers: 2,
    projects: [
      {
        test: { name: 'unit', include: ['packages/*/src/**/*.test.ts'] },
      },
      {
        test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'] },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ownServers],
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
