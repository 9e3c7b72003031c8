/** The scale benchmark's report: bench/results/scale.md, and scale.json for the suite. */
import { machineInfo } from '../ledger/report.js';
import { log, writeResult, writeSummary, type Comparison } from '../support.js';
import type { Run } from './load.js';
import { CLIENT_COUNTS, LOAD_GOAL, LOAD_WAIT_SECONDS, ROUNDS, SECONDS, WARM_UP_SECONDS } from './settings.js';

type ReportInput = {
  loadBefore: number[];
  loadAfter: number[];
  pgVersion: string;
  runs: Run[];
  ledger: { ok: boolean; violations: string; seconds: number };
};

/** Prints the report and writes it with its summary for the suite. */
export async function writeReport(input: ReportInput): Promise<void> {
  const markdown = renderReport(input);
  console.log(markdown);
  log(`wrote ${await writeResult('scale.md', markdown)}`);
  log(`wrote ${await writeSummary('scale', { workloads: comparisons(input.runs) })}`);
}

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

function renderReport(input: ReportInput): string {
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
