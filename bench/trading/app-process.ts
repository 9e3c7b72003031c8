/**
 * The app in its own process (bench/trading/server.ts), driven over IPC: customers made, orders crossed,
 * statements counted, the ledger checked; and the HTTP floor's bare server (bare-server.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../apps/server/src/db/index.js';
import { SERVER_NODE_FLAGS } from '../../apps/server/src/node-flags.js';
import { startPostgres, type PostgresServer } from '../../apps/server/src/test/postgres-server.js';
import { loadAverages, log } from '../support.js';
import type { CaptureMessage, CapturedMessage, Statement } from './capture.js';
import type { ChildMessage, Customer, ParentMessage } from './protocol.js';
import { CPU_PROFILE_DIR } from './settings.js';

export type Server = { child: ChildProcess; url: string; pid: number; engine: string; version: string };

export function startServer(engine: 'postgres' | 'pglite', target: string): Promise<Server> {
  return forkServer('./server.ts', [engine, target], engine);
}

/**
 * The HTTP floor (bare-server.ts): the execution's own statements behind node:http, for `customers`, with the
 * script's `values`.
 */
export function startBareServer(
  url: string,
  customers: Customer[],
  values: Record<string, string>,
): Promise<Server> {
  return forkServer('./bare-server.ts', [url, JSON.stringify({ customers, values })], 'bare');
}

function forkServer(script: string, args: string[], engine: string): Promise<Server> {
  const child = fork(new URL(script, import.meta.url), args, {
    execArgv: [
      ...SERVER_NODE_FLAGS,
      '--import',
      'tsx',
      ...(CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILE_DIR}/${engine}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<Server>((resolve, reject) => {
    child.once('message', (message: ChildMessage) => {
      if (message.type === 'listening')
        resolve({ child, url: message.url, pid: message.pid, engine, version: message.version });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

export function ask<T extends ChildMessage['type']>(
  server: Server,
  message: ParentMessage,
  answer: T,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve) => {
    const listener = (reply: ChildMessage) => {
      if (reply.type !== answer) return;
      server.child.off('message', listener);
      resolve(reply as Extract<ChildMessage, { type: T }>);
    };
    server.child.on('message', listener);
    server.child.send(message);
  });
}

export async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.send({ type: 'stop' } satisfies ParentMessage);
  await exited;
}

export type Check = Extract<ChildMessage, { type: 'checked' }>;

/** On PostgreSQL, counts (and times) the statements the app sends while `work` runs. */
export async function countingStatements<T>(
  server: Server,
  work: () => Promise<T>,
): Promise<{ value: T; statements: [string, number][] | null; waitedMs: [string, number][] | null }> {
  if (server.engine !== 'postgres') return { value: await work(), statements: null, waitedMs: null };
  await ask(server, { type: 'count', on: true }, 'counted');
  const value = await work();
  const { statements, waitedMs } = await ask(server, { type: 'count', on: false }, 'counted');
  return { value, statements, waitedMs };
}

export const totalOf = (statements: [string, number][]) =>
  statements.reduce((sum, [, count]) => sum + count, 0);
export const topStatements = (statements: [string, number][], per: number, count = 12) =>
  statements
    // Less than one in twenty: the ticks, the roll-up, the app's background jobs.
    .filter(([, value]) => value / per >= 0.05)
    .slice(0, count)
    .map(([key, value]) => `\`${key}\` ${(value / per).toFixed(1)}`)
    .join(', ');

/** Every statement the app sends while `work` runs, in full and in order (PostgreSQL only). */
export async function capturingStatements(
  server: Server,
  work: () => Promise<unknown>,
): Promise<Statement[]> {
  const exchange = (on: boolean) =>
    new Promise<Statement[]>((resolve) => {
      const listener = (reply: ChildMessage | CapturedMessage) => {
        if (reply.type !== 'captured') return;
        server.child.off('message', listener);
        resolve(reply.statements);
      };
      server.child.on('message', listener);
      server.child.send({ type: 'capture', on } satisfies CaptureMessage);
    });
  await exchange(true);
  try {
    await work();
  } catch (error) {
    // Switched off even when the work fails, so the app does not capture on.
    await exchange(false);
    throw error;
  }
  return exchange(false);
}

/**
 * A throw-away PostgreSQL server with the app on its `florin_bench` database, for a runner that measures one
 * thing on its own (fills-run.ts, tier-volume-run.ts, prepared-cpu.ts); everything stops after `work`.
 */
export async function onBenchApp<T>(
  work: (context: { postgres: PostgresServer; admin: Database; server: Server }) => Promise<T>,
): Promise<T> {
  log(`load average before: ${loadAverages()}`);
  const postgres = await startPostgres();
  const admin = await openDatabase({ engine: 'postgres', url: postgres.url('postgres'), poolSize: 1 });
  let server: Server | undefined;
  try {
    await sql`CREATE DATABASE florin_bench`.execute(admin.db);
    server = await startServer('postgres', postgres.url('florin_bench'));
    log(`Florin app (buildApp, PostgreSQL) listening on ${server.url}, pid ${server.pid}`);
    return await work({ postgres, admin, server });
  } finally {
    if (server) await stopServer(server);
    await admin.close();
    await postgres.stop();
  }
}
