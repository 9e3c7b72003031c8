import { configDefaults, defineConfig } from 'vitest/config';

// The two-instance test (three processes and nginx) runs alone in `npm run test:scale`
// (FLORIN_TEST_SCALE=1): beside the other files it starves their timing-sensitive tests of CPU.
const isScaleRun = process.env.FLORIN_TEST_SCALE === '1';
const serverExclude = isScaleRun ? [] : ['apps/server/src/scale/**'];

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
          exclude: [...configDefaults.exclude, ...serverExclude],
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
