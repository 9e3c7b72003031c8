/**
 * The server side of the trading benchmark, in its own process: the whole
 * Florin app (buildApp with production settings, as main.ts builds it) on
 * PostgreSQL or on embedded PGlite in a data folder (the default install),
 * listening on loopback. It owns the market: a source that never ticks on
 * its own, ticked here once a second at the price the benchmark last set,
 * so quotes stay fresh and the app's fill engine runs on every tick as in
 * production. Over IPC it makes customers (PGlite has no second process to
 * do it), drives the tick that crosses resting orders and times the fills,
 * and runs the ledger checker.
 *
 *   argv: postgres DATABASE_URL | pglite DATA_DIR
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { createDevMailbox } from '../../apps/server/src/adapters/mail/mailer.js';
import { createIdleSource } from '../../apps/server/src/adapters/prices/source.js';
import { createStorageFromConfig } from '../../apps/server/src/adapters/storage/index.js';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { openDatabase, type Database } from '../../apps/server/src/db/index.js';
import { migrateToLatest } from '../../apps/server/src/db/migrate.js';
import {
  checkLedger,
  createLedger,
  describeViolations,
  rollUpHouseBalances,
} from '../../apps/server/src/ledger/index.js';
import { createSessionStore } from '../../apps/server/src/modules/auth/sessions.js';
import { completeInvestorJourney } from '../../apps/server/src/modules/investor/investor.test-kit.js';
import {
  insertApprovedVerification,
  WEALTH_YES,
} from '../../apps/server/src/modules/compliance/customers.test-kit.js';
import { createMarketRepository } from '../../apps/server/src/modules/market/repository.js';
import { createMarketService } from '../../apps/server/src/modules/market/service.js';
import { tradingDomainCheck } from '../../apps/server/src/modules/trading/service.js';
import { tradingVolumeDomainCheck } from '../../apps/server/src/modules/trading-volume/service.js';
import { createSecretBox } from '../../apps/server/src/security/secret-box.js';
import {
  RESTING_MID,
  SYMBOL,
  type ChildMessage,
  type CrossResult,
  type Customer,
  type ParentMessage,
} from './protocol.js';
import { label, type CaptureMessage, type CapturedMessage, type Statement } from './capture.js';
import { seedTrades, timeVolumeReads } from './seed-trades.js';
import { systemClock } from '../../apps/server/src/clock.js';
import { MAIL_OUTBOX_INTERVAL_MS } from '../../apps/server/src/modules/notifications/outbox.js';
import { createNotifier } from '../../apps/server/src/modules/notifications/service.js';

// Every statement the app sends to PostgreSQL passes pg's Client#query (Kysely's dialect calls it):
// counted and timed here while the benchmark asks, to say how many round trips an execution or a fill
// makes and which of them the time goes to.
const statements = new Map<string, number>();
const waitedMs = new Map<string, number>();
let counting = false;
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value);
}
// While the benchmark captures, every statement in full, in order (capture.ts).
const captured: Statement[] = [];
let capturing = false;
const BENCH_MARK = '/* bench */';
type Query = (this: pg.Client, ...args: unknown[]) => unknown;
const query = Reflect.get(pg.Client.prototype, 'query') as Query;
(pg.Client.prototype as unknown as { query: Query }).query = function (this: pg.Client, ...args: unknown[]) {
  if (capturing) {
    const [first, second] = args;
    const config = typeof first === 'object' ? (first as { text?: unknown; values?: unknown } | null) : null;
    const text = typeof first === 'string' ? first : config?.text;
    // query(text, values) or, for a named (prepared) statement, query({ name, text, values }); as text, so
    // that the IPC's JSON carries them (a bigint would not pass).
    const given = Array.isArray(second) ? second : config?.values;
    const values = Array.isArray(given) ? (given as unknown[]).map(asText) : [];
    if (typeof text === 'string' && !text.trimStart().startsWith(BENCH_MARK)) captured.push({ text, values });
  }
  if (counting) {
    const [first] = args;
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text;
    // The benchmark's own polls are marked, and not counted.
    if (typeof text !== 'string' || !text.trimStart().startsWith(BENCH_MARK)) {
      const key = typeof text === 'string' ? label(text) : '?';
      statements.set(key, (statements.get(key) ?? 0) + 1);
      const sent = performance.now();
      const answer = query.apply(this, args);
      // Kysely's dialect calls query(text, parameters), which answers with a promise.
      if (answer instanceof Promise) {
        const waited = () => waitedMs.set(key, (waitedMs.get(key) ?? 0) + performance.now() - sent);
        answer.then(waited, waited);
      }
      return answer;
    }
  }
  return query.apply(this, args);
};

const [engine, target] = process.argv.slice(2);
if ((engine !== 'postgres' && engine !== 'pglite') || !target)
  throw new Error('usage: server.ts postgres DATABASE_URL | pglite DATA_DIR');

// main.ts's cadences: a tick a second (the market's staleness watch needs one within 10 s), the
// house roll-up every 5 s, and the mail sender's (MAIL_OUTBOX_INTERVAL_MS).
const TICK_MS = 1000;
const ROLLUP_MS = 5000;
// Polls every 10 ms for the first 2 s (the goal is 1 s), then every 100 ms so they cost PostgreSQL little;
// the app's filled_at stamps give the last fill to the millisecond either way.
const POLL_MS = 10;
const SLOW_POLL_MS = 100;
const SLOW_POLL_AFTER_MS = 2000;

// buildApp serves the web app's files from WEB_DIST; an empty stand-in will do.
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-bench-web-'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Florin</title>');

const config = loadConfig({
  NODE_ENV: 'production',
  // Production requires both; the bench mails into the dev mailbox below and serves loopback only.
  SMTP_URL: 'smtp://127.0.0.1:2525',
  PUBLIC_URL: 'https://florin.example',
  // Production requires the company's details for the footer and the legal pages.
  COMPANY_NAME: 'Florin Ltd',
  COMPANY_NUMBER: '12345678',
  COMPANY_ADDRESS: '1 Poultry, London EC2R 8EJ',
  COMPANY_FCA_REFERENCE: '987654',
  // The bench measures Florin itself, on the simulated market and chains and the local folder, allowed by name.
  ALLOW_STAND_INS: 'market,chain:BTC,chain:ETH,chain:LTC,chain:BCH,chain:XRP,uploads',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  ...(engine === 'postgres' ? { DATABASE_URL: target } : {}),
  ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  WEB_DIST: webDist,
  DATA_DIR: engine === 'pglite' ? target : webDist,
  // Every client of the benchmark comes from 127.0.0.1.
  RATE_LIMIT_PER_MINUTE: '100000000',
});
const database: Database = await openDatabase(
  engine === 'postgres'
    ? { engine: 'postgres', url: target, poolSize: config.DATABASE_POOL_SIZE }
    : { engine: 'pglite', dataDir: config.dataDir },
);
await migrateToLatest(database.db);
// The benchmark's own queries (making customers, polling for fills) on PostgreSQL go through a
// connection of their own, not the app's pool; PGlite has one connection for everyone.
const own: Database =
  engine === 'postgres' ? await openDatabase({ engine: 'postgres', url: target, poolSize: 2 }) : database;
const version = (await sql<{ version: string }>`SELECT version()`.execute(own.db)).rows[0]?.version ?? engine;

const ledger = createLedger();
const market = createMarketService({
  repository: createMarketRepository(database.db),
  source: createIdleSource(),
  onError: (error) => console.error('market data failed', error),
});
const app = await buildApp({
  config,
  database,
  ledger,
  mailer: createDevMailbox(database.db),
  secretBox: createSecretBox(randomBytes(32)),
  market,
  priceFeed: market,
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });

let mid = RESTING_MID;
await market.drive(SYMBOL, mid);
market.start();
// The tick and roll-up in flight, which the stop waits for before the database closes.
let driving: Promise<unknown> = Promise.resolve();
let rolling: Promise<unknown> = Promise.resolve();
const ticker = setInterval(() => {
  driving = market.drive(SYMBOL, mid).catch((error: unknown) => console.error('tick failed', error));
}, TICK_MS);
// The leader's mail job: trades and fills leave their mail to the outbox's sender (decisions 134 and 136).
const mailSender = createNotifier({ db: database.db, mailer: createDevMailbox(database.db), log: app.log });
let mailing: Promise<unknown> = Promise.resolve();
const mailJob = setInterval(() => {
  mailing = mailSender.deliverPending().catch((error: unknown) => console.error('mail not sent', error));
}, MAIL_OUTBOX_INTERVAL_MS);
const rollup = setInterval(() => {
  rolling = rollUpHouseBalances(database.db).catch((error: unknown) =>
    console.error('house roll-up failed', error),
  );
}, ROLLUP_MS);

// The documents of the customers it makes, where the app keeps uploads.
const storage = createStorageFromConfig(config);
let customersMade = 0;

/** Live customers on a platform, funded by a bank deposit, each with a session as a log-in leaves it. */
async function makeCustomers(count: number, platform: 1 | 2, gbpPence: bigint, label: string) {
  const sessions = createSessionStore(own.db, systemClock);
  const customers: Customer[] = [];
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, index) => {
      customersMade += 1;
      const unique = `${label}${customersMade}`.toUpperCase();
      return {
        user_identification: `FB${unique}`,
        first_name: 'Bench',
        last_name: `Trader ${customersMade}`,
        email: `bench.${unique.toLowerCase()}.${start + index}@example.com`,
        password_hash: 'not-used-by-the-benchmark',
        email_verified_at: new Date(),
        referral_code: `B${unique}`,
        status: 1,
        live_since: new Date(),
        platform,
      };
    });
    const inserted = await own.db.insertInto('users').values(rows).returning('id').execute();
    for (const { id } of inserted) {
      const userId = Number(id);
      await insertApprovedVerification(own.db, storage, userId);
      // Each customer trades far more than £15,000 a year, so answered Yes with their source of wealth: one who
      // answered No is asked for it once the year's trades pass £15,000 (spec 000 §9), and buys nothing until then.
      await own.db.updateTable('kyc_answers').set(WEALTH_YES).where('user_id', '=', userId).execute();
      await completeInvestorJourney(own.db, userId);
      await ledger.postJournal(own.db, {
        idempotencyKey: `bench:fund:${userId}`,
        kind: 'fiat_deposit',
        postings: [
          { account: { asset: 'GBP', kind: 'bank' }, amount: -gbpPence },
          { account: { asset: 'GBP', kind: 'available', ownerUserId: String(userId) }, amount: gbpPence },
        ],
      });
      const session = await sessions.create(userId, { ip: '127.0.0.1', userAgent: 'florin-bench' });
      customers.push({ id: userId, token: session.token, csrf: session.csrfToken });
    }
  }
  // Statistics as autovacuum would have them after the customers joined over time, so no plan is made
  // (and cached by a pooled connection) for the near-empty tables of a moment ago.
  await sql`ANALYZE`.execute(own.db);
  return customers;
}

async function fillCounts() {
  const row = await sql<{ filled: number; open: number }>`
    SELECT count(*) FILTER (WHERE status = 'filled')::int AS filled,
           count(*) FILTER (WHERE status = 'open')::int AS open
    FROM orders`.execute(own.db);
  return row.rows[0] ?? { filled: 0, open: 0 };
}

/** The resting BTC/GBP buys still open: read from the partial index of open orders, so a poll costs little. */
async function openBuys(): Promise<number> {
  const row = await sql<{ open: number }>`
    /* bench */ SELECT count(*)::int AS open FROM orders
    WHERE status = 'open' AND asset = 'BTC' AND fiat = 'GBP' AND side = 'buy'`.execute(own.db);
  return row.rows[0]?.open ?? 0;
}

/**
 * One tick to `to`: the app's market publishes it and the app's fill engine (subscribed as
 * app.ts subscribes it) sweeps the orders it crosses. The clock runs from the tick until a poll
 * finds them all filled; filled_at, stamped by the app just before each fill's commit, says when
 * the first and last went through.
 */
async function cross(to: string, expected: number, timeoutMs: number): Promise<CrossResult> {
  await sql`ANALYZE`.execute(own.db);
  const before = await fillCounts();
  const openBefore = await openBuys();
  const wall0 = Date.now();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  mid = to;
  await market.drive(SYMBOL, to);
  const tickMs = performance.now() - started;
  let polls = 0;
  let timedOut = false;
  for (;;) {
    const open = await openBuys();
    polls += 1;
    if (openBefore - open >= expected) break;
    if (performance.now() - started > timeoutMs) {
      timedOut = true;
      break;
    }
    const wait = performance.now() - started < SLOW_POLL_AFTER_MS ? POLL_MS : SLOW_POLL_MS;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const allCommittedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const counts = await fillCounts();
  const stamps = await sql<{ first: Date | null; last: Date | null }>`
    SELECT min(filled_at) AS first, max(filled_at) AS last FROM orders
    WHERE status = 'filled' AND filled_at >= ${new Date(wall0 - 1)}`.execute(own.db);
  const stamp = stamps.rows[0];
  const since = (at: Date | string | null | undefined) => (at ? new Date(at).getTime() - wall0 : Number.NaN);
  return {
    tickMs,
    allCommittedMs,
    firstFillMs: since(stamp?.first),
    lastFillMs: since(stamp?.last),
    filled: counts.filled - before.filled,
    stillOpen: counts.open,
    polls,
    appCpuSeconds: (cpu.user + cpu.system) / 1e6,
    timedOut,
  };
}

async function check() {
  const started = performance.now();
  await rollUpHouseBalances(own.db);
  const result = await checkLedger(own.db, [tradingDomainCheck, tradingVolumeDomainCheck]);
  const counts = await sql<Record<string, number>>`
    SELECT (SELECT count(*) FROM journals)::int AS journals, (SELECT count(*) FROM trades)::int AS trades,
      (SELECT count(*) FROM trade_quotes)::int AS quotes, (SELECT count(*) FROM orders)::int AS orders,
      (SELECT count(*) FROM users)::int AS customers`.execute(own.db);
  return {
    ok: result.ok,
    violations: describeViolations(result),
    seconds: (performance.now() - started) / 1000,
    counts: counts.rows[0] ?? {},
  };
}

const send = (message: ChildMessage | CapturedMessage) => process.send?.(message);

process.on('message', (message: ParentMessage | CaptureMessage) => {
  const handle = async () => {
    if (message.type === 'capture') {
      if (message.on) captured.length = 0;
      capturing = message.on;
      send({ type: 'captured', statements: message.on ? [] : captured.splice(0) });
    } else if (message.type === 'customers') {
      const started = performance.now();
      const customers = await makeCustomers(
        message.count,
        message.platform,
        BigInt(message.gbpPence),
        message.label,
      );
      send({ type: 'customers', customers, seconds: (performance.now() - started) / 1000 });
    } else if (message.type === 'cross') {
      send({ type: 'crossed', result: await cross(message.mid, message.expected, message.timeoutMs) });
    } else if (message.type === 'count') {
      if (message.on) {
        statements.clear();
        waitedMs.clear();
      }
      counting = message.on;
      send({
        type: 'counted',
        statements: [...statements].sort((a, b) => b[1] - a[1]),
        waitedMs: [...waitedMs].sort((a, b) => b[1] - a[1]),
      });
    } else if (message.type === 'check') {
      send({ type: 'checked', ...(await check()) });
    } else if (message.type === 'seed-trades') {
      const seeded = await seedTrades(own.db, message.userId, message.count, (done) =>
        console.log(`  seeded ${done.toLocaleString('en-GB')} trades`),
      );
      const reads = [
        await timeVolumeReads(own.db, message.userId),
        await timeVolumeReads(own.db, message.compareWith),
      ];
      send({ type: 'seeded', seeded, reads });
    } else {
      clearInterval(ticker);
      clearInterval(rollup);
      clearInterval(mailJob);
      await Promise.all([driving, rolling, mailing]);
      // The app's own close lets the fill sweep in flight commit.
      await app.close();
      if (own !== database) await own.close();
      await database.close();
      fs.rmSync(webDist, { recursive: true, force: true });
      process.exit(0);
    }
  };
  handle().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});
send({ type: 'listening', url: address, pid: process.pid, engine, version });
