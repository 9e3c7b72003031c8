import type { FastifyBaseLogger } from 'fastify';
import { createDevMailbox, createSmtpMailer } from './adapters/mail/mailer.js';
import { buildApp } from './app.js';
import { loadIpLocations } from './modules/whitelists/ip-location.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { exitIfFolderInUse } from './db/folder-lock.js';
import { openDatabase } from './db/index.js';
import { migrateToLatest } from './db/migrate.js';
import { checkLedger, createLedger, describeViolations, rollUpHouseBalances } from './ledger/index.js';
import { ensureFirstStaff } from './modules/staff/service.js';
import { openMarket } from './modules/market/setup.js';
import { DOMAIN_CHECKS } from './ops/domain-checks.js';
import { createSecretBox, loadMasterKey } from './security/secret-box.js';

/** How often house postings are folded into their balances. */
const HOUSE_ROLLUP_INTERVAL_MS = 5_000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  // Production on a stand-in was asked for by name (ALLOW_STAND_INS); it must never pass unnoticed.
  for (const standIn of config.allowedStandIns)
    console.warn(`WARN production runs on a stand-in (ALLOW_STAND_INS=${standIn.part}): ${standIn.warning}`);
  // Until the app (and its logger) exists, a slow migration or start-up check goes to stderr.
  let log: Pick<FastifyBaseLogger, 'warn'> = console;
  const slowQueries = {
    thresholdMs: config.SLOW_QUERY_MS,
    report: (query: { sql: string; durationMs: number }) => log.warn(query, 'slow query'),
  };
  const database = await openDatabase(
    config.DATABASE_URL
      ? {
          engine: 'postgres',
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          slowQueries,
          onConnectionError: (error) => log.warn({ err: error }, 'database connection lost'),
        }
      : { engine: 'pglite', dataDir: config.dataDir, slowQueries },
  ).catch(exitIfFolderInUse);
  await migrateToLatest(database.db);

  const domainChecks = DOMAIN_CHECKS;
  const initialLedgerCheck = await checkLedger(database.db, domainChecks);
  if (!initialLedgerCheck.ok) {
    console.error(
      `Florin refuses to serve: the ledger fails its invariant check.\n${describeViolations(initialLedgerCheck)}`,
    );
    await database.close();
    process.exit(1);
  }

  const firstStaff = await ensureFirstStaff(database.db, {
    email: config.ADMIN_EMAIL,
    password: config.ADMIN_PASSWORD,
  });

  const mailer = config.SMTP_URL
    ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : createDevMailbox(database.db);
  const secretBox = createSecretBox(loadMasterKey(config.ENCRYPTION_KEY, config.dataDir));
  const { market } = await openMarket({
    config,
    db: database.db,
    // Called only once the market runs, after the app (and its logger) exists.
    onError: (error) => app.log.error({ err: error }, 'market data failed'),
  });
  const app = await buildApp({
    config,
    database,
    ledger: createLedger(),
    mailer,
    secretBox,
    initialLedgerCheck,
    domainChecks,
    market,
    priceFeed: market,
  });
  log = app.log;
  // The roll-up in flight, which the shutdown lets commit before the database closes. One at a time: a
  // roll-up slower than the interval is not joined by another.
  let rolling: Promise<void> | null = null;
  const rollup = setInterval(() => {
    rolling ??= rollUpHouseBalances(database.db)
      .then(
        () => undefined,
        (error: unknown) => app.log.error({ err: error }, 'house roll-up failed'),
      )
      .finally(() => {
        rolling = null;
      });
  }, HOUSE_ROLLUP_INTERVAL_MS);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(rollup);
    await rolling;
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // Loading the IP-location data blocks for about a second: before listening, so no request waits behind it.
  await loadIpLocations();
  await app.listen({ port: config.PORT, host: config.HOST });
  market.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  console.log(
    `\nFlorin is running on http://localhost:${port} (${database.engine}${database.engine === 'pglite' ? `, data in ${config.dataDir}` : ''})`,
  );
  console.log(
    `Listening on ${config.HOST}:${port}${config.HOST === '127.0.0.1' ? ' (this machine only; HOST=0.0.0.0 opens it to the network)' : ''}`,
  );
  if (!config.isProduction)
    console.log('The /dev/ helpers (test funds, the dev mailbox) answer only callers on this machine.');
  if (mailer.kind === 'dev-mailbox')
    console.log(`Mail goes to the dev mailbox: http://localhost:${port}/dev/mailbox`);
  if (firstStaff) {
    console.log(
      `\nStaff account created (superadmin):\n  email:    ${firstStaff.email}\n  password: ${firstStaff.generated ? firstStaff.password : '(the ADMIN_PASSWORD you set)'}\n` +
        (firstStaff.generated ? '  This password is shown only once. Store it now.\n' : ''),
    );
  }
}

await main();
