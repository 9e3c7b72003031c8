import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/index.js';
import { checkLedger, describeViolations } from '../ledger/index.js';
import { DOMAIN_CHECKS } from '../ops/domain-checks.js';
import {
  createClient,
  expectOk,
  newKey,
  signUpLiveCustomer,
  sleep,
  type Answer,
  type Client,
} from '../test/http-client.js';
import { postgresForMain, startMain, type MainProcess } from '../test/main-process.js';
import { freePort, type PostgresServer } from '../test/postgres-server.js';
import { volumeOf } from '../test/volume.js';
import { createLocalStorage } from '../adapters/storage/index.js';

/**
 * Issue 15's crash test: main.ts in its own process on a PostgreSQL server,
 * under customers buying at quotes, locking term deposits and uploading
 * documents, each request retried with its own key until it gets an answer;
 * the server is killed with SIGKILL at CRASH_KILLS random moments (8 in
 * `npm test`, 20 in `npm run test:deep`, 100 in `npm run test:chaos`) and
 * started again, then the PostgreSQL server is killed the same way a few
 * times. Afterwards the ledger holds, every acknowledged operation exists
 * exactly once, no operation exists twice, and every document row has its file.
 */
const KILLS = volumeOf('CRASH_KILLS', 8);
const DATABASE_KILLS = volumeOf('CRASH_DATABASE_KILLS', 3);
const CUSTOMERS = 3;

type Operation = { kind: 'trade' | 'term' | 'upload'; key: string; acknowledged: boolean; answer?: string };

/** An answer to keep; transport failures (the server is down) and 5xx (the database is) are retried with the same key. */
function isSettled(answer: Answer | Error): answer is Answer {
  return !(answer instanceof Error) && answer.status < 500;
}

async function attempt(send: () => Promise<Answer>): Promise<Answer | Error> {
  try {
    return await send();
  } catch (error) {
    return error as Error;
  }
}

describe('crashes under load', () => {
  const dataDir = path.join(os.tmpdir(), `florin-crash-${randomBytes(6).toString('hex')}`);
  let server: PostgresServer;
  let database: Database;
  let instance: MainProcess;
  let port: number;
  let env: Record<string, string>;

  beforeAll(async () => {
    fs.mkdirSync(dataDir);
    // Commits acknowledged only once written: killing the database must not lose what it said was done.
    const started = await postgresForMain({ dataDir, durableCommits: true });
    ({ server, database } = started);
    env = { ...started.env, DATABASE_POOL_SIZE: '5', PRICE_SEED: 'crash' };
    port = await freePort();
    instance = await startMain({ port, env });
  }, 180_000);

  afterAll(async () => {
    await instance?.stop('SIGKILL');
    await database?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    `keeps every acknowledged operation exactly once through ${KILLS} server kills and ${DATABASE_KILLS} database kills`,
    async () => {
      const stamp = Date.now().toString(36);
      const clients: Client[] = [];
      for (let index = 1; index <= CUSTOMERS; index += 1) {
        const client = createClient(instance.url, `10.15.${index}.1`, new Set());
        const email = `crash-${index}-${stamp}@florin.test`;
        await signUpLiveCustomer(
          client,
          database.db,
          createLocalStorage(path.join(dataDir, 'uploads')),
          email,
        );
        for (const [asset, amount] of [
          ['GBP', '1000000.00'],
          ['ETH', '100.000000000000000000'],
        ] as const)
          await expectOk(
            client.post('/dev/ledger/fund', {
              email,
              asset,
              amount,
              key: `crash-${stamp}-${index}-${asset}`,
            }),
            'fund',
          );
        clients.push(client);
      }
      const coins = await expectOk(clients[0]!.get('/api/v1/term-deposit-coins'), 'term deposit coins');
      const eth = (coins.json as { data: { coin_id: string; options: { id: number }[] }[] }).data.find(
        (coin) => coin.coin_id === 'eth',
      );
      const optionId = eth?.options[0]?.id;
      const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2b6cb0' } })
        .jpeg()
        .toBuffer();

      const operations: Operation[] = [];
      let running = true;
      /** Once the kills are over the load must settle in a minute: the test fails rather than hangs. */
      let settleBy = Infinity;
      const pause = async (last: Answer | Error) => {
        if (Date.now() > settleBy)
          throw new Error(
            `an operation found no answer a minute after the last kill: ${last instanceof Error ? `${last.message} ${String(last.cause)}` : last.text}\n${instance.output().slice(-3_000)}`,
          );
        await sleep(100);
      };

      /** One operation, retried with the same key until the server answers it (or refuses it for good). */
      async function perform(client: Client, kind: Operation['kind']): Promise<void> {
        const operation: Operation = { kind, key: newKey(`crash-${kind}`), acknowledged: false };
        operations.push(operation);
        for (;;) {
          let answer: Answer | Error;
          if (kind === 'trade') {
            // The quote's id is the trade's key: a retry executes the same quote or learns it was used.
            answer = await attempt(() =>
              client.post('/api/v1/quotes', { side: 'buy', coin_id: 'btc', quantity: '0.01' }),
            );
            if (!isSettled(answer)) {
              await pause(answer);
              continue;
            }
            if (answer.status !== 200) {
              operation.answer = answer.text;
              return;
            }
            operation.key = (answer.json as { data: { id: string } }).data.id;
            for (;;) {
              const order = await attempt(() => client.post('/api/v1/order', { quote_id: operation.key }));
              if (isSettled(order)) {
                operation.acknowledged = order.status === 200;
                operation.answer = order.text;
                return;
              }
              await pause(order);
            }
          }
          if (kind === 'term') {
            answer = await attempt(() =>
              client.post(
                '/api/v1/crypto/term-deposit',
                { coin: 'eth', amount: '0.01', day: optionId },
                { 'idempotency-key': operation.key },
              ),
            );
          } else {
            answer = await attempt(() =>
              client.upload('/api/v1/user/id-proof', { doc_type: 'passport' }, image, 'passport.jpg'),
            );
          }
          if (isSettled(answer)) {
            operation.acknowledged = answer.status === 200;
            operation.answer = answer.text;
            return;
          }
          await pause(answer);
        }
      }

      const kinds: Operation['kind'][] = ['trade', 'term', 'trade', 'upload'];
      const load = clients.map(async (client, index) => {
        for (let round = index; running; round += 1) await perform(client, kinds[round % kinds.length]!);
      });

      try {
        for (let kill = 0; kill < KILLS; kill += 1) {
          await sleep(300 + Math.random() * 1_500);
          await instance.stop('SIGKILL');
          instance = await startMain({ port, env });
        }
        for (let kill = 0; kill < DATABASE_KILLS; kill += 1) {
          await sleep(500 + Math.random() * 1_500);
          await server.crash();
        }
        await sleep(1_500);
      } finally {
        running = false;
        settleBy = Date.now() + 60_000;
        await Promise.all(load);
      }

      const acknowledged = operations.filter((operation) => operation.acknowledged);
      expect(acknowledged.length).toBeGreaterThan(KILLS);
      for (const kind of ['trade', 'term', 'upload'] as const)
        expect(
          acknowledged.some((operation) => operation.kind === kind),
          `an acknowledged ${kind} among ${JSON.stringify(operations.filter((operation) => operation.kind === kind).map((operation) => operation.answer?.slice(0, 160)))}`,
        ).toBe(true);

      // Each trade and term deposit exactly once when acknowledged, never twice when not.
      const trades = await database.db.selectFrom('trades').select(['quote_id']).execute();
      const terms = await database.db.selectFrom('term_deposits').select(['idempotency_key']).execute();
      const countOf = (operation: Operation) =>
        operation.kind === 'trade'
          ? trades.filter((row) => row.quote_id === operation.key).length
          : terms.filter((row) => row.idempotency_key.endsWith(operation.key)).length;
      const wrong = operations
        .filter((operation) => operation.kind !== 'upload')
        .map((operation) => ({ ...operation, count: countOf(operation) }))
        .filter((operation) => operation.count > 1 || (operation.acknowledged && operation.count !== 1));
      expect(wrong).toEqual([]);

      // Every document has its file, whole.
      const documents = await database.db
        .selectFrom('kyc_documents')
        .select(['storage_key', 'sha256'])
        .execute();
      expect(documents.length).toBeGreaterThanOrEqual(
        acknowledged.filter((operation) => operation.kind === 'upload').length,
      );
      for (const document of documents) {
        const file = path.join(dataDir, 'uploads', document.storage_key);
        expect(fs.existsSync(file), document.storage_key).toBe(true);
        expect(createHash('sha256').update(fs.readFileSync(file)).digest('hex')).toBe(document.sha256);
      }

      const result = await checkLedger(database.db, DOMAIN_CHECKS);
      expect(result.ok, describeViolations(result)).toBe(true);
    },
    30 * 60_000,
  );
});
