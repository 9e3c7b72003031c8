import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WS_PATH, type WsServerMessage } from '@florin/contracts';
import type { Database } from '../db/index.js';
import { checkLedger, describeViolations } from '../ledger/index.js';
import { DOMAIN_CHECKS } from '../ops/domain-checks.js';
import {
  answeredBy,
  createClient,
  expectOk,
  signUpLiveCustomer,
  sleep,
  until,
  type Client,
} from '../test/http-client.js';
import { cookieHeader } from '../test/browser.js';
import { postgresForMain, startMain, type MainProcess } from '../test/main-process.js';
import { startNginx, UPSTREAM_HEADER, type Nginx } from '../test/nginx.js';
import { freePort, type PostgresServer } from '../test/postgres-server.js';
import { createLocalStorage } from '../adapters/storage/index.js';

/**
 * Issue 14: two main.ts processes on one PostgreSQL server behind Debian's
 * nginx on loopback. Customers sign up, sign in, trade and lock term deposits
 * through nginx (both instances serve them), websockets stream the leader's
 * ticks through it; then the leader is killed (SIGKILL) and the survivor must
 * take the ticks and the jobs over within seconds, with nothing done twice.
 * It starts its own throw-away PostgreSQL server whichever engine the API
 * suite uses. Only `npm run test:scale` (FLORIN_TEST_SCALE=1; npm test runs
 * it after the PostgreSQL pass) includes it (vitest.config.ts): its four
 * servers would compete for the machine's cores with the timing-sensitive
 * tests running beside it.
 */

const SYMBOL = 'BTC/GBP';
const METRICS_TOKEN = randomBytes(24).toString('base64url');
const CUSTOMERS = 4;
/** The relay's follower retries the leader lock every 2 s; the simulated source ticks every second. */
const TAKEOVER_LIMIT_MS = 10_000;
const SHUTDOWN_LIMIT_MS = 5_000;
/** The catalogue's subject; the mailer appends the product's name. */
const MATURED_SUBJECT = 'Your term deposit has matured%';

// ---------------------------------------------------------------------------------------------
// A websocket client through nginx, keeping every message and noting which instance it reached.

type Socket = {
  socket: WebSocket;
  upstream: string;
  messages: WsServerMessage[];
  closed: Promise<{ code: number; at: number }>;
  waitFor: (
    what: string,
    predicate: (message: WsServerMessage) => boolean,
    timeoutMs?: number,
  ) => Promise<WsServerMessage>;
};

async function openSocket(url: string, headers: Record<string, string> = {}): Promise<Socket> {
  const socket = new WebSocket(url, { headers });
  const messages: WsServerMessage[] = [];
  const listeners = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push(JSON.parse((data as Buffer).toString('utf8')) as WsServerMessage);
    for (const listener of [...listeners]) listener();
  });
  const closed = new Promise<{ code: number; at: number }>((resolve) =>
    socket.once('close', (code) => resolve({ code, at: Date.now() })),
  );
  const upstream = await new Promise<string>((resolve, reject) => {
    let seen = '';
    socket.once('upgrade', (response: IncomingMessage) => {
      seen = answeredBy(response.headers[UPSTREAM_HEADER]);
    });
    socket.once('open', () => resolve(seen));
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  return {
    socket,
    upstream,
    messages,
    closed,
    waitFor: (what, predicate, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${what} within ${timeoutMs} ms (${messages.length} messages)`));
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
  };
}

function isTickAfter(at: number) {
  return (message: WsServerMessage) =>
    message.type === 'price' && message.data.symbol === SYMBOL && Date.parse(message.data.at) > at;
}

async function subscribePrices(socket: Socket): Promise<void> {
  socket.socket.send(JSON.stringify({ type: 'subscribe', channel: 'prices', symbols: [SYMBOL] }));
  await socket.waitFor('subscribed', (message) => message.type === 'subscribed');
}

// ---------------------------------------------------------------------------------------------

// Uploads go here (both instances share it, as they would share a bucket).
const dataDir = path.join(os.tmpdir(), `florin-scale-${randomBytes(6).toString('hex')}`);
let server: PostgresServer;
let database: Database;
let instances: MainProcess[] = [];
let nginx: Nginx;
const sockets: Socket[] = [];
const served = new Set<string>();

// Deposits are not what this test watches (postgresForMain turns the chain watch off); the leader's other jobs
// run as in production.
const settings = { DATABASE_POOL_SIZE: '5', METRICS_TOKEN, PRICE_SEED: 'two-instances' };

async function isLeader(instance: MainProcess): Promise<boolean> {
  const response = await fetch(`${instance.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await response.text();
  return /^florin_leader 1$/m.test(text);
}

const outputs = () =>
  instances.map((instance) => `--- ${instance.address}\n${instance.output()}`).join('\n') +
  `\n--- nginx\n${nginx?.log() ?? ''}`;

beforeAll(async () => {
  fs.mkdirSync(dataDir);
  const started = await postgresForMain({ dataDir });
  ({ server, database } = started);
  const ports = [await freePort(), await freePort()];
  // Both at once on an empty database, as a deploy starts them: one migrates, the other waits its turn.
  instances = await Promise.all(
    ports.map((port) => startMain({ port, env: { ...started.env, ...settings } })),
  );
  nginx = await startNginx({ upstreams: instances.map((instance) => instance.address) });
}, 180_000);

afterAll(async () => {
  for (const socket of sockets) socket.socket.terminate();
  for (const instance of instances) await instance.stop('SIGKILL');
  await nginx?.stop();
  await database?.close();
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('two instances behind nginx on one PostgreSQL server', () => {
  it('serves customers from both instances, survives the leader being killed, and shuts down cleanly', async () => {
    try {
      // ---- one leader ----
      const [leader, follower] = await until('exactly one leader', async () => {
        const flags = await Promise.all(instances.map(isLeader));
        if (flags.filter(Boolean).length !== 1) return null;
        return flags[0] ? [instances[0]!, instances[1]!] : [instances[1]!, instances[0]!];
      });

      // ---- customers, through nginx ----
      const stamp = Date.now().toString(36);
      const customers: { email: string; client: Client }[] = [];
      for (let index = 1; index <= CUSTOMERS; index += 1) {
        const client = createClient(nginx.url, `10.14.${index}.1`, served);
        const email = `scale-${index}-${stamp}@florin.test`;
        await signUpLiveCustomer(
          client,
          database.db,
          createLocalStorage(path.join(dataDir, 'uploads')),
          email,
        );
        for (const [asset, amount] of [
          ['GBP', '10000.00'],
          ['ETH', '2.000000000000000000'],
        ] as const) {
          await expectOk(
            client.post('/dev/ledger/fund', {
              email,
              asset,
              amount,
              key: `scale-${stamp}-${index}-${asset}`,
            }),
            'fund',
          );
        }
        customers.push({ email, client });
      }

      // ---- trading and term deposits, through nginx ----
      for (const { client } of customers) {
        for (let trade = 0; trade < 2; trade += 1) {
          const quote = await expectOk(
            client.post('/api/v1/quotes', { side: 'buy', coin_id: 'btc', quantity: '0.01' }),
            'quote',
          );
          const { data } = quote.json as { data: { id: string } };
          await expectOk(client.post('/api/v1/order', { quote_id: data.id }), 'order');
        }
        const coins = await expectOk(client.get('/api/v1/term-deposit-coins'), 'term deposit coins');
        const eth = (coins.json as { data: { coin_id: string; options: { id: number }[] }[] }).data.find(
          (coin) => coin.coin_id === 'eth',
        );
        await expectOk(
          client.post(
            '/api/v1/crypto/term-deposit',
            { coin: 'eth', amount: '0.5', day: eth?.options[0]?.id },
            { 'idempotency-key': `scale-term-${randomBytes(8).toString('hex')}` },
          ),
          'term deposit',
        );
      }
      expect([...served].sort()).toEqual(instances.map((instance) => instance.address).sort());

      // ---- websockets through nginx: one on each instance (round robin decides; retry until both) ----
      const wsUrl = `${nginx.url.replace('http', 'ws')}${WS_PATH}`;
      const first = customers[0]!;
      const cookie = cookieHeader(first.client.cookies);
      const byInstance = new Map<string, Socket>();
      for (let attempt = 0; attempt < 10 && byInstance.size < 2; attempt += 1) {
        const socket = await openSocket(wsUrl, { cookie, 'x-forwarded-for': first.client.ip });
        sockets.push(socket);
        if (byInstance.has(socket.upstream)) socket.socket.close();
        else byInstance.set(socket.upstream, socket);
      }
      expect([...byInstance.keys()].sort()).toEqual(instances.map((instance) => instance.address).sort());
      const onLeader = byInstance.get(leader.address)!;
      const onFollower = byInstance.get(follower.address)!;
      for (const socket of [onLeader, onFollower]) await subscribePrices(socket);
      const subscribedAt = Date.now();
      await Promise.all(
        [onLeader, onFollower].map((socket) => socket.waitFor('a tick', isTickAfter(subscribedAt))),
      );

      // One producer: over 5 s each client sees about one tick a second, each once, in order.
      const windowStart = Date.now();
      await sleep(5_000);
      for (const socket of [onLeader, onFollower]) {
        const ticks = socket.messages
          .filter(isTickAfter(windowStart))
          .map((message) => (message.type === 'price' ? message.data.at : ''));
        expect(ticks.length).toBeGreaterThanOrEqual(3);
        expect(ticks.length).toBeLessThanOrEqual(7);
        expect(new Set(ticks).size).toBe(ticks.length);
        expect([...ticks].sort()).toEqual(ticks);
      }

      // A customer's event crosses instances: money moved by the leader reaches their socket on the follower.
      const movedAt = onFollower.messages.length;
      const direct = createClient(leader.url, first.client.ip, new Set());
      await expectOk(
        direct.post('/dev/ledger/fund', {
          email: first.email,
          asset: 'GBP',
          amount: '1.00',
          key: `scale-${stamp}-x`,
        }),
        'fund on the leader',
      );
      await onFollower.waitFor(
        "the customer's balances event",
        (message) =>
          onFollower.messages.indexOf(message) >= movedAt &&
          message.type === 'user' &&
          message.event === 'balances',
      );

      // ---- a job raced by both instances: each pays exactly once ----
      const raced = customers.slice(0, 2);
      const paid = await Promise.all(
        raced.flatMap(({ email }) =>
          instances.map(async (instance) => {
            const response = await fetch(`${instance.url}/dev/term-deposits/mature`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email }),
            });
            expect(response.status).toBe(200);
            return ((await response.json()) as { data: { paid: number } }).data.paid;
          }),
        ),
      );
      // The leader's own maturity scan may have taken some of them between the two requests.
      expect(paid.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(raced.length);

      // ---- the leader dies ----
      const killedAt = Date.now();
      leader.child.kill('SIGKILL');
      await leader.exited;

      // The socket on the dead instance is closed (nginx lost its upstream); the client reconnects through nginx.
      const lost = await Promise.race([onLeader.closed, sleep(TAKEOVER_LIMIT_MS).then(() => null)]);
      expect(lost, 'the socket on the killed instance was not closed').not.toBeNull();
      const reconnected = await openSocket(wsUrl, { cookie, 'x-forwarded-for': first.client.ip });
      sockets.push(reconnected);
      expect(reconnected.upstream).toBe(follower.address);
      await subscribePrices(reconnected);

      // Ticks carry on from the new leader on both the old and the new socket.
      const [carriedOn] = await Promise.all([
        onFollower.waitFor('a tick from the new leader', isTickAfter(killedAt), TAKEOVER_LIMIT_MS),
        reconnected.waitFor('a tick on the reconnected socket', isTickAfter(killedAt), TAKEOVER_LIMIT_MS),
      ]);
      const takeoverMs = carriedOn.type === 'price' ? Date.parse(carriedOn.data.at) - killedAt : Infinity;
      expect(takeoverMs).toBeLessThan(TAKEOVER_LIMIT_MS);
      console.log(`[two-instances] first tick from the new leader ${takeoverMs} ms after SIGKILL`);
      expect(await until('the survivor to lead', () => isLeader(follower))).toBe(true);

      // Requests through nginx go on (the dead upstream refuses, nginx moves them to the survivor).
      for (const { client } of customers) {
        const quote = await expectOk(
          client.post('/api/v1/quotes', { side: 'sell', coin_id: 'btc', quantity: '0.01' }),
          'quote after the kill',
        );
        const { data } = quote.json as { data: { id: string } };
        const order = await expectOk(
          client.post('/api/v1/order', { quote_id: data.id }),
          'order after the kill',
        );
        expect(order.upstream).toBe(follower.address);
      }

      // ---- the survivor's maturity job pays the rest, once: the clock moves, nobody calls a route ----
      const rest = customers.slice(2).map((customer) => customer.email);
      await sql`
        UPDATE term_deposits SET matures_at = now() - interval '1 second'
        WHERE status = 'live' AND user_id IN (SELECT id FROM users WHERE email IN (${sql.join(rest)}))`.execute(
        database.db,
      );
      await until(
        'the new leader to pay the matured deposits',
        async () => {
          const row = await sql<{ live: number }>`
            SELECT count(*)::int AS live FROM term_deposits WHERE status = 'live'`.execute(database.db);
          return row.rows[0]?.live === 0;
        },
        30_000,
      );

      // Each mail follows its payment's commit.
      await until('the maturity mails', async () => {
        const row = await sql<{ count: number }>`
          SELECT count(*)::int AS count FROM dev_mailbox WHERE subject LIKE ${MATURED_SUBJECT}`.execute(
          database.db,
        );
        return (row.rows[0]?.count ?? 0) >= CUSTOMERS;
      });

      // Exactly once each: one maturity journal per deposit, one mail per customer.
      const maturities = await sql<{ deposit: string; journals: number }>`
        SELECT t.id::text AS deposit, count(j.id)::int AS journals
        FROM term_deposits t LEFT JOIN journals j
          ON j.reference = 'term_deposit:' || t.id AND j.kind = 'term_deposit_maturity'
        GROUP BY t.id`.execute(database.db);
      expect(maturities.rows).toHaveLength(CUSTOMERS);
      expect(maturities.rows.map((row) => row.journals)).toEqual(Array(CUSTOMERS).fill(1));
      const mails = await sql<{ to: string; count: number }>`
        SELECT "to", count(*)::int AS count FROM dev_mailbox WHERE subject LIKE ${MATURED_SUBJECT}
        GROUP BY "to" ORDER BY "to"`.execute(database.db);
      expect(mails.rows).toEqual(
        customers.map(({ email }) => ({ to: email, count: 1 })).sort((a, b) => a.to.localeCompare(b.to)),
      );

      // ---- the ledger holds ----
      const ledger = await checkLedger(database.db, DOMAIN_CHECKS);
      expect(ledger.ok, describeViolations(ledger)).toBe(true);

      // ---- SIGTERM with websocket clients connected: a close, not a hang, and exit 0 ----
      const termAt = Date.now();
      follower.child.kill('SIGTERM');
      const [code, closedSockets] = await Promise.all([
        Promise.race([follower.exited, sleep(SHUTDOWN_LIMIT_MS * 2).then(() => 'hung' as const)]),
        Promise.all(
          [onFollower, reconnected].map((socket) =>
            Promise.race([socket.closed, sleep(SHUTDOWN_LIMIT_MS * 2).then(() => null)]),
          ),
        ),
      ]);
      const exitMs = Date.now() - termAt;
      console.log(
        `[two-instances] SIGTERM: exit ${code} after ${exitMs} ms; websocket close codes ${closedSockets.map((closed) => closed?.code).join(', ')}`,
      );
      expect(code).toBe(0);
      expect(exitMs).toBeLessThan(SHUTDOWN_LIMIT_MS);
      for (const closed of closedSockets) {
        expect(closed, 'a websocket client saw no close').not.toBeNull();
        // 1001 "going away", relayed by nginx: the client should reconnect, to another instance.
        expect(closed!.code).toBe(1001);
        expect(closed!.at - termAt).toBeLessThan(SHUTDOWN_LIMIT_MS);
      }
    } catch (error) {
      console.error(outputs());
      throw error;
    }
  }, 240_000);
});
