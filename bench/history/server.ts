/**
 * The server side of the history benchmark, in its own process so its memory
 * is its own: the whole Florin app (buildApp, as main.ts builds it) on the
 * benchmark's PostgreSQL server, listening on loopback. While the parent
 * measures the export it samples this process's RSS and V8 heap every
 * SAMPLE_MS, from inside (the parent also reads /proc from outside).
 *
 *   argv: DATABASE_URL
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDevMailbox } from '../../apps/server/src/adapters/mail/mailer.js';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { openDatabase } from '../../apps/server/src/db/index.js';
import { createLedger } from '../../apps/server/src/ledger/index.js';
import { createSecretBox } from '../../apps/server/src/security/secret-box.js';
import { SAMPLE_MS, type ChildMessage, type MemoryPeaks, type ParentMessage } from './protocol.js';

const databaseUrl = process.argv[2];
if (!databaseUrl) throw new Error('usage: server.ts DATABASE_URL');

// buildApp serves the web app's files from WEB_DIST; an empty stand-in will do.
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-bench-web-'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Florin</title>');

const config = loadConfig({
  NODE_ENV: 'production',
  // Production requires both; the bench mails into the dev mailbox below and serves loopback only.
  SMTP_URL: 'smtp://127.0.0.1:2525',
  PUBLIC_URL: 'https://florin.example',
  // Production also refuses to run without the company's legal details; the bench shows no page.
  COMPANY_NAME: 'Florin Ltd',
  COMPANY_NUMBER: '12345678',
  COMPANY_ADDRESS: '1 Poultry, London EC2R 8EJ',
  COMPANY_FCA_REFERENCE: '987654',
  // The bench measures Florin itself, on the simulated market and chains and the local folder, allowed by name.
  ALLOW_STAND_INS: 'market,chain:BTC,chain:ETH,chain:LTC,chain:BCH,chain:XRP,uploads',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  DATABASE_URL: databaseUrl,
  ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  WEB_DIST: webDist,
  DATA_DIR: webDist,
  // The benchmark makes a few hundred requests a minute from one address.
  RATE_LIMIT_PER_MINUTE: '100000',
});
const database = await openDatabase({
  engine: 'postgres',
  url: databaseUrl,
  poolSize: config.DATABASE_POOL_SIZE,
});
const app = await buildApp({
  config,
  database,
  ledger: createLedger(),
  mailer: createDevMailbox(database.db),
  secretBox: createSecretBox(randomBytes(32)),
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });

let sampler: NodeJS.Timeout | undefined;
let liveSampler: NodeJS.Timeout | undefined;
let peaks: MemoryPeaks | undefined;
let lastSample = 0;

function sample(): void {
  if (!peaks) return;
  const now = performance.now();
  peaks.longestGapMs = Math.max(peaks.longestGapMs, now - lastSample);
  lastSample = now;
  const memory = process.memoryUsage();
  peaks.samples += 1;
  peaks.peakRss = Math.max(peaks.peakRss, memory.rss);
  peaks.peakHeap = Math.max(peaks.peakHeap, memory.heapUsed);
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'sample-start') {
    // A settled baseline: what the server holds when idle, not garbage from the paging runs.
    globalThis.gc?.();
    const memory = process.memoryUsage();
    peaks = {
      samples: 0,
      baselineRss: memory.rss,
      baselineHeap: memory.heapUsed,
      peakRss: memory.rss,
      peakHeap: memory.heapUsed,
      longestGapMs: 0,
      peakLiveHeap: null,
      liveSamples: 0,
    };
    lastSample = performance.now();
    sampler = setInterval(sample, SAMPLE_MS);
    const gc = globalThis.gc;
    if (message.liveEveryMs && gc) {
      liveSampler = setInterval(() => {
        if (!peaks) return;
        gc();
        peaks.liveSamples += 1;
        peaks.peakLiveHeap = Math.max(peaks.peakLiveHeap ?? 0, process.memoryUsage().heapUsed);
      }, message.liveEveryMs);
    }
    process.send?.({ type: 'sampling' } satisfies ChildMessage);
  } else if (message.type === 'sample-stop') {
    clearInterval(sampler);
    clearInterval(liveSampler);
    sample();
    if (peaks) process.send?.({ type: 'peaks', peaks } satisfies ChildMessage);
  } else {
    void app
      .close()
      .then(() => database.close())
      .then(() => {
        fs.rmSync(webDist, { recursive: true, force: true });
        process.exit(0);
      });
  }
});
process.send?.({ type: 'listening', url: address, pid: process.pid } satisfies ChildMessage);
