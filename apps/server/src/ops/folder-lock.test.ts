import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createLocalStorage } from '../adapters/storage/index.js';
import { LOCK_FILE, type LockHolder } from '../db/folder-lock.js';
import { openDatabase } from '../db/index.js';
import { createLedger } from '../ledger/index.js';
import { insertApprovedVerification, insertCustomer } from '../modules/compliance/customers.test-kit.js';
import { completeInvestorJourney } from '../modules/investor/investor.test-kit.js';
import { hashPassword } from '../security/passwords.js';
import { createClient, CUSTOMER_PASSWORD, expectOk, signIn, type Client } from '../test/http-client.js';
import { fund } from '../test/ledger.js';
import { startMain, type MainProcess } from '../test/main-process.js';
import { freePort } from '../test/postgres-server.js';

/**
 * Issue 40, finding 1: one process on an embedded data folder. main.ts runs
 * in its own process on a PGlite folder while a customer trades; a second
 * server and `npm run ledger:check` on the same folder are refused with one
 * line, and every trade the server confirmed survives a SIGKILL and a
 * restart, which takes over the lock the killed server left behind. (Before,
 * both were let in, and the next crash lost confirmed trades.)
 */

const serverSrc = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-folder-lock-'));
const lockFile = path.join(dataDir, LOCK_FILE);
const env = {
  NODE_ENV: 'development',
  LOG_LEVEL: 'warn',
  SLOW_QUERY_MS: '600000',
  DATA_DIR: dataDir,
  ADMIN_PASSWORD: 'folder-lock-Admin-Password',
  TRUST_PROXY: '127.0.0.1',
  CHAIN_WATCH_INTERVAL_MS: '0',
};

let server: MainProcess;
let customer: Client;
/** The ids of the trades the server answered 200 for. */
const confirmed: string[] = [];

const children = new Set<ChildProcess>();

/**
 * Runs a script of ours (as `npm run …` would) until it exits. A server that
 * gets as far as running is stopped at once: it should have been refused.
 */
function runToExit(script: string, extraEnv: Record<string, string> = {}) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverSrc, script)], {
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Florin is running')) child.kill('SIGKILL');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('error', reject);
    child.on('exit', (code) => {
      children.delete(child);
      resolve({ code, output });
    });
  });
}

/**
 * A quote for 0.01 BTC. A server that has just started has no fresh price until its market's first
 * tick, and refuses quotes with PRICES_STALE until then (a second or so on a quiet machine).
 */
async function quoteBitcoin() {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await customer.post('/api/v1/quotes', { side: 'buy', coin_id: 'btc', quantity: '0.01' });
    if (answer.status !== 503 || !answer.text.includes('PRICES_STALE') || Date.now() > deadline)
      return expectOk(Promise.resolve(answer), 'quote');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function buyBitcoin(): Promise<void> {
  const quote = await quoteBitcoin();
  const order = await expectOk(
    customer.post('/api/v1/order', { quote_id: (quote.json as { data: { id: string } }).data.id }),
    'order',
  );
  confirmed.push((order.json as { data: { id: string } }).data.id);
}

const lockHolder = () => JSON.parse(fs.readFileSync(lockFile, 'utf8')) as LockHolder;

beforeAll(async () => {
  // A live, funded customer, written before the server starts: while it runs, nothing else may open the folder.
  const template = new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
  const database = await openDatabase({ engine: 'pglite', dataDir, template });
  const { id, email } = await insertCustomer(database.db);
  await database.db
    .updateTable('users')
    .set({ status: 1, live_since: new Date(), password_hash: await hashPassword(CUSTOMER_PASSWORD) })
    .where('id', '=', id)
    .execute();
  await insertApprovedVerification(database.db, createLocalStorage(path.join(dataDir, 'uploads')), id);
  await completeInvestorJourney(database.db, id);
  await fund(createLedger(), database.db, id, 'GBP', 10_000_000n);
  await database.close();

  server = await startMain({ port: await freePort(), env });
  customer = createClient(server.url, '10.40.1.1', new Set());
  await signIn(customer, email);
}, 180_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await server?.stop('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('refuses a second server and `ledger:check` on a running server’s folder, with one line saying what to do', async () => {
  await buyBitcoin();
  await buyBitcoin();
  const [second, check] = await Promise.all([
    runToExit('main.ts', { PORT: String(await freePort()) }),
    runToExit('ledger/check-cli.ts'),
  ]);
  const line = new RegExp(
    `^${dataDir} is in use by process ${server.child.pid} \\(main\\.ts, since [\\d: -]+ UTC\\): stop it first; ` +
      'to check a running server’s ledger, call GET /api/admin/ledger-check as compliance or finance staff\\.\n$',
  );
  expect(second.code, second.output).toBe(1);
  expect(second.output).toMatch(line);
  expect(check.code, check.output).toBe(1);
  expect(check.output).toMatch(line);

  // The server went on as if nothing had happened.
  await buyBitcoin();
  expect(lockHolder().pid).toBe(server.child.pid);
}, 120_000);

it('keeps every confirmed trade through a SIGKILL, and the next start takes over the lock the killed server left', async () => {
  await buyBitcoin();
  const killed = server.child.pid;
  await server.stop('SIGKILL');
  expect(lockHolder().pid).toBe(killed);

  // It checks the ledger before it serves, and refuses to serve if it fails.
  server = await startMain({ port: server.port, env });
  expect(lockHolder().pid).toBe(server.child.pid);
  const health = await expectOk(customer.get('/api/v1/health'), 'health');
  expect(health.json).toMatchObject({ status: 'ok', ledger: { ok: true, violations: 0 } });

  const balances = await expectOk(customer.get('/api/v1/balance'), 'balances');
  const btc = (balances.json as { data: [{ balances: Record<string, { amount: string }> }] }).data[0].balances
    .btc;
  expect(btc?.amount).toBe((0.01 * confirmed.length).toFixed(8));
  const buys = await expectOk(customer.get('/api/v1/user/fiat-crypto-transactions?filter=buy'), 'history');
  expect((buys.json as { data: unknown[] }).data).toHaveLength(confirmed.length);

  // A clean stop closes the database, then gives the folder up.
  expect(await server.stop('SIGTERM')).toBe(0);
  expect(fs.existsSync(lockFile)).toBe(false);
}, 120_000);
