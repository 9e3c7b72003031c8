import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * One process at a time on an embedded database folder (DATA_DIR). PGlite
 * takes no lock of its own: a second process on a running server's folder
 * (a second server, `npm run ledger:check`) reads and writes its files too,
 * and the next crash loses confirmed trades or the whole database.
 *
 * The lock is a file, `florin.lock`, naming its holder: pid and, on Linux,
 * the boot's id and the process's start time, so a reused pid is not taken
 * for the holder. A holder that is gone (killed, crashed) leaves the file
 * behind; the next opener finds it stale and takes it over. See
 * docs/decisions/115-one-process-per-data-folder.md.
 */

export const LOCK_FILE = 'florin.lock';

/** A crash in the instant between claiming a stale lock and taking it over nests one level; more is not worth guessing at. */
const MAX_TAKEOVER_DEPTH = 4;

export type LockHolder = {
  pid: number;
  /** `<boot id>/<start time in clock ticks>` on Linux; with the pid it names one process for good. Null elsewhere. */
  started: string | null;
  /** The script that opened the folder (main.ts, check-cli.ts, …), for the operator reading the refusal. */
  program: string;
  since: string;
  /** Makes every lock's content unique, so a stale one is recognised by its bytes alone. */
  nonce: string;
};

export class FolderInUseError extends Error {
  constructor(
    readonly folder: string,
    readonly holder: LockHolder,
  ) {
    const since = holder.since.slice(0, 19).replace('T', ' ');
    super(
      `${folder} is in use by process ${holder.pid} (${holder.program}, since ${since} UTC): stop it first; ` +
        'to check a running server’s ledger, call GET /api/admin/ledger-check as compliance or finance staff.',
    );
    this.name = 'FolderInUseError';
  }
}

export type FolderLock = { release: () => void };

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** The file's text, or null when it does not exist. */
function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

const bootId = readText('/proc/sys/kernel/random/boot_id')?.trim() ?? null;

/**
 * Whether a process runs under `pid`, and when it started. `started` is null
 * where /proc does not say: not Linux, or /proc hides other users' processes.
 */
function processState(pid: number): { alive: false } | { alive: true; started: string | null } {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, as another user's process.
    if (errorCode(error) === 'ESRCH') return { alive: false };
    if (errorCode(error) !== 'EPERM') throw error;
  }
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === null || bootId === null) return { alive: true, started: null };
  // The command name in parentheses may hold spaces: fields are counted after its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // A zombie has exited; only its parent has not collected it yet.
  if (fields[0] === 'Z' || fields[0] === 'X') return { alive: false };
  return { alive: true, started: `${bootId}/${fields[19]}` };
}

function parseHolder(raw: string): LockHolder | null {
  try {
    const value = JSON.parse(raw) as Partial<LockHolder>;
    const isHolder =
      Number.isSafeInteger(value.pid) &&
      (value.pid ?? 0) > 0 &&
      (typeof value.started === 'string' || value.started === null) &&
      typeof value.program === 'string' &&
      typeof value.since === 'string' &&
      typeof value.nonce === 'string';
    return isHolder ? (value as LockHolder) : null;
  } catch {
    return null;
  }
}

/** Whether the process that wrote the lock still runs: its pid is alive and, where we can tell, started when it did. */
export function isHolderAlive(holder: LockHolder): boolean {
  const state = processState(holder.pid);
  if (!state.alive) return false;
  return holder.started === null || state.started === null || state.started === holder.started;
}

/** This process as a lock's holder. */
export function currentHolder(): LockHolder {
  const state = processState(process.pid);
  return {
    pid: process.pid,
    started: state.alive ? state.started : null,
    program: path.basename(process.argv[1] ?? process.argv0),
    since: new Date().toISOString(),
    nonce: randomBytes(8).toString('hex'),
  };
}

/** Written and flushed before it is linked into place, so no one ever reads a lock half written, even after a power cut. */
function writeDurably(file: string, text: string): void {
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function removeIfMine(file: string, mine: string): void {
  if (readText(file) === mine) fs.rmSync(file, { force: true });
}

/** `me`'s lock content in a file of its own beside `file`, for `place` to link or rename into place; removed after. */
function withOwnCopy<T>(file: string, me: LockHolder, place: (copy: string) => T): T {
  const copy = `${file}.${me.nonce}.tmp`;
  writeDurably(copy, JSON.stringify(me));
  try {
    return place(copy);
  } finally {
    fs.rmSync(copy, { force: true });
  }
}

/**
 * Takes `file` for `me`: null when taken, else the live process that holds
 * it. A new lock appears whole and only if there was none: link fails on an
 * existing name.
 */
function acquire(file: string, me: LockHolder, depth: number): LockHolder | null {
  if (depth > MAX_TAKEOVER_DEPTH)
    throw new Error(
      `${file}: too many interrupted takeovers; remove ${file}.* once no Florin process runs here`,
    );
  for (;;) {
    const linked = withOwnCopy(file, me, (copy) => {
      try {
        fs.linkSync(copy, file);
        return true;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
        return false;
      }
    });
    if (linked) return null;
    const raw = readText(file);
    // Released between the two calls: try again.
    if (raw === null) continue;
    const holder = parseHolder(raw);
    if (holder && isHolderAlive(holder)) return holder;
    const replaced = replaceStale(file, raw, me, depth);
    if (replaced !== false) return replaced === true ? null : replaced;
  }
}

/**
 * Replaces the stale lock `file` that held `raw` with `me`'s: true when done;
 * false when the file changed meanwhile (look again); or the live process that
 * is taking it over right now, which will hold the folder. Only the one
 * process holding `<file>.takeover-<digest of raw>` (taken like any lock)
 * replaces it, and only if it still holds `raw` (unique to one holder by its
 * nonce): two openers racing for one stale lock cannot both take it, and a
 * slow one cannot replace the winner's.
 */
export function replaceStale(file: string, raw: string, me: LockHolder, depth = 0): boolean | LockHolder {
  const claim = `${file}.takeover-${createHash('sha256').update(raw).digest('hex').slice(0, 16)}`;
  const claimant = acquire(claim, me, depth + 1);
  if (claimant) return claimant;
  try {
    if (readText(file) !== raw) return false;
    withOwnCopy(file, me, (copy) => fs.renameSync(copy, file));
    return true;
  } finally {
    removeIfMine(claim, JSON.stringify(me));
  }
}

/** Locks `folder` (created if missing) for this process, or throws FolderInUseError naming the process that has it. */
export function lockFolder(folder: string, me: LockHolder = currentHolder()): FolderLock {
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, LOCK_FILE);
  const holder = acquire(file, me, 0);
  if (holder) throw new FolderInUseError(folder, holder);
  const mine = JSON.stringify(me);
  return { release: () => removeIfMine(file, mine) };
}

/** For entry points: a locked folder is one line on stderr and exit status 1, not a stack trace. */
export function exitIfFolderInUse(error: unknown): never {
  if (error instanceof FolderInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
