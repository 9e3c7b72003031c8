import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresTestDatabase } from '../../db/postgres.test-kit.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { tradingSteps } from './trading.test-kit.js';

/**
 * Decision 138: the hot statements are prepared, and a prepared statement may run on PostgreSQL's generic
 * plan, made once without the values. This checks, on the migrated schema, that the generic plan of every
 * statement an execution and a fill prepare finds an index on each table that grows: with sequential scans
 * disabled, a Seq Scan left in the plan means no index can serve it. On PostgreSQL whatever the run tests.
 */
let t: TestApp;
let url = '';

beforeAll(async () => {
  const database = await postgresTestDatabase();
  url = database.url;
  t = await createTestApp({ database });
});
afterAll(async () => {
  await t.close();
});

const { drive, trader, quote, execute, placed, statusOf } = tradingSteps(() => t);

/** Tables a few rows long (reference data, settings, counters): reading them whole is the cheapest plan. */
const SMALL_TABLES = new Set([
  'assets',
  'currencies',
  'coins',
  'fee_schedule',
  'app_settings',
  'motd',
  'fiat_bank_settings',
  'incentives_policy',
  'term_deposit_options',
  'chain_cursors',
  'simulated_chain_heights',
  'deposit_address_counters',
  'platform_upgrades',
  'sanctions_lists',
  'promo_codes',
  'referral_partners',
  'staff',
]);

type Prepared = { text: string; values: unknown[] };
type Query = (this: unknown, ...args: unknown[]) => unknown;

/**
 * The named statements the app sends through pg while `work` runs, each text once with its first values,
 * and the texts of those it sent unnamed with parameters (past decision 138's bounds).
 */
async function statementsDuring(
  work: () => Promise<unknown>,
): Promise<{ prepared: Prepared[]; unnamed: string[] }> {
  const seen = new Map<string, unknown[]>();
  const unnamed: string[] = [];
  const original = Reflect.get(pg.Client.prototype, 'query') as Query;
  Reflect.set(pg.Client.prototype, 'query', function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string' && Array.isArray(second) && second.length > 0) unnamed.push(first);
    if (
      typeof first === 'object' &&
      first !== null &&
      'name' in first &&
      'text' in first &&
      'values' in first
    ) {
      const { text, values } = first;
      if (typeof text === 'string' && Array.isArray(values) && !seen.has(text)) seen.set(text, values);
    }
    return original.apply(this, args);
  });
  try {
    await work();
  } finally {
    Reflect.set(pg.Client.prototype, 'query', original);
  }
  return { prepared: [...seen].map(([text, values]) => ({ text, values })), unnamed };
}

/** A value as the text pg sends for it (pg's own conversion is not part of its typed API). */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => {
      const text = asText(item);
      return text === null ? 'NULL' : `"${text.replace(/(["\\])/g, '\\$1')}"`;
    });
    return `{${items.join(',')}}`;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint')
    return String(value);
  if (typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function literal(value: unknown): string {
  const text = asText(value);
  return text === null ? 'NULL' : pg.escapeLiteral(text);
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

function seqScans(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

/** The tables of growing size the generic plan of `statement` reads whole. */
async function wholeReadsOf(client: pg.Client, statement: Prepared): Promise<string[]> {
  await client.query(`PREPARE plan_check AS ${statement.text}`);
  try {
    // The generic plan does not depend on the values; they are the app's, so EXECUTE takes them as it did.
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) EXECUTE plan_check(${statement.values.map(literal).join(', ')})`,
    );
    const plan = rows[0]?.['QUERY PLAN'][0].Plan;
    return plan ? seqScans(plan).filter((table) => !SMALL_TABLES.has(table)) : [];
  } finally {
    await client.query('DEALLOCATE plan_check');
  }
}

describe('the generic plans of the hot statements (decision 138)', () => {
  it('prepare every statement of an execution and a fill, and read no growing table whole', async () => {
    const buyer = await trader({ gbp: 100_000n });
    const seller = await trader({ platform: 2, btc: 5_000_000n });
    await drive('20000');
    const execution = await statementsDuring(async () => {
      const offer = await quote(buyer, { quantity: '0.01' });
      expect((await execute(buyer, offer.id)).statusCode).toBe(200);
    });
    // Every statement of an execution that has parameters is within the bounds, so prepared.
    expect(execution.unnamed).toEqual([]);
    const fill = await statementsDuring(async () => {
      const order = await placed(seller, { side: 2, order_qty: '0.01', price: '21000' });
      await drive('21500');
      expect(await statusOf(order.id)).toBe('filled');
    });
    // The fill engine's statements take arrays (unnest), so their shape does not grow with the orders.
    expect(fill.unnamed).toEqual([]);
    const prepared = [...execution.prepared, ...fill.prepared];
    expect(prepared.length).toBeGreaterThan(10);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query('SET enable_seqscan = off');
      // The control: a statement no index serves is seen reading its table whole.
      const unindexed = { text: 'SELECT id FROM trades WHERE fee_percent = $1', values: ['0.5'] };
      expect(await wholeReadsOf(client, unindexed)).toEqual(['trades']);
      const findings: string[] = [];
      for (const statement of prepared) {
        const tables = await wholeReadsOf(client, statement);
        if (tables.length > 0) findings.push(`${tables.join(', ')} read whole by: ${statement.text}`);
      }
      expect(findings).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
