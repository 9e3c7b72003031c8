import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `anvil` of @foundry-rs/anvil (npm), which runs the binary its platform package ships. */
const ANVIL = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../../node_modules/.bin/anvil',
);

export type Anvil = { url: string; stop: () => Promise<void> };

/**
 * A local anvil node on a free loopback port: chain id 31337, its ten deterministic funded accounts
 * unlocked, and every transaction mined into its own block at once.
 */
export async function startAnvil(): Promise<Anvil> {
  const child: ChildProcess = spawn(ANVIL, ['--port', '0', '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`anvil did not start: ${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Listening on (\S+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve(`http://${listening[1]}`);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => reject(new Error(`anvil exited (${code}): ${output}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
