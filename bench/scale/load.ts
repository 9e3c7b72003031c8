/**
 * The measured load: clients executing instant trades against a setup (one instance, or nginx in front of
 * one or two), each on one keep-alive connection as one browser tab would use, in interleaved rounds.
 */
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { MainProcess } from '../../apps/server/src/test/main-process.js';
import { UPSTREAM_HEADER, type Nginx } from '../../apps/server/src/test/nginx.js';
import { serverCpuSeconds } from '../ledger/probes.js';
import { percentile, processCpu, withCpu, type CpuUse } from '../ledger/workloads.js';
import { log } from '../support.js';
import { executeInstant, INSTANT_QUANTITY, post, Refused, type Reply } from '../trading/instant-client.js';
import type { Customer } from '../trading/protocol.js';
import { CLIENT_COUNTS, ROUNDS, SECONDS, WARM_UP_SECONDS } from './settings.js';

export type Setup = {
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
export type Run = {
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

/** Each instance quoting, then given WARM_UP_SECONDS of untimed load, so no setup pays for a cold JIT. */
export async function warmUp(
  instances: MainProcess[],
  customers: Customer[],
  postgresCpu: () => number,
): Promise<void> {
  const maxClients = Math.max(...CLIENT_COUNTS);
  for (const instance of instances) {
    await waitUntilQuoting(instance.url, customers[0]!);
    const direct: Setup = { label: 'warm-up', url: instance.url, instances: [instance], nginx: null };
    await sample(direct, customers, maxClients, WARM_UP_SECONDS, postgresCpu);
  }
  log(`both instances warmed up (${WARM_UP_SECONDS} s of ${maxClients} clients each)`);
}

/** Every setup at every client count, ROUNDS times, the samples of each pooled. */
export async function runRounds(
  setups: Setup[],
  customers: Customer[],
  postgresCpu: () => number,
): Promise<Run[]> {
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

  return runs;
}
