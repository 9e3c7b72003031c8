import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { inject } from 'vitest';
import {
  currentHolder,
  FolderInUseError,
  LOCK_FILE,
  lockFolder,
  replaceStale,
  type LockHolder,
} from './folder-lock.js';
import { openDatabase } from './index.js';

/**
 * The lock on an embedded database folder, in this process: refusals, stale
 * locks taken over, and the interleavings of two openers racing for one stale
 * lock. main.ts and the tools on a real running server: ops/folder-lock.test.ts.
 */

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

function newFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-lock-'));
  folders.push(folder);
  return folder;
}

/** The pid of a process that has exited (and been collected): nobody runs under it now. */
function exitedPid(): number {
  return spawnSync('true').pid;
}

function writeLock(folder: string, holder: Partial<LockHolder> | string, name = LOCK_FILE): string {
  const raw =
    typeof holder === 'string'
      ? holder
      : JSON.stringify({
          ...currentHolder(),
          program: 'main.ts',
          since: '2026-12-01T09:30:00.000Z',
          ...holder,
        });
  fs.writeFileSync(path.join(folder, name), raw);
  return raw;
}

const lockOf = (folder: string) =>
  JSON.parse(fs.readFileSync(path.join(folder, LOCK_FILE), 'utf8')) as LockHolder;
const claimOf = (raw: string) =>
  `${LOCK_FILE}.takeover-${createHash('sha256').update(raw).digest('hex').slice(0, 16)}`;

it('refuses a second opener of the database folder with one line naming the process, until the first has closed', async () => {
  const folder = newFolder();
  const template = new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
  const first = await openDatabase({ engine: 'pglite', dataDir: folder, template });
  const second = await openDatabase({ engine: 'pglite', dataDir: folder }).catch((error: unknown) => error);
  expect(second).toBeInstanceOf(FolderInUseError);
  expect((second as Error).message).toMatch(
    new RegExp(
      `^${folder} is in use by process ${process.pid} \\(.+, since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\): ` +
        'stop it first; to check a running server’s ledger, call GET /api/admin/ledger-check as compliance or finance staff\\.$',
    ),
  );

  await first.close();
  expect(fs.readdirSync(folder)).not.toContain(LOCK_FILE);
  lockFolder(folder).release();
});

it('takes over a lock left by a process that has exited', () => {
  const folder = newFolder();
  writeLock(folder, { pid: exitedPid() });
  const lock = lockFolder(folder);
  expect(lockOf(folder).pid).toBe(process.pid);
  lock.release();
  expect(fs.readdirSync(folder)).toEqual([]);
});

it('takes over a lock whose pid now names another process (the pid was reused), but not one whose process still runs', () => {
  const folder = newFolder();
  const me = currentHolder();
  expect(me.started).toMatch(/^[0-9a-f-]{36}\/\d+$/);
  writeLock(folder, { pid: process.pid, started: `${me.started?.split('/')[0]}/1` });
  const lock = lockFolder(folder, me);
  expect(lockOf(folder).nonce).toBe(me.nonce);

  // The same process, started when it did: it still has the folder, whoever asks.
  expect(() => lockFolder(folder)).toThrow(FolderInUseError);
  lock.release();

  // A lock from before the machine restarted.
  writeLock(folder, {
    pid: process.pid,
    started: `00000000-0000-0000-0000-000000000000/${me.started?.split('/')[1]}`,
  });
  lockFolder(folder).release();
});

it('takes over a lock file that is not a lock (empty after a power cut, or garbled)', () => {
  const folder = newFolder();
  for (const raw of ['', '{"pid":', '{"pid":0,"started":null,"program":"x","since":"x","nonce":"x"}']) {
    writeLock(folder, raw);
    lockFolder(folder).release();
  }
  expect(fs.readdirSync(folder)).toEqual([]);
});

it('an opener that found a stale lock does not replace the lock another opener took over meanwhile', () => {
  const folder = newFolder();
  const file = path.join(folder, LOCK_FILE);
  const stale = writeLock(folder, { pid: exitedPid() });
  // A reads the stale lock; B takes it over before A goes on.
  const winner = currentHolder();
  const lock = lockFolder(folder, winner);
  expect(replaceStale(file, stale, currentHolder())).toBe(false);
  expect(lockOf(folder).nonce).toBe(winner.nonce);
  expect(() => lockFolder(folder)).toThrow(FolderInUseError);
  lock.release();
});

it('while another opener is taking a stale lock over, the next one is refused and names it', () => {
  const folder = newFolder();
  const stale = writeLock(folder, { pid: exitedPid() });
  const taker = currentHolder();
  writeLock(folder, { ...taker, program: 'check-cli.ts' }, claimOf(stale));
  const refused = (() => {
    try {
      lockFolder(folder);
    } catch (error) {
      return error;
    }
  })();
  expect(refused).toBeInstanceOf(FolderInUseError);
  expect((refused as FolderInUseError).holder.program).toBe('check-cli.ts');
  expect(lockOf(folder).pid).not.toBe(process.pid);
});

it('a takeover cut short by a crash (its claim left behind) does not block the next opener, which tidies up', () => {
  const folder = newFolder();
  const stale = writeLock(folder, { pid: exitedPid() });
  writeLock(folder, { pid: exitedPid(), program: 'check-cli.ts' }, claimOf(stale));
  const me = currentHolder();
  const lock = lockFolder(folder, me);
  expect(lockOf(folder).nonce).toBe(me.nonce);
  expect(fs.readdirSync(folder)).toEqual([LOCK_FILE]);
  lock.release();
});
