import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './test-env.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const isCi = Boolean(process.env.CI);

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

// This file is evaluated by the runner and again by every worker. The runner picks the port and the data
// folder and puts them in process.env, which the workers inherit, so all of them talk to the one server.
const port = (process.env.E2E_PORT ??= String(await findFreePort()));
let dataDir = process.env.E2E_DATA_DIR;
if (!dataDir) {
  // A fresh folder is a fresh install. The server is stopped (SIGTERM, below) before the runner exits.
  const created = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-e2e-'));
  process.env.E2E_DATA_DIR = dataDir = created;
  process.on('exit', () => fs.rmSync(created, { recursive: true, force: true }));
}
const baseURL = `http://127.0.0.1:${port}`;

/**
 * Stories that change what every customer of the shared server sees (the fee schedule and a coin's
 * terms, the message of the day, the simulated market's price, which the trade stories drive). They
 * run one at a time once the others are done, so no story meets another's settings or prices halfway.
 */
const GLOBAL_SETTINGS_STORIES = [
  'admin/trading-settings.spec.ts',
  'dashboard/message-of-the-day.spec.ts',
  'trade/trading.spec.ts',
  'trade/csv-records.spec.ts',
  'dashboard/balance-parts.spec.ts',
];

const chromium = {
  ...devices['Desktop Chrome'],
  viewport: { width: 1280, height: 800 },
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    // Without the background-networking flags Chromium floods a closed network with connection attempts.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
};

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  forbidOnly: isCi,
  retries: 0,
  // Two, also in CI: each story has customers and staff of its own (fixtures.ts, admin-fixtures.ts).
  workers: 2,
  // No story should take longer on a two-core machine; the heavier ones set more, and say why.
  timeout: 60_000,
  // Two browsers, the server and its database share two cores: a screen can take more than the default 5 s.
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    contextOptions: { reducedMotion: 'reduce' },
    locale: 'en-GB',
    timezoneId: 'Europe/London',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: GLOBAL_SETTINGS_STORIES,
      use: chromium,
      // Runs after this project whether its stories passed or not (a dependency would be skipped on a failure).
      teardown: 'global settings',
    },
    { name: 'global settings', testMatch: GLOBAL_SETTINGS_STORIES, use: chromium, workers: 1 },
  ],
  webServer: {
    command: 'npx tsx apps/server/src/main.ts',
    cwd: repoRoot,
    url: `${baseURL}/api/v1/health`,
    reuseExistingServer: false,
    // A fresh install migrates the embedded database; on a busy two-core machine that took 170 s.
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // Let the server close its embedded database before the data folder is removed.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: {
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // Always the embedded database, whatever the shell running the tests has set.
      DATABASE_URL: '',
      PUBLIC_URL: baseURL,
      // Each test sends its own X-Forwarded-For (fixtures.ts), so per-IP abuse limits count per test rather
      // than for the whole run, as they would for separate customers.
      TRUST_PROXY: '127.0.0.1',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      // The contact page shows its phone line only when one is configured (e2e/site/contact.spec.ts).
      SUPPORT_PHONE: '+44 20 7946 0000',
      // A private build (E2E_WEB_DIST) lets several people drive their own screens from one checkout.
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
    },
  },
});
