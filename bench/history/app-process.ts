/** The app in its own process (bench/history/server.ts), so its memory is measured alone. */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { SERVER_NODE_FLAGS } from '../../apps/server/src/node-flags.js';
import type { ChildMessage, ParentMessage } from './protocol.js';

export type Server = { child: ChildProcess; url: string; pid: number };

export async function startServer(databaseUrl: string): Promise<Server> {
  const child = fork(new URL('./server.ts', import.meta.url), [databaseUrl], {
    execArgv: [...SERVER_NODE_FLAGS, '--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<Server>((resolve, reject) => {
    child.once('message', (message: ChildMessage) => {
      if (message.type === 'listening') resolve({ child, url: message.url, pid: message.pid });
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

/** The server process's resident memory as the kernel counts it, read from outside every SAMPLE_MS. */
export function procStatus(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') * 1024, hwm: kib('VmHWM') * 1024 };
}

/** Resets the kernel's peak-RSS mark (VmHWM) of the process, so it counts from now; false if not allowed. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Asks the app's process to stop, and waits until it has. */
export async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.send({ type: 'stop' } satisfies ParentMessage);
  await exited;
}
