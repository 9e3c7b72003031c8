import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDevMailbox } from '../adapters/mail/mailer.js';
import { createLocalStorage } from '../adapters/storage/index.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/index.js';
import { migrateToLatest } from '../db/migrate.js';
import { checkLedger, createLedger } from '../ledger/index.js';
import { filePart, multipart, pdf, png } from '../modules/kyc/kyc.test-kit.js';
import {
  liveCustomer,
  newIdempotencyKey,
  readyBankAccount,
  withdraw,
  type FiatCustomer,
} from '../modules/fiat/fiat.test-kit.js';
import { createSecretBox, loadMasterKey } from '../security/secret-box.js';
import { signedInStaff } from '../test/admin.js';
import { writeFakeWebDist, type TestApp } from '../test/app.js';
import { createBrowser, type Browser } from '../test/browser.js';
import { startPostgres, type PostgresServer } from '../test/postgres-server.js';
import { DOMAIN_CHECKS } from './domain-checks.js';
import { checkRestore } from './restore-check.js';
import { testClock } from '../test/clock.js';

/**
 * The backup/restore drill of docs/operations.md, run with the scripts the
 * operators run: a system with customers, money moved through the API and
 * uploaded documents is backed up (on PostgreSQL while it keeps serving,
 * on PGlite once stopped), restored into a fresh server or folder, and
 * must then pass the ledger check, show every customer the same balances
 * and hand out every document with the checksum it was stored with.
 *
 * It starts its own PostgreSQL servers whatever FLORIN_TEST_DB says: without
 * PostgreSQL installed it fails (startPostgres says what to install).
 */

const REPO_ROOT = path.resolve(fileURLToPath(import.meta.url), '../../../../..');
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function temporaryFolder(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `florin-drill-${prefix}-`));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function startServer(): Promise<PostgresServer> {
  const server = await startPostgres({ maxConnections: 40 });
  cleanups.push(() => server.stop());
  const admin = await openDatabase({ engine: 'postgres', url: server.url(), poolSize: 1 });
  await sql`CREATE DATABASE florin`.execute(admin.db);
  await admin.close();
  return server;
}

/** Florin as main.ts builds it, on the given database, with its data (uploads, secrets) in `dataDir`. */
async function startFlorin(database: Database, dataDir: string): Promise<TestApp> {
  await migrateToLatest(database.db);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST: writeFakeWebDist(),
    DATA_DIR: dataDir,
  });
  const ledger = createLedger();
  const app = await buildApp({
    config,
    database,
    ledger,
    mailer: createDevMailbox(database.db),
    secretBox: createSecretBox(
      loadMasterKey(database.engine === 'postgres' ? ENCRYPTION_KEY : undefined, dataDir),
    ),
    domainChecks: DOMAIN_CHECKS,
    clock: testClock,
  });
  await app.ready();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await app.close();
    await database.close();
    fs.rmSync(config.WEB_DIST, { recursive: true, force: true });
  };
  cleanups.push(close);
  return { app, database, ledger, config, close };
}

type ScriptRun = { code: number | null; output: string };

/** One of scripts/backup.sh and restore.sh, with only the variables an operator would set. */
function runScript(
  name: 'backup.sh' | 'restore.sh',
  folder: string,
  env: Record<string, string>,
): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [path.join(REPO_ROOT, 'scripts', name), folder], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

// ---- a system in use ----

async function driveMarket(t: TestApp, mid: string): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/dev/market/drive',
    payload: { symbol: 'BTC/GBP', mid },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** An instant buy: a quote, then the order that executes it. */
async function buyBitcoin(customer: FiatCustomer, quantity: string): Promise<void> {
  const quote = await customer.browser.post('/api/v1/quotes', { side: 'buy', coin_id: 'btc', quantity });
  expect(quote.statusCode, quote.body).toBe(200);
  const order = await customer.browser.post('/api/v1/order', {
    quote_id: quote.json<{ data: { id: string } }>().data.id,
  });
  expect(order.statusCode, order.body).toBe(200);
}

async function uploadDocument(
  browser: Browser,
  docType: 'passport' | 'proof_address',
  file: { bytes: Buffer; filename: string },
): Promise<void> {
  const form = multipart([{ name: 'doc_type', value: docType }, filePart(file.bytes, file.filename)]);
  const response = await browser.post('/api/v1/user/id-proof', form.payload, { headers: form.headers });
  expect(response.statusCode, response.body).toBe(200);
}

let bankTransactions = 0;

type Business = { customers: FiatCustomer[]; withdrawal: { key: string; id: string } };

/**
 * Customers as they arrive: a bank account, a bank transfer recorded by
 * finance staff (credited to the customer), an instant buy, a passport (PNG)
 * and a proof of address (PDF); the first also asks for a withdrawal, so
 * funds are held.
 */
async function runBusiness(t: TestApp, count: number): Promise<Business> {
  const finance = await signedInStaff(t.app, t.database.db, 'finance');
  await driveMarket(t, '20000');
  const customers: FiatCustomer[] = [];
  for (let index = 0; index < count; index += 1) {
    const customer = await liveCustomer(t);
    await readyBankAccount(t, customer);
    const deposit = await finance.browser.post('/api/admin/fiat/deposits', {
      currency: 'GBP',
      amount: `${1000 + index * 250}.00`,
      payer_name: 'MS G HOPPER',
      reference: customer.reference,
      bank_transaction_id: `DRILL-${Date.now()}-${(bankTransactions += 1)}`,
    });
    expect(deposit.statusCode, deposit.body).toBe(200);
    expect(deposit.json<{ data: { outcome: string } }>().data.outcome).toBe('credited');
    await buyBitcoin(customer, `0.0${index + 1}`);
    await uploadDocument(customer.browser, 'passport', { bytes: await png(), filename: 'passport.png' });
    await uploadDocument(customer.browser, 'proof_address', { bytes: pdf(), filename: 'bill.pdf' });
    customers.push(customer);
  }
  const withdrawalKey = newIdempotencyKey();
  const held = await withdraw(customers[0] as FiatCustomer, { amount: '100' }, withdrawalKey);
  expect(held.statusCode, held.body).toBe(200);
  return {
    customers,
    withdrawal: { key: withdrawalKey, id: held.json<{ data: { id: string } }>().data.id },
  };
}

// ---- what must survive ----

type Balances = { asset: string; kind: string; reference: string; posted: string; held: string }[];

async function balancesOf(t: TestApp, userId: number): Promise<Balances> {
  return t.database.db
    .selectFrom('accounts')
    .select(['asset', 'kind', 'reference', 'posted', 'held'])
    .where('owner_user_id', '=', String(userId))
    .orderBy('asset')
    .orderBy('kind')
    .orderBy('reference')
    .execute();
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Each of the customer's documents as the API hands it out: id → SHA-256 of the bytes served. */
async function servedDocuments(browser: Browser): Promise<Record<number, string>> {
  const user = await browser.get('/api/v1/user');
  expect(user.statusCode, user.body).toBe(200);
  const served: Record<number, string> = {};
  for (const document of user.json<{ data: { documents: { id: number }[] } }>().data.documents) {
    const file = await browser.get(`/api/v1/user/documents/${document.id}/file`);
    expect(file.statusCode, file.body).toBe(200);
    served[document.id] = sha256(file.rawPayload);
  }
  return served;
}

type CustomerState = { balances: Balances; documents: Record<number, string> };

async function stateOf(
  t: TestApp,
  customer: FiatCustomer,
  browser = customer.browser,
): Promise<CustomerState> {
  return { balances: await balancesOf(t, customer.id), documents: await servedDocuments(browser) };
}

/** Every document row's recorded SHA-256: what the upload computed from the bytes it stored. */
async function recordedChecksums(t: TestApp): Promise<Record<string, string>> {
  const rows = await t.database.db.selectFrom('kyc_documents').select(['id', 'sha256']).execute();
  return Object.fromEntries(rows.map((row) => [row.id, row.sha256]));
}

/** The same customer, signed in on another instance of Florin: their session cookie, carried over. */
function sameCustomerOn(t: TestApp, customer: FiatCustomer): Browser {
  const browser = createBrowser(t.app);
  for (const [name, value] of customer.browser.cookies) browser.cookies.set(name, value);
  return browser;
}

async function expectLedgerToHoldWithDomainChecks(t: TestApp): Promise<void> {
  const result = await checkLedger(t.database.db, DOMAIN_CHECKS);
  expect(result.violations).toEqual([]);
}

describe('the backup and restore drill (docs/operations.md, Backups)', () => {
  it('PostgreSQL: pg_dump of the running system, restored into a fresh server, passes the checks', async () => {
    const source = await startServer();
    const dataDir = temporaryFolder('data');
    const live = await startFlorin(
      await openDatabase({ engine: 'postgres', url: source.url('florin'), poolSize: 10 }),
      dataDir,
    );
    const { customers, withdrawal } = await runBusiness(live, 3);
    const before = await Promise.all(customers.map((customer) => stateOf(live, customer)));
    const checksums = await recordedChecksums(live);
    // Per customer: the three approved at verification (liveCustomer) and the two uploaded by runBusiness.
    expect(Object.keys(checksums)).toHaveLength(3 * 5);
    for (const state of before) {
      // The passport and proof of address uploaded, and the selfie approved at verification.
      expect(Object.keys(state.documents)).toHaveLength(3);
      for (const [id, served] of Object.entries(state.documents)) expect(served).toBe(checksums[id]);
    }

    // Florin keeps serving while the backup runs: a customer trades, another uploads, others read.
    const trader = await liveCustomer(live);
    await readyBankAccount(live, trader);
    const finance = await signedInStaff(live.app, live.database.db, 'finance');
    const funded = await finance.browser.post('/api/admin/fiat/deposits', {
      currency: 'GBP',
      amount: '20000.00',
      payer_name: 'MS G HOPPER',
      reference: trader.reference,
      bank_transaction_id: `DRILL-${Date.now()}-trader`,
    });
    expect(funded.statusCode, funded.body).toBe(200);
    await driveMarket(live, '20000');
    const traderStates = [await balancesOf(live, trader.id)];
    let backupDone = false;
    let tradesDuringBackup = 0;
    const backupDir = path.join(temporaryFolder('backup'), 'pg');
    const backup = runScript('backup.sh', backupDir, {
      DATABASE_URL: source.url('florin'),
      DATA_DIR: dataDir,
      PG_BIN: source.bin,
    }).finally(() => (backupDone = true));
    const trading = (async () => {
      while (!backupDone) {
        await buyBitcoin(trader, '0.01');
        traderStates.push(await balancesOf(live, trader.id));
        if (!backupDone) tradesDuringBackup += 1;
        await sleep(50);
      }
    })();
    const reading = (async () => {
      while (!backupDone) {
        for (const customer of customers.slice(1)) {
          expect((await customer.browser.get('/api/v1/user')).statusCode).toBe(200);
          expect((await customer.browser.get('/api/v1/fiat/transactions')).statusCode).toBe(200);
        }
        await sleep(50);
      }
    })();
    const uploading = uploadDocument(customers[0]?.browser as Browser, 'proof_address', {
      bytes: pdf('/Lang (en-GB)'),
      filename: 'new-bill.pdf',
    });
    const [backedUp] = await Promise.all([backup, trading, reading, uploading]);
    expect(backedUp.code, backedUp.output).toBe(0);
    expect(tradesDuringBackup).toBeGreaterThan(0);
    // 3 customers' 5 documents and the trader's 3 (liveCustomer), and the new proof if it came in time.
    expect(fs.readdirSync(path.join(backupDir, 'uploads')).length).toBeGreaterThanOrEqual(18);

    // A fresh server, as after losing the first one.
    const target = await startServer();
    const restoredDir = temporaryFolder('restored');
    const restoredRun = await runScript('restore.sh', backupDir, {
      DATABASE_URL: target.url('florin'),
      ENCRYPTION_KEY,
      DATA_DIR: restoredDir,
      PG_BIN: target.bin,
    });
    expect(restoredRun.code, restoredRun.output).toBe(0);
    expect(restoredRun.output).toContain('Ledger: every invariant and domain check holds.');
    expect(restoredRun.output).toMatch(/Documents: all (18|19) stored files match their SHA-256\./);

    const restored = await startFlorin(
      await openDatabase({ engine: 'postgres', url: target.url('florin'), poolSize: 10 }),
      restoredDir,
    );
    await expectLedgerToHoldWithDomainChecks(restored);
    const restoredChecksums = await recordedChecksums(restored);
    expect(restoredChecksums).toMatchObject(checksums);
    for (const [index, customer] of customers.entries()) {
      const after = await stateOf(restored, customer, sameCustomerOn(restored, customer));
      const expected = before[index] as CustomerState;
      expect(after.balances).toEqual(expected.balances);
      // The first customer's upload during the backup is in the snapshot or not; the others' documents are as they were.
      if (index > 0) expect(after.documents).toEqual(expected.documents);
      for (const [id, served] of Object.entries(after.documents)) expect(served).toBe(restoredChecksums[id]);
    }
    // The trader's balances are those after some number of acknowledged trades: the dump is one snapshot.
    expect(traderStates).toContainEqual(await balancesOf(restored, trader.id));

    // A retry with a key used before the backup returns the first withdrawal and holds nothing more.
    const first = customers[0] as FiatCustomer;
    const retried = await withdraw(
      { ...first, browser: sameCustomerOn(restored, first) },
      { amount: '100' },
      withdrawal.key,
    );
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json<{ data: { id: string } }>().data.id).toBe(withdrawal.id);
    expect(await balancesOf(restored, first.id)).toEqual(before[0]?.balances);

    // The restored system takes new business (its sequences came back too).
    await driveMarket(restored, '21000');
    await buyBitcoin({ ...trader, browser: sameCustomerOn(restored, trader) }, '0.01');
    const again = await withdraw(
      { ...trader, browser: sameCustomerOn(restored, trader) },
      { amount: '50' },
      newIdempotencyKey(),
    );
    expect(again.statusCode, again.body).toBe(200);
    await expectLedgerToHoldWithDomainChecks(restored);

    // The check is not vacuous: a damaged file and a lost one are both reported.
    const uploads = path.join(restoredDir, 'uploads');
    const [damaged, lost] = await restored.database.db
      .selectFrom('kyc_documents')
      .select('storage_key')
      .orderBy('id')
      .limit(2)
      .execute();
    fs.appendFileSync(path.join(uploads, damaged?.storage_key ?? ''), 'x');
    fs.rmSync(path.join(uploads, lost?.storage_key ?? ''));
    const broken = await checkRestore(restored.database.db, createLocalStorage(uploads));
    expect(broken.ok).toBe(false);
    expect(broken.documents.problems).toEqual([
      expect.stringMatching(/^document \d+: the stored file has SHA-256 [0-9a-f]{64} \(\d+ bytes\), not /),
      expect.stringMatching(/^document \d+: its file is missing from storage$/),
    ]);
  }, 120_000);

  it('PGlite: the data folder of a stopped server, restored into a new folder, passes the checks', async () => {
    const dataDir = temporaryFolder('pglite');
    // From the suite's migrated template: migrating a fresh folder on disk takes many seconds.
    const template = new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
    const live = await startFlorin(await openDatabase({ engine: 'pglite', dataDir, template }), dataDir);
    const { customers } = await runBusiness(live, 2);
    const before = await Promise.all(customers.map((customer) => stateOf(live, customer)));
    const checksums = await recordedChecksums(live);
    expect(Object.keys(checksums)).toHaveLength(2 * 5);

    // Copying the folder of a running server could tear it: the script refuses.
    const backupDir = path.join(temporaryFolder('backup'), 'pglite');
    const refused = await runScript('backup.sh', backupDir, { DATA_DIR: dataDir });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('Florin is running');

    await live.close();
    const backedUp = await runScript('backup.sh', backupDir, { DATA_DIR: dataDir });
    expect(backedUp.code, backedUp.output).toBe(0);

    const restoredDir = path.join(temporaryFolder('restored'), 'data');
    const restoredRun = await runScript('restore.sh', backupDir, { DATA_DIR: restoredDir });
    expect(restoredRun.code, restoredRun.output).toBe(0);
    expect(restoredRun.output).toContain('Ledger: every invariant and domain check holds.');
    expect(restoredRun.output).toContain('Documents: all 10 stored files match their SHA-256.');

    const restored = await startFlorin(
      await openDatabase({ engine: 'pglite', dataDir: restoredDir }),
      restoredDir,
    );
    await expectLedgerToHoldWithDomainChecks(restored);
    for (const [index, customer] of customers.entries()) {
      expect(await stateOf(restored, customer, sameCustomerOn(restored, customer))).toEqual(before[index]);
    }
    expect(await recordedChecksums(restored)).toEqual(checksums);
    await driveMarket(restored, '21000');
    await buyBitcoin(
      { ...(customers[1] as FiatCustomer), browser: sameCustomerOn(restored, customers[1] as FiatCustomer) },
      '0.01',
    );
    await expectLedgerToHoldWithDomainChecks(restored);
  }, 120_000);
});
