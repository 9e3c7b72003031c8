/**
 * The scale benchmark (issue 14). The instant-trade workload of the trading
 * benchmark (POST /api/v1/quotes, then POST /api/v1/order with its quote_id;
 * each client its own customer on its own keep-alive connection) against the
 * real entry point, main.ts, on one throw-away PostgreSQL server, in one run:
 *
 *   1. one instance, the clients connected to it directly;
 *   2. the same instance behind Debian's nginx (what the balancer costs);
 *   3. two instances behind nginx (round robin).
 *
 * Both instances run throughout (the second idle in setups 1 and 2); rounds
 * interleave the setups so other work on the shared machine weighs on each
 * alike. Prints throughput, p50 and p99 of each and the ratio two ÷ one, and
 * writes bench/results/scale.md and its summary for the suite, scale.json.
 *
 *   npm run bench:scale   BENCH_SCALE_SECONDS (5 per stretch), BENCH_SCALE_ROUNDS (2),
 *                         BENCH_SCALE_CLIENTS (8,32), BENCH_SCALE_WAIT (30 s at most for the
 *                         load average to fall below 1.5)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../apps/server/src/db/index.js';
import { checkLedger, createLedger, describeViolations } from '../../apps/server/src/ledger/index.js';
import { createSessionStore } from '../../apps/server/src/modules/auth/sessions.js';
import { completeInvestorJourney } from '../../apps/server/src/modules/investor/test-kit.js';
import { insertApprovedVerification } from '../../apps/server/src/modules/compliance/test-customers.js';
import { createLocalStorage } from '../../apps/server/src/adapters/storage/index.js';
import { tradingDomainCheck } from '../../apps/server/src/modules/trading/service.js';
import { startMain, type MainProcess } from '../../apps/server/src/test/main-process.js';
import { startNginx, UPSTREAM_HEADER, type Nginx } from '../../apps/server/src/test/nginx.js';
import { freePort, startPostgres } from '../../apps/server/src/test/postgres-server.js';
import { findPostmaster, serverCpuSeconds } from '../ledger/probes.js';
import { machineInfo } from '../ledger/report.js';
import { percentile, processCpu, withCpu, type CpuUse } from '../ledger/workloads.js';
import {
  loadAverages,
  log,
  positiveNumber,
  textSetting,
  waitForQuietMachine,
  writeResult,
  writeSummary,
  type Comparison,
} from '../support.js';
import { executeInstant, INSTANT_QUANTITY, post, Refused, type Reply } from '../trading/instant-client.js';
import type { Customer } from '../trading/protocol.js';
import { systemClock } from '../../apps/server/src/clock.js';

/** Seconds of each timed stretch; every setup and client count gets ROUNDS of them, interleaved. */
const SECONDS = positiveNumber('BENCH_SCALE_SECONDS', 5);
const ROUNDS = Math.round(positiveNumber('BENCH_SCALE_ROUNDS', 2));
/** Untimed load on each instance before the first round, so no setup pays for a cold JIT. */
const WARM_UP_SECONDS = 5;
const CLIENT_COUNTS = (textSetting('BENCH_SCALE_CLIENTS') ?? '8,32')
  .split(',')
  .map((count) => Math.round(Number(count)))
  .filter((count) => count > 0);
const LOAD_WAIT_SECONDS = positiveNumber('BENCH_SCALE_WAIT', 30);
const LOAD_GOAL = 1.5;
/** The funding covers every execution of a run (each buys INSTANT_QUANTITY). */
const FUNDING_PENCE = 1_000_000_000n;

// ---------------------------------------------------------------------------------------------
// Customers: live, on the instant platform, funded by a bank deposit, each with a session as a
// sign-in leaves it (written straight into the database: signing up is not what is measured).

async function makeCustomers(database: Database, count: number): Promise<Customer[]> {
  const ledger = createLedger();
  const sessions = createSessionStore(database.db, systemClock);
  const rows = Array.from({ length: count }, (_, index) => {
    const unique = `S${index + 1}`;
    return {
      user_identification: `FB${unique}`,
      first_name: 'Bench',
      last_name: `Scale ${index + 1}`,
      email: `bench.scale.${index + 1}@example.com`,
      password_hash: 'not-used-by-the-benchmark',
      email_verified_at: new Date(),
      referral_code: `B${unique}`,
      status: 1,
      live_since: new Date(),
      platform: 1,
    };
  });
  const inserted = await database.db.insertInto('users').values(rows).returning('id').execute();
  const customers: Customer[] = [];
  for (const { id } of inserted) {
    const userId = Number(id);
    await insertApprovedVerification(database.db, createLocalStorage(path.join(dataDir, 'uploads')), userId);
    await completeInvestorJourney(database.db, userId);
    await ledger.postJournal(database.db, {
      idempotencyKey: `bench:scale:fund:${userId}`,
      kind: 'fiat_deposit',
      postings: [
        { account: { asset: 'GBP', kind: 'bank' }, amount: -FUNDING_PENCE },
        { account: { asset: 'GBP', kind: 'available', ownerUserId: String(userId) }, amount: FUNDING_PENCE },
      ],
    });
    const session = await sessions.create(userId, { ip: '127.0.0.1', userAgent: 'florin-bench' });
    customers.push({ id: userId, token: session.token, csrf: session.csrfToken });
  }
  await sql`ANALYZE`.execute(database.db);
  return customers;
}

// ---------------------------------------------------------------------------------------------
// HTTP clients: one keep-alive connection each, as one browser tab would use

type Setup = {
  label: string;
  url: string;
  /** The instances the clients reach (through nginx or directly). */
  instances: MainProcess[];
  nginx: Nginx | null;
};

/** One timed stretch of one setup at one client count. */
type Sample = {
  latencies: number[];
  seconds: number;
  errors: Record<string, number>;
  firstError?: string;
  cpu: CpuUse;
  /** CPU seconds of each of the setup's instances during the stretch. */
  appCpu: number[];
  nginxCpu: number | null;
  /** Requests each instance answered (through nginx), by address. */
  answered: Record<string, number>;
};

/**
 * `clients` loops, each its own customer on its own connection, executing one instant trade at a time
 * for `seconds`. Executions/s counts those that succeeded, over the wall time until the last in-flight
 * one finished.
 */
async function sample(
  setup: Setup,
  customers: Customer[],
  clients: number,
  seconds: number,
  postgresCpu: () => number,
): Promise<Sample> {
  const agents = Array.from({ length: clients }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    // Not counted: the connections (to nginx, and nginx's to the instances) open first.
    await Promise.all(agents.map((agent, index) => executeInstant(agent, setup.url, customers[index]!)));
    const latencies: number[] = [];
    const errors: Record<string, number> = {};
    const answered: Record<string, number> = {};
    let firstError: string | undefined;
    const app0 = setup.instances.map((instance) => processCpu(instance.child.pid ?? 0)?.own ?? 0);
    const nginx0 = setup.nginx ? serverCpuSeconds(setup.nginx.pid) : null;
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const { cpu } = await withCpu(
      () =>
        Promise.all(
          agents.map(async (agent, index) => {
            const customer = customers[index]!;
            while (performance.now() < deadline) {
              const t0 = performance.now();
              try {
                const upstreams = (await executeInstant(agent, setup.url, customer)).map(answeredBy);
                latencies.push(performance.now() - t0);
                for (const upstream of upstreams)
                  if (upstream) answered[upstream] = (answered[upstream] ?? 0) + 1;
              } catch (error) {
                const key = error instanceof Refused ? error.key : 'network';
                errors[key] = (errors[key] ?? 0) + 1;
                firstError ??= error instanceof Error ? error.message : String(error);
              }
            }
          }),
        ),
      postgresCpu,
    );
    return {
      latencies,
      seconds: (performance.now() - started) / 1000,
      errors,
      firstError,
      cpu,
      appCpu: setup.instances.map(
        (instance, index) => (processCpu(instance.child.pid ?? 0)?.own ?? 0) - app0[index]!,
      ),
      nginxCpu: setup.nginx && nginx0 !== null ? serverCpuSeconds(setup.nginx.pid) - nginx0 : null,
      answered,
    };
  } finally {
    for (const agent of agents) agent.destroy();
  }
}

/** A setup at a client count over every round: the samples pooled. */
type Run = {
  setup: string;
  instances: number;
  clients: number;
  executions: number;
  seconds: number;
  perSecond: number;
  /** Executions/s of each round, in order. */
  rounds: number[];
  p50: number;
  p99: number;
  errors: Record<string, number>;
  firstError?: string;
  cpu: CpuUse;
  appCpu: number[];
  nginxCpu: number | null;
  answered: Record<string, number>;
};

function pool(setup: Setup, clients: number, samples: Sample[]): Run {
  const latencies = samples.flatMap((item) => item.latencies);
  const sorted = Float64Array.from(latencies).sort();
  const seconds = samples.reduce((sum, item) => sum + item.seconds, 0);
  const add = (records: Record<string, number>[]) => {
    const total: Record<string, number> = {};
    for (const record of records)
      for (const [key, count] of Object.entries(record)) total[key] = (total[key] ?? 0) + count;
    return total;
  };
  const sum = (pick: (item: Sample) => number) => samples.reduce((total, item) => total + pick(item), 0);
  return {
    setup: setup.label,
    instances: setup.instances.length,
    clients,
    executions: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    rounds: samples.map((item) => item.latencies.length / item.seconds),
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    errors: add(samples.map((item) => item.errors)),
    firstError: samples.find((item) => item.firstError)?.firstError,
    cpu: {
      wall: sum((item) => item.cpu.wall),
      node: sum((item) => item.cpu.node),
      children: sum((item) => item.cpu.children),
      server: sum((item) => item.cpu.server ?? 0),
      machine: sum((item) => item.cpu.machine),
    },
    appCpu: setup.instances.map((_, index) => sum((item) => item.appCpu[index] ?? 0)),
    nginxCpu: setup.nginx ? sum((item) => item.nginxCpu ?? 0) : null,
    answered: add(samples.map((item) => item.answered)),
  };
}

function describeRun(run: Run): string {
  return (
    `${run.setup} ×${run.clients}: ${run.executions} executions in ${run.seconds.toFixed(1)} s = ` +
    `${run.perSecond.toFixed(1)}/s (rounds ${run.rounds.map((value) => value.toFixed(0)).join(', ')}), ` +
    `p50 ${run.p50.toFixed(1)} ms, p99 ${run.p99.toFixed(1)} ms; errors ${JSON.stringify(run.errors)}` +
    `${run.firstError ? ` (first: ${run.firstError})` : ''}; CPU s: app ${run.appCpu.map((value) => value.toFixed(1)).join(' + ')}, ` +
    `nginx ${run.nginxCpu === null ? '–' : run.nginxCpu.toFixed(1)}, PostgreSQL ${(run.cpu.server ?? 0).toFixed(1)}, ` +
    `clients ${run.cpu.node.toFixed(1)}, machine ${run.cpu.machine.toFixed(1)} of ${(run.cpu.wall * os.availableParallelism()).toFixed(1)}; ` +
    `answered ${JSON.stringify(run.answered)}`
  );
}

/** The instance that answered: the last of those nginx tried (its X-Florin-Upstream header). */
function answeredBy(reply: Reply): string {
  return (
    String(reply.headers[UPSTREAM_HEADER] ?? '')
      .split(',')
      .at(-1)
      ?.trim() ?? ''
  );
}

/** A fresh instance quotes once the leader's relayed ticks have reached it; until then it may refuse. */
async function waitUntilQuoting(url: string, customer: Customer): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const deadline = performance.now() + 30_000;
  try {
    for (;;) {
      const reply = await post(agent, url, '/api/v1/quotes', customer, {
        side: 'buy',
        coin_id: 'btc',
        quantity: INSTANT_QUANTITY,
      });
      if (reply.status === 200) return;
      if (performance.now() > deadline)
        throw new Error(`${url} does not quote: ${reply.status} ${reply.body}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// The run

const loadBefore = await waitForQuietMachine({ goal: LOAD_GOAL, seconds: LOAD_WAIT_SECONDS, pollMs: 10_000 });
log(`load average before: ${loadAverages()}`);
const postgres = await startPostgres();
log(`PostgreSQL on port ${postgres.port}`);
const admin = await openDatabase({ engine: 'postgres', url: postgres.url('postgres'), poolSize: 1 });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'florin-bench-scale-'));
const instances: MainProcess[] = [];
const balancers: Nginx[] = [];
let own: Database | undefined;
try {
  await sql`CREATE DATABASE florin_scale`.execute(admin.db);
  const postmaster = await findPostmaster(admin.db);
  const postgresCpu = () => serverCpuSeconds(postmaster);
  const pgVersion =
    (await sql<{ version: string }>`SELECT version()`.execute(admin.db)).rows[0]?.version ?? 'PostgreSQL';
  const env = {
    // Production mode requires SMTP_URL (and an https PUBLIC_URL): every trade's mail would then be an SMTP
    // conversation the benchmark measured too. Development differs only in the dev routes, the dev mailbox
    // (each mail one insert, as bench/trading writes it) and the Secure/HSTS flags.
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATABASE_URL: postgres.url('florin_scale'),
    DATA_DIR: dataDir,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ADMIN_PASSWORD: 'bench-scale-Admin-Password',
    // Every client of the benchmark comes from 127.0.0.1.
    RATE_LIMIT_PER_MINUTE: '100000000',
    PRICE_SEED: 'bench-scale',
  };

  // The first instance migrates the empty database and becomes the leader; the second follows it.
  const first = await startMain({ port: await freePort(), env });
  instances.push(first);
  log(`instance 1 (main.ts) on ${first.address}, pid ${first.child.pid}`);
  const second = await startMain({ port: await freePort(), env });
  instances.push(second);
  log(`instance 2 on ${second.address}, pid ${second.child.pid}`);
  own = await openDatabase({ engine: 'postgres', url: postgres.url('florin_scale'), poolSize: 2 });
  const maxClients = Math.max(...CLIENT_COUNTS);
  const customers = await makeCustomers(own, maxClients);
  log(`${customers.length} customers made`);
  const nginxOne = await startNginx({ upstreams: [first.address] });
  const nginxTwo = await startNginx({ upstreams: [first.address, second.address] });
  balancers.push(nginxOne, nginxTwo);

  const setups: Setup[] = [
    { label: 'one instance, direct', url: first.url, instances: [first], nginx: null },
    { label: 'one instance behind nginx', url: nginxOne.url, instances: [first], nginx: nginxOne },
    { label: 'two instances behind nginx', url: nginxTwo.url, instances: [first, second], nginx: nginxTwo },
  ];
  for (const instance of [first, second]) {
    await waitUntilQuoting(instance.url, customers[0]!);
    const direct: Setup = { label: 'warm-up', url: instance.url, instances: [instance], nginx: null };
    await sample(direct, customers, maxClients, WARM_UP_SECONDS, postgresCpu);
  }
  log(`both instances warmed up (${WARM_UP_SECONDS} s of ${maxClients} clients each)`);

  // Rounds interleave the setups, so other work on the machine weighs on each about equally. During the
  // one-instance setups the second instance is up but idle (a follower: it only hears the ticks).
  const samples = new Map<string, Sample[]>();
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const clients of CLIENT_COUNTS) {
      for (const setup of setups) {
        const taken = await sample(setup, customers, clients, SECONDS, postgresCpu);
        const key = `${setup.label}|${clients}`;
        samples.set(key, [...(samples.get(key) ?? []), taken]);
        log(
          `round ${round}: ${setup.label} ×${clients}: ${(taken.latencies.length / taken.seconds).toFixed(1)}/s, ` +
            `errors ${JSON.stringify(taken.errors)}${taken.firstError ? ` (first: ${taken.firstError})` : ''}`,
        );
      }
    }
  }
  const runs = CLIENT_COUNTS.flatMap((clients) =>
    setups.map((setup) => pool(setup, clients, samples.get(`${setup.label}|${clients}`) ?? [])),
  );
  for (const run of runs) log(describeRun(run));

  const checkStarted = performance.now();
  const check = await checkLedger(own.db, [tradingDomainCheck]);
  const checkSeconds = (performance.now() - checkStarted) / 1000;
  log(
    `checkLedger ${check.ok ? 'passed' : `FAILED\n${describeViolations(check)}`} in ${checkSeconds.toFixed(1)} s`,
  );

  const markdown = renderReport({
    loadBefore,
    loadAfter: os.loadavg(),
    pgVersion,
    runs,
    ledger: { ok: check.ok, violations: describeViolations(check), seconds: checkSeconds },
  });
  console.log(markdown);
  log(`wrote ${await writeResult('scale.md', markdown)}`);
  log(`wrote ${await writeSummary('scale', { workloads: comparisons(runs) })}`);
} finally {
  for (const balancer of balancers) await balancer.stop();
  for (const instance of instances) await instance.stop('SIGTERM');
  await own?.close();
  await admin.close();
  await postgres.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// The report

/** Each setup behind nginx beside one instance reached directly, same run, for the suite's table. */
function comparisons(runs: Run[]): Comparison[] {
  return CLIENT_COUNTS.flatMap((clients) => {
    const direct = runs.find((run) => run.setup === 'one instance, direct' && run.clients === clients);
    if (!direct) return [];
    return runs
      .filter((run) => run.clients === clients && run !== direct)
      .map((run): Comparison => ({
        workload: `Instant executions over HTTP, ${run.setup}, ${clients} clients`,
        ours: { value: run.perSecond, unit: 'executions/s' },
        peer: {
          name: `one instance, direct, ${clients} clients`,
          value: direct.perSecond,
          unit: 'executions/s',
        },
        ratio: run.perSecond / direct.perSecond,
        better: 'higher',
        note: 'everything shares 2 cores, so this measures what nginx and a second instance cost, not scale-out',
      }));
  });
}

function renderReport(input: {
  loadBefore: number[];
  loadAfter: number[];
  pgVersion: string;
  runs: Run[];
  ledger: { ok: boolean; violations: string; seconds: number };
}): string {
  const machine = machineInfo();
  const cores = machine.cpus;
  const whole = (value: number) => Math.round(value).toLocaleString('en-GB');
  const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');
  const loads = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  const perExecution = (run: Run, seconds: number) => ms((seconds / Math.max(1, run.executions)) * 1000);
  const errorsOf = (run: Run) =>
    Object.keys(run.errors).length === 0
      ? '0'
      : Object.entries(run.errors)
          .map(([key, count]) => `${key}: ${count}`)
          .join(', ');
  const rows = input.runs.map((run) => {
    const split = Object.values(run.answered);
    const share =
      run.instances > 1 && split.length > 0
        ? split
            .map((count) => `${Math.round((100 * count) / split.reduce((a, b) => a + b, 0))} %`)
            .join(' / ')
        : '–';
    return `| ${run.setup} | ${run.clients} | ${whole(run.executions)} | **${run.perSecond.toFixed(0)}** | ${run.rounds.map((value) => value.toFixed(0)).join(', ')} | ${ms(run.p50)} | **${ms(run.p99)}** | ${errorsOf(run)} | ${run.appCpu.map((seconds) => perExecution(run, seconds)).join(' + ')} | ${run.nginxCpu === null ? '–' : perExecution(run, run.nginxCpu)} | ${perExecution(run, run.cpu.server ?? 0)} | ${perExecution(run, run.cpu.node)} | ${(run.cpu.machine / run.cpu.wall).toFixed(2)} of ${cores} | ${share} |`;
  });
  const ratios = CLIENT_COUNTS.map((clients) => {
    const one = input.runs.find((run) => run.setup === 'one instance, direct' && run.clients === clients);
    const viaNginx = input.runs.find(
      (run) => run.setup === 'one instance behind nginx' && run.clients === clients,
    );
    const two = input.runs.find(
      (run) => run.setup === 'two instances behind nginx' && run.clients === clients,
    );
    if (!one || !two || !viaNginx) return '';
    return `- **${clients} clients: two ÷ one = ${(two.perSecond / one.perSecond).toFixed(2)}** in throughput (${two.perSecond.toFixed(0)} ÷ ${one.perSecond.toFixed(0)} executions/s), p99 ${ms(two.p99)} ms against ${ms(one.p99)} ms; one instance behind nginx ÷ direct = ${(viaNginx.perSecond / one.perSecond).toFixed(2)} (p99 ${ms(viaNginx.p99)} ms).`;
  }).filter(Boolean);

  return `# Scale benchmark

Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:scale\` (bench/scale/run.ts).

The instant-trade workload of the trading benchmark (bench/results/trading.md) against the real entry point,
\`main.ts\` (development settings for the dev mailbox, see Settings; logging at warn; the simulated market
ticking once a second on the leader; every leader job running), two instances of it on one throw-away PostgreSQL server, in three setups measured in one run:

- **one instance, direct**: the clients connected to the first instance (the leader);
- **one instance behind nginx**: the same, through Debian's nginx (what the balancer costs);
- **two instances behind nginx**: round robin over both (the configuration of apps/server/src/test/nginx.ts and
  docs/operations.md).

Both instances start first and each gets ${WARM_UP_SECONDS} s of untimed load, so no setup pays for a cold JIT; in the
one-instance setups the second is up but idle (a follower: it only hears the ticks). Then ${ROUNDS} rounds, each
timing every setup at every client count for ${SECONDS} s, interleaved so that other work on the machine weighs on
each about equally; the figures pool the rounds (the per-round throughputs are listed to show the spread). Each
client is its own live customer (funded by a bank deposit, with a session written as a sign-in leaves it) on its
own keep-alive connection, doing one execution at a time (a quote for 0.01 BTC, then the order that executes it).
Latency is per execution (both requests); CPU is read from /proc, in ms per execution.

**This machine cannot show scale-out.** It has ${cores} cores (${machine.cpuModel}, ${machine.memoryGiB.toFixed(1)} GiB,
Node ${machine.node}, ${machine.os}). The second instance shares the same ${cores} cores with the first, with
PostgreSQL, with nginx and with the benchmark's clients, and other engineers were building and testing on them. So
the ratio below measures what a second instance and a balancer cost, not what a second machine would add: on
separate machines the instances' CPU (the largest share per execution, the table shows) would no longer be shared.
Load average before the run ${loads(input.loadBefore)} (the run waits up to ${LOAD_WAIT_SECONDS} s for the 1-minute figure to
fall below ${LOAD_GOAL}), after it ${loads(input.loadAfter)}. Absolute figures move by tens of percent between invocations.

## Result

${ratios.join('\n')}

| Setup | Clients | Executions | Executions/s | per round | p50 ms | p99 ms | Errors | app CPU ms (per instance) | nginx CPU ms | PostgreSQL CPU ms | client CPU ms | machine busy (cores) | answered (instance 1 / 2) |
|---|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---|
${rows.join('\n')}

nginx splits the requests evenly. The first instance is the leader: besides its half of the requests it produces
the ticks, writes the candles and runs the jobs; the follower receives the ticks through LISTEN/NOTIFY. "machine
busy" counts every process on the machine, this run's or not (the load average above says how busy it was).

## Ledger

\`checkLedger\` with the trading check **${input.ledger.ok ? 'passed' : 'FAILED'}** after the runs (${input.ledger.seconds.toFixed(1)} s).${input.ledger.ok ? '' : `\n\n\`\`\`\n${input.ledger.violations}\n\`\`\``}

## Settings

- ${input.pgVersion}; the throw-away server of \`apps/server/src/test/postgres-server.ts\` on loopback TCP (fsync=off,
  synchronous_commit=off, full_page_writes=off: the figures measure CPU and round trips, not the disk). Each
  instance's pool: 20 connections.
- nginx: Debian's package, one worker, HTTP/1.1 keep-alive to the instances (\`keepalive 32\`), started as a child
  process with a generated nginx.conf in a temporary folder.
- The instances: \`NODE_ENV=development\`, \`LOG_LEVEL=warn\`, the rate limit raised (every client is 127.0.0.1),
  the dev mailbox as the mailer (each trade's mail one insert, as in bench/trading). Production mode would require
  \`SMTP_URL\`, and every trade's mail would then be an SMTP conversation measured along with the trade; development
  mode differs otherwise only in the dev routes and the Secure cookie and HSTS flags.

## How to run

\`\`\`
npm run bench:scale                                          # from the repository root
BENCH_SCALE_SECONDS=3 BENCH_SCALE_ROUNDS=1 BENCH_SCALE_CLIENTS=16 npm run bench:scale  # a quicker run
\`\`\`

It needs PostgreSQL 15 and nginx from Debian (\`apt-get install -y postgresql nginx\`; scripts/ensure-system-deps.sh
installs both) and writes this file, \`bench/results/scale.md\`.
`;
}
