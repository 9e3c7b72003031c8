import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { brotliCompressSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createDevMailbox, type Mailer } from '../adapters/mail/mailer.js';
import { buildApp, type AppDeps } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import type { Database } from '../db/index.js';
import { createLedger, type Ledger } from '../ledger/index.js';
import { createSecretBox } from '../security/secret-box.js';
import { testClock } from './clock.js';
import { createTestDatabase } from './database.js';

/** What a browser sends on a state-changing request: the CSRF cookie and the same value as a header. */
export const CSRF = { cookie: 'csrf_token=test-csrf-token', 'x-csrf-token': 'test-csrf-token' } as const;

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  ledger: Ledger;
  config: Config;
  close: () => Promise<void>;
};

/** What the fake build's hashed asset says; the web build's own assets are larger. */
export const FAKE_ASSET_SOURCE = `console.log(${JSON.stringify('florin '.repeat(300))})`;

/** The fake build's prerendered /home. */
export const FAKE_PRERENDERED_HOME =
  '<!doctype html><title>Florin</title><div id="root"><h1>Florin</h1></div>';

/** The fake build's prerendered / (the login page), kept as prerendered/index.html. */
export const FAKE_PRERENDERED_ROOT =
  '<!doctype html><title>Log in · Florin</title><div id="root"><h1>Log in</h1></div>';

/** A built web app stand-in: an index.html, prerendered pages and one hashed asset, with the brotli copies the web build writes. */
export function writeFakeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Florin</title><div id="root"></div>');
  // A page the build prerendered (apps/web/src/prerender.tsx), with the brotli copy the build writes beside it.
  fs.mkdirSync(path.join(dir, 'prerendered'));
  fs.writeFileSync(path.join(dir, 'prerendered', 'home.html'), FAKE_PRERENDERED_HOME);
  fs.writeFileSync(path.join(dir, 'prerendered', 'home.html.br'), brotliCompressSync(FAKE_PRERENDERED_HOME));
  fs.writeFileSync(path.join(dir, 'prerendered', 'index.html'), FAKE_PRERENDERED_ROOT);
  fs.writeFileSync(path.join(dir, 'assets', 'index-3f9a1c.js'), FAKE_ASSET_SOURCE);
  fs.writeFileSync(path.join(dir, 'assets', 'index-3f9a1c.js.br'), brotliCompressSync(FAKE_ASSET_SOURCE));
  return dir;
}

/** The whole server on a fresh test database, driven with app.inject() (no network), on the file's test clock. */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    mailer?: Mailer;
    extend?: (app: FastifyInstance, deps: AppDeps) => void;
    /** Builds the app's market on the test database (a source the test drives by hand). */
    market?: (database: Database) => AppDeps['market'];
    /** A database of the test's own (PostgreSQL whatever the run tests), closed with the app. */
    database?: Database;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST: writeFakeWebDist(),
    ...options.env,
  });
  const ledger = createLedger();
  const deps: AppDeps = {
    config,
    database,
    ledger,
    mailer: options.mailer ?? createDevMailbox(database.db),
    secretBox: createSecretBox(randomBytes(32)),
    market: options.market?.(database),
    clock: testClock,
  };
  const app = await buildApp(deps);
  options.extend?.(app, deps);
  await app.ready();
  return {
    app,
    database,
    ledger,
    config,
    close: async () => {
      await app.close();
      await database.close();
      fs.rmSync(config.WEB_DIST, { recursive: true, force: true });
    },
  };
}
