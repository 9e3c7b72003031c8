import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import { AppError } from '@florin/contracts';
import type { DB } from '../../apps/server/src/db/schema.js';
import type { JournalInput, JournalResult, UserAccountRef } from '../../apps/server/src/ledger/index.js';

/** The one ledger call the benchmark drives; the real ledger and a bench prototype both fit. */
export type PostJournal = (db: Kysely<DB>, input: JournalInput) => Promise<JournalResult>;

export const USERS = 1_000;
/** £10,000,000.00 each, so no transfer or buy in a run can run a customer dry. */
const GBP_FUNDING = 1_000_000_000n;
/** 1 BTC each. */
const BTC_FUNDING = 100_000_000n;
/** The house trading book starts with 1,000 BTC to sell from. */
const INVENTORY_BTC = 100_000_000_000n;
/** A buy at £50,000.00 per BTC, 0.5% fee: integers throughout, the house rounds up. */
const PENCE_PER_BTC = 5_000_000n;
const SATS_PER_BTC = 100_000_000n;
const FEE_BASIS_POINTS = 50n;

const available = (user: string, asset: 'GBP' | 'BTC'): UserAccountRef => ({
  asset,
  kind: 'available',
  ownerUserId: user,
});
const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

export type Workload = {
  name: 'transfer' | 'trade';
  legs: number;
  journal: (key: string) => JournalInput;
};

/** The two workloads over the seeded customers' ids. */
export function workloads(users: readonly string[]): Workload[] {
  const pick = (index: number) => users[index] as string;
  /** 2 legs: GBP from one random customer's available account to another's. */
  const transfer: Workload = {
    name: 'transfer',
    legs: 2,
    journal: (key) => {
      const from = randomInt(0, users.length - 1);
      const to = (from + randomInt(1, users.length - 1)) % users.length;
      const amount = BigInt(randomInt(1, 10_000));
      return {
        idempotencyKey: key,
        // The ledger has no customer-to-customer kind yet; the postings are what count.
        kind: 'adjustment',
        reference: `bench-transfer:${key}`,
        postings: [
          { account: available(pick(from), 'GBP'), amount: -amount },
          { account: available(pick(to), 'GBP'), amount },
        ],
      };
    },
  };

  /**
   * 5 legs, LEDGER.md's instant or market buy: Dr user:GBP cost+fee / Cr
   * inventory:GBP cost / Cr fee_revenue:GBP fee; Dr inventory:BTC qty / Cr user:BTC qty.
   */
  const trade: Workload = {
    name: 'trade',
    legs: 5,
    journal: (key) => {
      const user = pick(randomInt(0, users.length - 1));
      const qty = BigInt(randomInt(10_000, 1_000_000));
      const cost = ceilDiv(qty * PENCE_PER_BTC, SATS_PER_BTC);
      const fee = ceilDiv(cost * FEE_BASIS_POINTS, 10_000n);
      return {
        idempotencyKey: key,
        kind: 'trade',
        reference: `quote:${key}`,
        metadata: { quoteId: key, side: 'buy', price: '50000.00', feeRate: '0.5%', qty: qty.toString() },
        postings: [
          { account: available(user, 'GBP'), amount: -(cost + fee) },
          { account: { asset: 'GBP', kind: 'inventory' }, amount: cost },
          { account: { asset: 'GBP', kind: 'fee_revenue' }, amount: fee },
          { account: { asset: 'BTC', kind: 'inventory' }, amount: -qty },
          { account: available(user, 'BTC'), amount: qty },
        ],
      };
    },
  };
  return [transfer, trade];
}

/** Runs `count` tasks with at most `concurrency` in flight. */
async function inParallel(count: number, concurrency: number, task: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next;
        next += 1;
        await task(index);
      }
    }),
  );
}

/** Customer rows, as registration leaves them (accounts.owner_user_id references users). */
async function createUsers(db: Kysely<DB>): Promise<string[]> {
  const rows = await db
    .insertInto('users')
    .values(
      Array.from({ length: USERS }, (_, index) => ({
        user_identification: `FLBENCH${index}`,
        first_name: 'Bench',
        last_name: `Customer ${index}`,
        email: `bench-${index}@example.test`,
        password_hash: 'not-a-password',
        referral_code: `bench${index}`,
        referred_by_user_id: null,
        email_verified_at: new Date(),
      })),
    )
    .returning('id')
    .execute();
  return rows.map((row) => String(row.id));
}

/**
 * 1,000 customers, each funded by a GBP and a BTC deposit journal (Dr bank /
 * Cr user, Dr custody / Cr user), and BTC moved into the house inventory.
 */
export async function seed(
  post: PostJournal,
  db: Kysely<DB>,
  concurrency: number,
): Promise<{ users: string[]; journals: number; seconds: number }> {
  const started = performance.now();
  const users = await createUsers(db);
  await post(db, {
    idempotencyKey: 'bench:seed:inventory',
    kind: 'adjustment',
    reference: 'bench-seed',
    postings: [
      { account: { asset: 'BTC', kind: 'custody' }, amount: -INVENTORY_BTC },
      { account: { asset: 'BTC', kind: 'inventory' }, amount: INVENTORY_BTC },
    ],
  });
  await inParallel(users.length * 2, concurrency, async (index) => {
    const user = users[Math.floor(index / 2)] as string;
    const fiat = index % 2 === 0;
    await post(db, {
      idempotencyKey: `bench:seed:${fiat ? 'gbp' : 'btc'}:${user}`,
      kind: fiat ? 'fiat_deposit' : 'crypto_deposit',
      reference: `bench-seed:${user}`,
      postings: fiat
        ? [
            { account: { asset: 'GBP', kind: 'bank' }, amount: -GBP_FUNDING },
            { account: available(user, 'GBP'), amount: GBP_FUNDING },
          ]
        : [
            { account: { asset: 'BTC', kind: 'custody' }, amount: -BTC_FUNDING },
            { account: available(user, 'BTC'), amount: BTC_FUNDING },
          ],
    });
  });
  return { users, journals: users.length * 2 + 1, seconds: (performance.now() - started) / 1000 };
}

/** Core-seconds of CPU spent while a run went on. */
export type CpuUse = {
  wall: number;
  /** The benchmark's Node process: the ledger, Kysely, pg, and for PGlite the database too. */
  node: number;
  /** Child processes Node reaped during the run: pgbench. */
  children: number;
  /** The PostgreSQL server: postmaster, backends and background processes. */
  server: number | null;
  /** Every core of the machine, whoever used it (other work on the machine shows up here). */
  machine: number;
};

export type RunResult = {
  journals: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: Record<string, number>;
  firstError?: string;
  cpu: CpuUse;
};

export function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

function machineBusySeconds(): number {
  let busy = 0;
  for (const cpu of os.cpus()) busy += cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq;
  return busy / 1000;
}

const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** utime+stime and cutime+cstime of a process, in seconds, from /proc. */
export function processCpu(pid: number | 'self'): { ppid: number; own: number; children: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text
      .slice(text.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const at = (field: number) => fields[field - 3] ?? 0;
    return { ppid: at(4), own: (at(14) + at(15)) / TICKS, children: (at(16) + at(17)) / TICKS };
  } catch {
    return null;
  }
}

/** Measures what the machine's CPUs did while `work` ran; `server` reads a server's CPU seconds so far. */
export async function withCpu<T>(
  work: () => Promise<T>,
  server?: () => number,
): Promise<{ value: T; cpu: CpuUse }> {
  const node0 = process.cpuUsage();
  const children0 = processCpu('self')?.children ?? 0;
  const machine0 = machineBusySeconds();
  const server0 = server?.();
  const started = performance.now();
  const value = await work();
  const wall = (performance.now() - started) / 1000;
  const node = process.cpuUsage(node0);
  return {
    value,
    cpu: {
      wall,
      node: (node.user + node.system) / 1e6,
      children: (processCpu('self')?.children ?? 0) - children0,
      server: server && server0 !== undefined ? server() - server0 : null,
      machine: machineBusySeconds() - machine0,
    },
  };
}

/**
 * `clients` loops, each awaiting one journal at a time until the time is up.
 * Journals/s counts the journals that committed, over the wall time until the
 * last in-flight one finished.
 */
export async function runClients(
  clients: number,
  seconds: number,
  op: (client: number, seq: number) => Promise<unknown>,
  server?: () => number,
): Promise<RunResult> {
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const { cpu } = await withCpu(
    () =>
      Promise.all(
        Array.from({ length: clients }, async (_, client) => {
          for (let seq = 0; performance.now() < deadline; seq += 1) {
            const t0 = performance.now();
            try {
              await op(client, seq);
              latencies.push(performance.now() - t0);
            } catch (error) {
              const code = error instanceof AppError ? error.code : 'unexpected';
              errors[code] = (errors[code] ?? 0) + 1;
              firstError ??= error instanceof Error ? error.message : String(error);
            }
          }
        }),
      ),
    server,
  );
  const elapsed = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    journals: latencies.length,
    seconds: elapsed,
    perSecond: latencies.length / elapsed,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    errors,
    firstError,
    cpu,
  };
}
