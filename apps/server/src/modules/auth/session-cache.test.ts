import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { openDatabase, type Database } from '../../db/index.js';
import { createLedger } from '../../ledger/index.js';
import { createSecretBox } from '../../security/secret-box.js';
import { signedInStaff } from '../../test/admin.js';
import { writeFakeWebDist, type TestApp } from '../../test/app.js';
import { createBrowser, type Browser } from '../../test/browser.js';
import { testClock } from '../../test/clock.js';
import { createTestDatabase } from '../../test/database.js';
import { until } from '../../test/http-client.js';
import { createPostgresRelay, type PriceRelay } from '../realtime/relay.js';
import { authSteps } from './auth.test-kit.js';

/**
 * Decision 133: a session's row may be answered from a cache for a few seconds, but a sign-out is
 * refused at once. On PostgreSQL two instances share the database, each hearing the triggers'
 * NOTIFY through its own relay; on PGlite (one process) the one instance hears them in process.
 */

type Instance = { app: FastifyInstance; database: Database; relay?: PriceRelay; webDist: string };

let first: Instance;
let second: Instance;
let shared: Database & { url?: string };

async function startInstance(database: Database, url: string | undefined, key: Buffer): Promise<Instance> {
  const webDist = writeFakeWebDist();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST: webDist });
  const relay = url ? await createPostgresRelay({ url }) : undefined;
  const app = await buildApp({
    config,
    database,
    ledger: createLedger(),
    mailer: createDevMailbox(database.db),
    secretBox: createSecretBox(key),
    clock: testClock,
    priceRelay: relay,
  });
  await app.ready();
  return { app, database, relay, webDist };
}

beforeAll(async () => {
  const key = randomBytes(32);
  shared = await createTestDatabase();
  first = await startInstance(shared, shared.url, key);
  second = shared.url
    ? await startInstance(await openDatabase({ engine: 'postgres', url: shared.url }), shared.url, key)
    : first;
});

afterAll(async () => {
  for (const instance of second === first ? [first] : [second, first]) {
    await instance.app.close();
    await instance.relay?.close();
    fs.rmSync(instance.webDist, { recursive: true, force: true });
    if (instance !== first) await instance.database.close();
  }
  await shared.close();
});

const { signedInCustomer } = authSteps(() => ({ app: first.app, database: shared }) as TestApp);

/** The same cookies, sent to the other instance. */
function onSecond(browser: Browser): Browser {
  const other = createBrowser(second.app);
  for (const [name, value] of browser.cookies) other.cookies.set(name, value);
  return other;
}

/** The instances hear each other's NOTIFY within milliseconds; the cache keeps a row 5 seconds. */
const HEARD_WITHIN_MS = 1_000;

describe('sessions read through the cache', () => {
  it('refuses a signed-out session on the next request of the instance that signed it out', async () => {
    const { browser } = await signedInCustomer();
    const elsewhere = onSecond(browser);
    // Both instances have read the session, so both keep it.
    expect((await browser.get('/api/v1/user')).statusCode).toBe(200);
    expect((await elsewhere.get('/api/v1/user')).statusCode).toBe(200);
    const cookies = new Map(browser.cookies);

    expect((await browser.post('/api/v1/logout')).statusCode).toBe(200);
    // The browser dropped its cookie; a stolen copy of it is what must now be refused.
    const stolen = createBrowser(first.app);
    for (const [name, value] of cookies) stolen.cookies.set(name, value);
    expect((await stolen.get('/api/v1/user')).statusCode).toBe(401);
    const started = Date.now();
    await until('the other instance refuses it', async () => {
      const other = createBrowser(second.app);
      for (const [name, value] of cookies) other.cookies.set(name, value);
      return (await other.get('/api/v1/user')).statusCode === 401;
    });
    expect(Date.now() - started).toBeLessThan(HEARD_WITHIN_MS);
  });

  it('refuses the customer staff signed out, on every instance, without waiting for the cache', async () => {
    const { browser } = await signedInCustomer();
    const elsewhere = onSecond(browser);
    const me = (await browser.get('/api/v1/user')).json<{ data: { id: number } }>();
    expect((await elsewhere.get('/api/v1/user')).statusCode).toBe(200);

    // Staff end the sessions on the second instance; nothing on the first instance drops its copy but the NOTIFY.
    const compliance = await signedInStaff(second.app, shared.db, 'compliance');
    const signedOut = await compliance.browser.post(`/api/admin/customers/${me.data.id}/sign-out`, {
      reason: 'The customer reported a stolen phone.',
    });
    expect(signedOut.statusCode).toBe(200);
    const started = Date.now();
    await until('the first instance refuses it', async () => {
      return (await browser.get('/api/v1/user')).statusCode === 401;
    });
    expect(Date.now() - started).toBeLessThan(HEARD_WITHIN_MS);
    expect((await elsewhere.get('/api/v1/user')).statusCode).toBe(401);
  });

  it('still ends a cached session that goes idle or expires, by the clock', async () => {
    const { browser } = await signedInCustomer();
    expect((await browser.get('/api/v1/user')).statusCode).toBe(200);
    testClock.advance(31 * 60_000);
    expect((await browser.get('/api/v1/user')).statusCode).toBe(401);
  });
});
