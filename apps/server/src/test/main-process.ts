import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../db/index.js';
import { SERVER_NODE_FLAGS } from '../node-flags.js';
import { startPostgres, type PostgresServer } from './postgres-server.js';

/**
 * The real entry point (main.ts, as `npm start` runs it) in its own process
 * on a port, for tests and benchmarks that need several instances: started,
 * waited for until it says it is running, killed or stopped by signal.
 */
const mainFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '../main.ts');

export type MainProcess = {
  child: ChildProcess;
  port: number;
  /** `127.0.0.1:port`, as nginx's upstream and the X-Florin-Upstream header name it. */
  address: string;
  url: string;
  /** Everything it printed so far (stdout and stderr interleaved), for a failing test's message. */
  output: () => string;
  /** Resolves with the exit code (null when a signal ended it) once the process has exited. */
  exited: Promise<number | null>;
  /** Sends the signal and waits for the exit. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
};

export async function startMain(options: {
  port: number;
  env: Record<string, string>;
  /** How long to wait for "Florin is running" (migrations and the simulated past on a fresh database). */
  timeoutMs?: number;
}): Promise<MainProcess> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', mainFile], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(options.port),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const address = `127.0.0.1:${options.port}`;

  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  while (!output.includes('Florin is running')) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`main.ts on ${address} exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`main.ts on ${address} did not start in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    child,
    port: options.port,
    address,
    url: `http://${address}`,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * What the tests that run main.ts on the real engine start from: a throw-away
 * PostgreSQL server with an empty `florin` database, the environment main.ts
 * runs on it with (a developer's settings, `dataDir` for its files, its own
 * encryption key, the loopback believed as the proxy in front, no chain
 * watch; a test adds its own), and the test's own connection to the database.
 */
export async function postgresForMain(options: {
  dataDir: string;
  /** Keep synchronous_commit on (startPostgres): for a test that kills the database. */
  durableCommits?: boolean;
}): Promise<{ server: PostgresServer; env: Record<string, string>; database: Database }> {
  const server = await startPostgres({ durableCommits: options.durableCommits ?? false });
  try {
    const admin = await openDatabase({ engine: 'postgres', url: server.url(), poolSize: 1 });
    await sql`CREATE DATABASE florin`.execute(admin.db);
    await admin.close();
  } catch (error) {
    // The caller never gets the server to stop.
    await server.stop();
    throw error;
  }
  const env = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    DATABASE_URL: server.url('florin'),
    DATA_DIR: options.dataDir,
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ADMIN_PASSWORD: 'scale-test-Admin-Password',
    TRUST_PROXY: '127.0.0.1',
    CHAIN_WATCH_INTERVAL_MS: '0',
  };
  const database = await openDatabase({ engine: 'postgres', url: server.url('florin'), poolSize: 2 });
  return { server, env, database };
}
