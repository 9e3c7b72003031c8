import { defineConfig } from 'vitest/config';

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
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
