/**
 * The websocket fan-out benchmark (issue 5): 1,000 ws clients on loopback
 * subscribed to one symbol, 10 ticks a second for BENCH_WS_SECONDS (60 by
 * default), through Florin's realtime module and through a bare `ws`
 * broadcast of the same payload, taking turns in the same run. Each server runs in its own
 * process; the clients run here, and so does the clock: a tick's latency is
 * from the moment this process asks the server to tick to the moment a
 * client has the message. Writes bench/results/ws-fanout.md and its summary
 * for the suite, ws-fanout.json.
 *
 *   npm run bench:ws      BENCH_WS_SECONDS, BENCH_WS_CLIENTS, BENCH_WS_TICKS_PER_SECOND, BENCH_WS_ROUNDS
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { percentile } from '../ledger/workloads.js';
import { machineInfo } from '../ledger/report.js';
import { SYMBOL, type ChildMessage, type ParentMessage, type ServerKind } from './protocol.js';
import { computeRatio, positiveNumber, writeResult, writeSummary, type Comparison } from '../support.js';

const SECONDS = positiveNumber('BENCH_WS_SECONDS', 60);
const CLIENTS = Math.round(positiveNumber('BENCH_WS_CLIENTS', 1_000));
const TICKS_PER_SECOND = positiveNumber('BENCH_WS_TICKS_PER_SECOND', 10);
/**
 * The two servers take turns (Florin, bare, bare, Florin, …), each for SECONDS / ROUNDS at a time, so a
 * change in what else the shared machine is doing weighs on both alike.
 */
const ROUNDS = Math.round(positiveNumber('BENCH_WS_ROUNDS', 4));
/** After the last tick, how long stragglers may take before a missing message counts as lost. */
const DRAIN_MS = 3_000;

const startedAt = performance.now();
const log = (message: string) =>
  console.log(`[bench ${((performance.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${message}`);

type Result = {
  kind: ServerKind;
  clients: number;
  connectedAtEnd: number;
  ticks: number;
  seconds: number;
  messages: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  lostPerConnectedClient: number;
  clientsWithLoss: number;
};

async function startServer(kind: ServerKind): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(new URL('./server.ts', import.meta.url), [kind], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: ChildMessage) => resolve(message.url));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return { child, url };
}

type Client = { socket: WebSocket; received: Uint8Array; count: number; open: boolean };

async function openClient(url: string, onPrice: (client: Client, seq: number) => void, ticks: number) {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  const client: Client = { socket, received: new Uint8Array(ticks + 1), count: 0, open: false };
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString('utf8')) as {
        type: string;
        data?: { mid: string };
      };
      if (message.type === 'subscribed') {
        client.open = true;
        resolve();
      } else if (message.type === 'price' && message.data) {
        onPrice(client, Number.parseInt(message.data.mid, 10) - 50_000);
      }
    });
    socket.once('open', () =>
      socket.send(JSON.stringify({ type: 'subscribe', channel: 'prices', symbols: [SYMBOL] })),
    );
  });
  socket.on('close', () => (client.open = false));
  return client;
}

type Round = Result & { latencies: Float64Array };

async function measure(kind: ServerKind, roundSeconds: number): Promise<Round> {
  const { child, url } = await startServer(kind);
  const ticks = Math.round(roundSeconds * TICKS_PER_SECOND);
  const sentAt = new Float64Array(ticks + 1);
  const latencies = new Float64Array(CLIENTS * ticks);
  let messages = 0;
  const onPrice = (client: Client, seq: number) => {
    if (seq < 1 || seq > ticks || client.received[seq]) return;
    client.received[seq] = 1;
    client.count += 1;
    latencies[messages] = performance.now() - (sentAt[seq] ?? 0);
    messages += 1;
  };
  log(`${kind}: opening ${CLIENTS} clients on ${url}`);
  const clients: Client[] = [];
  for (let batch = 0; batch < CLIENTS; batch += 100) {
    const size = Math.min(100, CLIENTS - batch);
    clients.push(...(await Promise.all(Array.from({ length: size }, () => openClient(url, onPrice, ticks)))));
  }
  await sleep(500);
  log(`${kind}: ${ticks} ticks at ${TICKS_PER_SECOND}/s`);
  const started = performance.now();
  const interval = 1000 / TICKS_PER_SECOND;
  for (let seq = 1; seq <= ticks; seq += 1) {
    // Scheduled against the start, so a late tick does not push the rest back.
    const due = started + (seq - 1) * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    sentAt[seq] = performance.now();
    child.send({ type: 'tick', seq } satisfies ParentMessage);
  }
  await sleep(DRAIN_MS);
  const seconds = (performance.now() - started - DRAIN_MS) / 1000;
  const connected = clients.filter((client) => client.open);
  const lost = connected.reduce((sum, client) => sum + (ticks - client.count), 0);
  for (const client of clients) client.socket.terminate();
  child.send({ type: 'stop' } satisfies ParentMessage);
  await new Promise((resolve) => child.once('exit', resolve));

  const sorted = latencies.subarray(0, messages).sort();
  return {
    latencies: sorted,
    kind,
    clients: CLIENTS,
    connectedAtEnd: connected.length,
    ticks,
    seconds,
    messages,
    perSecond: messages / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    lostPerConnectedClient: connected.length > 0 ? lost / connected.length : Number.NaN,
    clientsWithLoss: connected.filter((client) => client.count < ticks).length,
  };
}

const ms = (value: number) => value.toFixed(2);
const whole = (value: number) => Math.round(value).toLocaleString('en-GB');

function render(results: Result[], loadBefore: number[], roundRows: string[]): string {
  const [florin, bare] = results as [Result, Result];
  const ratio = florin.p99 / bare.p99;
  const machine = machineInfo();
  const rows = results.map(
    (result) =>
      `| ${result.kind === 'florin' ? 'Florin realtime module (Fastify + @fastify/websocket)' : 'bare `ws` broadcast'} | ${whole(result.clients)} | ${whole(result.connectedAtEnd)} | ${whole(result.ticks)} | ${ms(result.p50)} | ${ms(result.p99)} | ${ms(result.max)} | ${whole(result.perSecond)} | ${result.lostPerConnectedClient.toFixed(2)} | ${result.clientsWithLoss} |`,
  );
  const lossless = results.every((result) => result.lostPerConnectedClient === 0);
  return `# Websocket fan-out benchmark

Run on ${new Date().toISOString().slice(0, 10)} with \`npm run bench:ws\` (bench/ws-fanout/run.ts).

${whole(CLIENTS)} \`ws\` clients on loopback, all subscribed to ${SYMBOL}; ${TICKS_PER_SECOND} ticks a second for ${SECONDS} s,
through Florin's realtime module (apps/server/src/modules/realtime: hub + /ws route on Fastify) and through a
bare \`ws\` server broadcasting the same payload, in the same run: ${ROUNDS} rounds of ${SECONDS / ROUNDS} s each,
taking turns (Florin, bare, bare, Florin, …), fresh clients and a fresh server process each round. Each server
runs in its own process; the clients and the clock run in the benchmark process. Latency is from the moment
the benchmark asks the server to tick (over IPC) to the moment a client has parsed the message.

**Shared machine**: ${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGiB.toFixed(1)} GiB, Node ${machine.node},
${machine.os}. Other engineers were building and testing on the same 2 cores during the run (load average
before it: ${loadBefore.map((value) => value.toFixed(2)).join(', ')}), so the absolute figures are noisy; the
two servers took turns under the same conditions, which is what the ratio compares.

| Server | Clients | Connected at end | Ticks | p50 ms | p99 ms | max ms | messages/s | lost ticks per connected client | clients with a loss |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}

Round by round (in the order they ran), to show how much the shared machine moves the figures:

| Round | Server | p50 ms | p99 ms | max ms | lost ticks per connected client |
|---:|---|---:|---:|---:|---:|
${roundRows.join('\n')}

**p99 ratio (Florin / bare ws): ${ratio.toFixed(2)}** — goal ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'}.
No tick lost for a connected client: ${lossless ? 'met' : 'NOT met'}.
`;
}

/** Florin's figures beside bare ws's, for the suite's table. */
function comparisons(results: Result[]): Comparison[] {
  const [florin, bare] = results as [Result, Result];
  const load = `${whole(CLIENTS)} clients, ${TICKS_PER_SECOND} ticks/s`;
  const peer = 'bare `ws` broadcast';
  const p99Ratio = florin.p99 / bare.p99;
  return [
    {
      workload: `Price fan-out, ${load}: p99 latency`,
      ours: { value: florin.p99, unit: 'ms' },
      peer: { name: peer, value: bare.p99, unit: 'ms' },
      ratio: p99Ratio,
      better: 'lower',
      goal: { target: '≤ 1.5 × bare ws', met: p99Ratio <= 1.5 },
    },
    {
      workload: `Price fan-out, ${load}: p50 latency`,
      ours: { value: florin.p50, unit: 'ms' },
      peer: { name: peer, value: bare.p50, unit: 'ms' },
      ratio: florin.p50 / bare.p50,
      better: 'lower',
    },
    {
      workload: `Price fan-out, ${load}: lost ticks per connected client`,
      ours: { value: florin.lostPerConnectedClient, unit: 'ticks' },
      peer: { name: peer, value: bare.lostPerConnectedClient, unit: 'ticks' },
      ratio: computeRatio(florin.lostPerConnectedClient, bare.lostPerConnectedClient),
      better: 'lower',
      goal: { target: 'none lost', met: florin.lostPerConnectedClient === 0 },
    },
  ];
}

/** One kind's rounds as one result: latencies pooled, losses and counts summed. */
function combine(kind: ServerKind, rounds: Round[]): Result {
  const all = new Float64Array(rounds.reduce((sum, round) => sum + round.latencies.length, 0));
  let offset = 0;
  for (const round of rounds) {
    all.set(round.latencies, offset);
    offset += round.latencies.length;
  }
  all.sort();
  const sum = (pick: (round: Round) => number) => rounds.reduce((total, round) => total + pick(round), 0);
  const seconds = sum((round) => round.seconds);
  const connectedClientRounds = sum((round) => round.connectedAtEnd);
  return {
    kind,
    clients: CLIENTS,
    connectedAtEnd: Math.min(...rounds.map((round) => round.connectedAtEnd)),
    ticks: sum((round) => round.ticks),
    seconds,
    messages: all.length,
    perSecond: all.length / seconds,
    p50: percentile(all, 0.5),
    p99: percentile(all, 0.99),
    max: all[all.length - 1] ?? Number.NaN,
    lostPerConnectedClient:
      connectedClientRounds > 0
        ? sum((round) => round.lostPerConnectedClient * round.connectedAtEnd) /
          (connectedClientRounds / rounds.length)
        : Number.NaN,
    clientsWithLoss: sum((round) => round.clientsWithLoss),
  };
}

const loadBefore = os.loadavg();
const rounds: Record<ServerKind, Round[]> = { florin: [], bare: [] };
const roundRows: string[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  const order: ServerKind[] = round % 2 === 0 ? ['florin', 'bare'] : ['bare', 'florin'];
  for (const kind of order) {
    const result = await measure(kind, SECONDS / ROUNDS);
    rounds[kind].push(result);
    roundRows.push(
      `| ${round + 1} | ${kind} | ${ms(result.p50)} | ${ms(result.p99)} | ${ms(result.max)} | ${result.lostPerConnectedClient.toFixed(2)} |`,
    );
  }
}
const results = [combine('florin', rounds.florin), combine('bare', rounds.bare)];
for (const result of results) log(JSON.stringify(result));
const markdown = render(results, loadBefore, roundRows);
console.log(markdown);
log(`wrote ${await writeResult('ws-fanout.md', markdown)}`);
log(`wrote ${await writeSummary('ws-fanout', { workloads: comparisons(results) })}`);
