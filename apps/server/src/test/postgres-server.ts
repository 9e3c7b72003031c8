import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A throw-away PostgreSQL server on a random loopback port, for the API suite
 * on the real engine and for benchmarks. Debian keeps initdb and postgres
 * outside PATH, and refuses to run them as root, hence runuser.
 */
export type PostgresServer = {
  url: (database?: string) => string;
  port: number;
  bin: string;
  stop: () => Promise<void>;
  /**
   * Kills the server as a power cut would for its processes (SIGKILL to the
   * postmaster and every backend) and starts it again on the same data and
   * port, through crash recovery.
   */
  crash: () => Promise<void>;
};

export function findPostgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((version) => fs.existsSync(path.join(root, version, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

const isRoot = process.getuid?.() === 0;

function asPostgresUser(command: string, args: string[]): [string, string[]] {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export async function startPostgres(
  options: {
    maxConnections?: number;
    /** Keep synchronous_commit on: a commit the server acknowledged survives the server being killed. */
    durableCommits?: boolean;
  } = {},
): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install -y postgresql');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-pg-'));
  const dataDir = path.join(dir, 'data');
  if (isRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const [initCmd, initArgs] = asPostgresUser(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'florin',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  execFileSync(initCmd, initArgs, { stdio: 'pipe' });
  const port = await freePort();
  const [cmd, args] = asPostgresUser(path.join(bin, 'postgres'), [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${dir}`,
    '-c',
    `max_connections=${options.maxConnections ?? 200}`,
    '-c',
    'shared_buffers=256MB',
    // A throw-away server: surviving the machine's crash is not what the tests measure (the operating
    // system keeps what was written when only the server's processes die).
    '-c',
    'fsync=off',
    '-c',
    `synchronous_commit=${options.durableCommits ? 'on' : 'off'}`,
    '-c',
    'full_page_writes=off',
  ]);
  let log = '';
  let child: ChildProcess;
  async function start(): Promise<void> {
    log = '';
    child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await waitForPort(port, child, () => log);
  }
  await start();
  const url = (database = 'postgres') => `postgres://florin@127.0.0.1:${port}/${database}`;
  return {
    crash: async () => {
      // runuser passes no signals on: find the postmaster by its pid file, freeze it so it forks no more
      // backends, kill its children, then it.
      const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(postmaster, 'SIGSTOP');
      try {
        execFileSync('pkill', ['-KILL', '-P', String(postmaster)], { stdio: 'ignore' });
      } catch {
        // No children at that moment: nothing to kill.
      }
      process.kill(postmaster, 'SIGKILL');
      // runuser stops itself when its child stops (job control): it must go too.
      child.kill('SIGKILL');
      await exited;
      // The new postmaster refuses to start while the old one's pid still names a process (a zombie
      // not yet reaped by init).
      while (isRunning(postmaster)) await new Promise((resolve) => setTimeout(resolve, 50));
      await start();
    },
    url,
    port,
    bin,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // runuser does not pass signals on to postgres, so ask pg_ctl.
        const [stopCmd, stopArgs] = asPostgresUser(path.join(bin, 'pg_ctl'), [
          '-D',
          dataDir,
          '-m',
          'fast',
          '-w',
          'stop',
        ]);
        execFileSync(stopCmd, stopArgs, { stdio: 'pipe' });
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`postgres exited: ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.end(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    // Accepting connections is not the same as ready: wait for the log line.
    if (open && log().includes('ready to accept connections')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`postgres did not start: ${log()}`);
}
