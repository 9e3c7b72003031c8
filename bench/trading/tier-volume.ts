/**
 * Issue 43's measurement: does a quote cost more for a customer who traded a lot this year? One customer
 * with YEAR_TRADES trades this year (seeded in bulk: seed-trades.ts) and one with none, each quoting
 * 0.01 BTC over HTTP in turns on one keep-alive connection, so that both meet the same machine.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentile } from '../ledger/workloads.js';
import { log } from '../support.js';
import { ask, countingStatements, topStatements, totalOf, type Server } from './app-process.js';
import { INSTANT_QUANTITY, post } from './instant-client.js';
import type { Customer } from './protocol.js';
import type { Seeded, VolumeReads } from './seed-trades.js';
import { INSTANT_FUNDING_PENCE, YEAR_TRADES } from './settings.js';

const WARM_UP = 20;
const QUOTES = 500;
const COUNTED_QUOTES = 50;

export type QuoteCost = {
  trades: number;
  quotes: number;
  p50: number;
  p90: number;
  mean: number;
  /** Statements the app sent over COUNTED_QUOTES quotes, by kind (null on PGlite). */
  statements: [string, number][] | null;
  reads: VolumeReads | undefined;
};

export type TierVolume = { engine: string; seeded: Seeded; busy: QuoteCost; idle: QuoteCost };

async function quoteOnce(agent: http.Agent, base: string, customer: Customer): Promise<number> {
  const started = performance.now();
  const reply = await post(agent, base, '/api/v1/quotes', customer, {
    side: 'buy',
    coin_id: 'btc',
    quantity: INSTANT_QUANTITY,
  });
  if (reply.status !== 200) throw new Error(`quote ${reply.status}: ${reply.body.slice(0, 300)}`);
  return performance.now() - started;
}

export async function measureTierVolume(server: Server): Promise<TierVolume> {
  const { customers } = await ask(
    server,
    { type: 'customers', count: 2, platform: 1, gbpPence: String(INSTANT_FUNDING_PENCE), label: 'v' },
    'customers',
  );
  const [busy, idle] = customers as [Customer, Customer];
  log(`seeding ${YEAR_TRADES.toLocaleString('en-GB')} trades this year for customer ${busy.id}`);
  const { seeded, reads } = await ask(
    server,
    { type: 'seed-trades', userId: busy.id, count: YEAR_TRADES, compareWith: idle.id },
    'seeded',
  );
  log(`seeded in ${seeded.seconds.toFixed(1)} s; the year's volume ${seeded.volumePence} pence`);

  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies = new Map<Customer, number[]>([
    [busy, []],
    [idle, []],
  ]);
  const statements = new Map<Customer, [string, number][] | null>();
  try {
    for (let i = 0; i < WARM_UP; i += 1) {
      await quoteOnce(agent, server.url, busy);
      await quoteOnce(agent, server.url, idle);
    }
    // Timed quote by quote in pairs, the two customers taking turns to go first, so that both meet the
    // same moment of a shared machine's load.
    for (let pair = 0; pair < QUOTES; pair += 1) {
      for (const customer of pair % 2 === 0 ? [busy, idle] : [idle, busy])
        latencies.get(customer)!.push(await quoteOnce(agent, server.url, customer));
    }
    // Then each customer's statements, counted over quotes of their own (the count cannot tell them apart).
    for (const customer of [busy, idle]) {
      const counted = await countingStatements(server, async () => {
        for (let i = 0; i < COUNTED_QUOTES; i += 1) await quoteOnce(agent, server.url, customer);
      });
      statements.set(customer, counted.statements);
    }
  } finally {
    agent.destroy();
  }

  const costOf = (customer: Customer, trades: number): QuoteCost => {
    const times = latencies.get(customer)!;
    const sorted = Float64Array.from(times).sort();
    return {
      trades,
      quotes: times.length,
      p50: percentile(sorted, 0.5),
      p90: percentile(sorted, 0.9),
      mean: times.reduce((sum, value) => sum + value, 0) / Math.max(1, times.length),
      statements: statements.get(customer) ?? null,
      reads: reads.find((read) => read.customer === customer.id),
    };
  };
  const result: TierVolume = {
    engine: server.engine === 'postgres' ? 'PostgreSQL' : 'PGlite',
    seeded,
    busy: costOf(busy, seeded.trades),
    idle: costOf(idle, 0),
  };
  for (const [name, cost] of [
    ['busy', result.busy],
    ['idle', result.idle],
  ] as const)
    log(
      `${result.engine} quote, customer with ${cost.trades.toLocaleString('en-GB')} trades (${name}): ` +
        `p50 ${cost.p50.toFixed(2)} ms, p90 ${cost.p90.toFixed(2)} ms, mean ${cost.mean.toFixed(2)} ms over ${cost.quotes}` +
        (cost.statements
          ? `; ${(totalOf(cost.statements) / COUNTED_QUOTES).toFixed(1)} statements a quote`
          : '') +
        (cost.reads
          ? `; volume read: sum ${cost.reads.sumMs.toFixed(2)} ms, total ${cost.reads.totalMs.toFixed(2)} ms`
          : ''),
    );
  return result;
}

const ms = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(2);

/** The report's section on it: bench/results/trading.md. */
export function renderTierVolumeSection(run: TierVolume): string {
  const row = (cost: QuoteCost) =>
    `| ${cost.trades.toLocaleString('en-GB')} | ${cost.quotes} | ${ms(cost.p50)} | ${ms(cost.p90)} | ${ms(cost.mean)} | ${
      cost.statements ? (totalOf(cost.statements) / COUNTED_QUOTES).toFixed(1) : '–'
    } | ${ms(cost.reads?.sumMs)} | ${ms(cost.reads?.totalMs)} |`;
  const kinds = (cost: QuoteCost) =>
    cost.statements ? topStatements(cost.statements, COUNTED_QUOTES, 20) : 'not counted on PGlite';
  const ratio = run.busy.p50 / run.idle.p50;
  return `## A quote against the year's trades (issue 43)

${run.engine}: one customer with ${run.seeded.trades.toLocaleString('en-GB')} trades this year and one with none, each
quoting ${INSTANT_QUANTITY} BTC through \`POST /api/v1/quotes\` (the fee tier read from the year's volume) on one
keep-alive connection: ${QUOTES} quotes each, timed one by one in pairs (the two taking turns to go first, so both
meet the same moment of the machine's load), after ${WARM_UP} each not timed; then ${COUNTED_QUOTES} more each with the app's
statements counted.
The trades were seeded in bulk (bench/trading/seed-trades.ts: a real journal posted by \`ledger_post_journal\` and a
\`trades\` row each, ${run.seeded.seconds.toFixed(0)} s), the customer's running total then recomputed from them with
migration 0035's backfill (${run.seeded.volumePence} pence); the ledger check after the run includes the
trading-volume check, which compares every total with its year's trades.

| Trades this year | Quotes | p50 ms | p90 ms | mean ms | statements a quote | volume as a sum over trades (before), ms | volume as the running total (now), ms |
|---:|---:|---:|---:|---:|---:|---:|---:|
${row(run.busy)}
${row(run.idle)}

- **A quote for the customer with ${run.seeded.trades.toLocaleString('en-GB')} trades costs ${ratio.toFixed(2)} × one for the customer with none (p50).**
- Statements a quote, ${run.seeded.trades.toLocaleString('en-GB')} trades: ${kinds(run.busy)}.
- Statements a quote, no trades: ${kinds(run.idle)}.
- The last two columns time the volume's read alone from the app's side of a connection (median of 21, after one
  unmeasured): the sum over the year's trades that every quote ran before issue 43, and the running total's
  primary-key row it reads now.
`;
}
