import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { verify } from '@node-rs/argon2';
import { sql } from 'kysely';
import { afterAll, afterEach, expect, it } from 'vitest';
import { openDatabase } from './db/index.js';
import { createTestDatabase, pgliteTemplate } from './test/database.js';

/**
 * The real entry point, as `npm start` runs it: on the engine under test
 * (a DATA_DIR for PGlite, DATABASE_URL for PostgreSQL).
 */
const mainFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Started = { code: number | null; stdout: string; stderr: string };

/** Starts main.ts; stops it with SIGTERM once it says it is running (or lets it exit by itself). */
function runMain(env: Record<string, string>): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        // The first start's backfill is slow on a busy machine; a slow-query warning is not what these tests read.
        SLOW_QUERY_MS: '600000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // Wait for the credentials block (printed right after) before stopping. Both may come in one
      // chunk, so the block's own last line says it is complete.
      const credentialsComplete =
        stdout.includes('Store it now') || stdout.includes('(the ADMIN_PASSWORD you set)');
      if (
        stdout.includes('Florin is running') &&
        (credentialsComplete || !stdout.includes('Staff account'))
      ) {
        setTimeout(() => child.kill('SIGTERM'), 200);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

type Install = { env: Record<string, string>; open: () => ReturnType<typeof openDatabase> };

/**
 * A place for a fresh install on the engine under test, and a way to reach its
 * database. Empty, so main.ts creates and migrates it; `migrated` has the
 * migrations run already (the test template), for a test about what comes after.
 */
async function freshInstall(
  options: { migrated?: boolean; removals?: (() => Promise<void>)[] } = {},
): Promise<Install> {
  const removals = options.removals ?? cleanups;
  const probe = await createTestDatabase();
  if (probe.engine === 'postgres' && probe.url) {
    const url = probe.url;
    if (!options.migrated) {
      await sql`DROP SCHEMA public CASCADE`.execute(probe.db);
      await sql`CREATE SCHEMA public`.execute(probe.db);
    }
    removals.push(() => probe.close());
    return {
      env: { DATABASE_URL: url, ENCRYPTION_KEY: randomBytes(32).toString('base64') },
      open: () => openDatabase({ engine: 'postgres', url, poolSize: 2 }),
    };
  }
  await probe.close();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-main-'));
  removals.push(() => fs.promises.rm(dataDir, { recursive: true, force: true }));
  // PGlite's initdb is the slowest part of a first start: the template's folder skips it.
  if (options.migrated)
    await (await openDatabase({ engine: 'pglite', dataDir, template: await pgliteTemplate() })).close();
  return { env: { DATA_DIR: dataDir }, open: () => openDatabase({ engine: 'pglite', dataDir }) };
}

/**
 * A first start is the slow one (migrations, the simulated past), so the tests
 * that need one with a generated password share it; the refusal test, which
 * spoils the ledger, comes last.
 */
const sharedCleanups: (() => Promise<void>)[] = [];
let shared: Promise<{ install: Install; first: Started }> | undefined;
afterAll(async () => {
  for (const cleanup of sharedCleanups.splice(0)) await cleanup();
});
function firstStart(): Promise<{ install: Install; first: Started }> {
  shared ??= freshInstall({ removals: sharedCleanups }).then(async (install) => ({
    install,
    first: await runMain(install.env),
  }));
  return shared;
}

it('creates one superadmin on the first start, prints a random password once, and keeps its data on restart', async () => {
  const { install, first } = await firstStart();
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  const password = /password: (\S+)/.exec(first.stdout)?.[1];
  expect(first.stdout).toContain('email:    admin@florin.local');
  expect(password).toMatch(/^[\w-]{24}$/);

  const second = await runMain(install.env);
  expect(second.code).toBe(0);
  expect(second.stdout).toContain('Florin is running');
  expect(second.stdout).not.toContain('Staff account created');

  const database = await install.open();
  const staff = await database.db.selectFrom('staff').select(['email', 'role', 'password_hash']).execute();
  await database.close();
  expect(staff).toHaveLength(1);
  expect(staff[0]).toMatchObject({ email: 'admin@florin.local', role: 'superadmin' });
  expect(staff[0]?.password_hash).toMatch(/^\$argon2id\$/);
  expect(await verify(staff[0]?.password_hash ?? '', password ?? '')).toBe(true);
}, 240_000);

it('uses ADMIN_EMAIL and ADMIN_PASSWORD when they are set, and never prints the password', async () => {
  // The first staff account is made after the migrations, so this install need not start empty.
  const install = await freshInstall({ migrated: true });
  const started = await runMain({
    ...install.env,
    ADMIN_EMAIL: 'ops@example.com',
    ADMIN_PASSWORD: 'a-long-chosen-secret-1',
  });
  expect(started.code).toBe(0);
  expect(started.stdout).toContain('email:    ops@example.com');
  expect(started.stdout).not.toContain('a-long-chosen-secret-1');
}, 240_000);

it('refuses to serve a database whose ledger fails the invariant check, and says why', async () => {
  const { install, first } = await firstStart();
  expect(first.code).toBe(0);
  const database = await install.open();
  // Money that appeared without a journal.
  await sql`UPDATE accounts SET posted = posted + 500 WHERE asset = 'GBP' AND kind = 'bank'`.execute(
    database.db,
  );
  await database.close();

  const started = await runMain(install.env);
  expect(started.code).toBe(1);
  expect(started.stdout).not.toContain('Florin is running');
  expect(started.stderr).toContain('Florin refuses to serve: the ledger fails its invariant check.');
  expect(started.stderr).toMatch(/invariant 2: balances in GBP sum to 500/);
  expect(started.stderr).toMatch(/invariant 3: account \d+ holds 500 but its entries sum to 0/);
}, 240_000);

it('stops at once with the name of a bad configuration variable', async () => {
  const started = await runMain({ PORT: 'eighty', DATABASE_URL: 'not a url' });
  expect(started.code).toBe(1);
  expect(started.stderr).toContain('Invalid configuration');
  expect(started.stderr).toMatch(/PORT: /);
  expect(started.stderr).toMatch(/DATABASE_URL: /);
}, 60_000);

it('refuses to start in production on the defaults, with one line per stand-in it refused', async () => {
  const started = await runMain({ NODE_ENV: 'production' });
  expect(started.code).toBe(1);
  expect(started.stdout).not.toContain('Florin is running');
  for (const refusal of [
    /^ {2}SMTP_URL: required in production, or customers never receive their codes \(or ALLOW_STAND_INS=mail\)$/m,
    /^ {2}PRICE_SOURCE: the simulated market invents its prices; .*\(or ALLOW_STAND_INS=market\)$/m,
    /^ {2}BITCOIN_RPC_URL_BTC: unset, so BTC would run on the simulated chain; .*\(or ALLOW_STAND_INS=chain:BTC\)$/m,
    /^ {2}ETHEREUM_RPC_URL: unset, so ETH would run on the simulated chain; .*\(or ALLOW_STAND_INS=chain:ETH\)$/m,
    /^ {2}BITCOIN_RPC_URL_LTC: unset, so LTC would run on the simulated chain; .*\(or ALLOW_STAND_INS=chain:LTC\)$/m,
    /^ {2}BITCOIN_RPC_URL_BCH: unset, so BCH would run on the simulated chain; .*\(or ALLOW_STAND_INS=chain:BCH\)$/m,
    /^ {2}XRP_NODE_URL: unset, so XRP would run on the simulated chain; .*\(or ALLOW_STAND_INS=chain:XRP\)$/m,
    /^ {2}STORAGE_S3_URL: unset, .*\(or ALLOW_STAND_INS=uploads\)$/m,
  ])
    expect(started.stderr).toMatch(refusal);
}, 60_000);

it('starts in production on the stand-ins ALLOW_STAND_INS names, with a WARN line for each', async () => {
  const install = await freshInstall({ migrated: true });
  const started = await runMain({
    ...install.env,
    NODE_ENV: 'production',
    ENCRYPTION_KEY: install.env.ENCRYPTION_KEY ?? randomBytes(32).toString('base64'),
    PUBLIC_URL: 'https://app.florin.example',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    COMPANY_NAME: 'Florin Ltd',
    COMPANY_NUMBER: '12345678',
    COMPANY_ADDRESS: '1 Poultry, London EC2R 8EJ',
    COMPANY_FCA_REFERENCE: '987654',
    ADMIN_PASSWORD: 'a-long-chosen-secret-1',
    ALLOW_STAND_INS: 'market,chain:BTC,chain:ETH,chain:LTC,chain:BCH,chain:XRP,uploads',
  });
  expect(started.code).toBe(0);
  expect(started.stdout).toContain('Florin is running');
  const warnings = started.stderr.split('\n').filter((line) => line.startsWith('WARN '));
  expect(warnings).toHaveLength(7);
  expect(warnings).toContain(
    'WARN production runs on a stand-in (ALLOW_STAND_INS=market): prices come from the simulated market, invented rather than an exchange’s',
  );
  expect(warnings.filter((line) => line.includes('ALLOW_STAND_INS=chain:'))).toHaveLength(5);
}, 240_000);
