import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
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
