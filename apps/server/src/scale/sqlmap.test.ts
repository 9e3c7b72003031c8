import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/index.js';
import { DEFAULT_ADMIN_EMAIL } from '../modules/staff/service.js';
import { freshTotpCode } from '../test/admin.js';
import { cookieHeader } from '../test/browser.js';
import { createClient, signUpLiveCustomer, type Client } from '../test/http-client.js';
import { postgresForMain, startMain, type MainProcess } from '../test/main-process.js';
import { freePort, type PostgresServer } from '../test/postgres-server.js';
import { createLocalStorage } from '../adapters/storage/index.js';

/**
 * Issue 15: Debian's sqlmap against every parameterised route, read from the
 * running app's own OpenAPI document, on main.ts and a PostgreSQL server: the
 * customer and public routes signed in as a live customer, the back office's
 * signed in as the superadmin main.ts creates. Every query, path and JSON
 * body parameter is tried with sqlmap's boolean, error, union, stacked and
 * time-based payloads; none may be injectable and none may answer 500.
 * Signing out is left out (it would end the session the rest runs in), and
 * so are the uploads (multipart) and the /dev/ helpers, which production
 * never has.
 */

type OpenApi = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: 'query' | 'path' }[];
        requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
      }
    >
  >;
};

type Target = { name: string; args: string[] };

const SKIPPED = new Set(['POST /api/v1/logout', 'POST /api/admin/logout']);

/**
 * The callers scanned: which routes each signs in for, and the path value sqlmap starts from. Staff paths name an id
 * no object has, so no payload's write reaches a real one (staff 1 is the superadmin the scan is signed in as).
 */
const SCOPES = {
  customer: { inScope: (route: string) => !route.startsWith('/api/admin'), pathValue: '1' },
  staff: { inScope: (route: string) => route.startsWith('/api/admin'), pathValue: '999999' },
} as const;

/** One sqlmap run per route: each parameter set to "1", path parameters marked with sqlmap's `*`. */
function targetsOf(api: OpenApi, base: string, client: Client, scope: keyof typeof SCOPES): Target[] {
  const { inScope, pathValue } = SCOPES[scope];
  const cookie = cookieHeader(client.cookies);
  const headers = [
    `X-CSRF-Token: ${client.cookies.get('csrf_token') ?? ''}`,
    `Idempotency-Key: sqlmap-${randomBytes(6).toString('hex')}`,
    'X-Forwarded-For: 127.0.0.77',
  ].join('\n');
  const targets: Target[] = [];
  for (const [route, operations] of Object.entries(api.paths)) {
    if (!route.startsWith('/api/') || route.startsWith('/api/docs') || !inScope(route)) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${route}`;
      const parameters = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const fields = Object.keys(content['application/json']?.schema?.properties ?? {});
      if (SKIPPED.has(name) || content['multipart/form-data']) continue;
      if (parameters.length === 0 && fields.length === 0) continue;
      const pathPart = route.replace(/\{\w+\}/g, `${pathValue}*`);
      const query = parameters
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => `${encodeURIComponent(parameter.name)}=1`)
        .join('&');
      const args = [
        '-u',
        `${base}${pathPart}${query ? `?${query}` : ''}`,
        `--method=${method.toUpperCase()}`,
        `--cookie=${cookie}`,
        `--headers=${headers}`,
      ];
      if (fields.length > 0)
        args.push(`--data=${JSON.stringify(Object.fromEntries(fields.map((field) => [field, '1'])))}`);
      targets.push({ name, args });
    }
  }
  return targets;
}

let server: PostgresServer;
let instance: MainProcess;
let database: Database;
let client: Client;
let staff: Client;
let base: string;
let api: OpenApi;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'florin-sqlmap-'));

beforeAll(async () => {
  const started = await postgresForMain({ dataDir });
  ({ server, database } = started);
  instance = await startMain({
    port: await freePort(),
    // Every limit lifted: a scanner throttled to 429s would learn nothing about the routes behind them.
    env: { ...started.env, ABUSE_LIMITS: 'off' },
  });
  base = instance.url;
  // Read once, now: a fetch after a scan reuses a keep-alive socket the app closed meanwhile (EPIPE).
  api = (await (await fetch(`${base}/api/docs/json`)).json()) as OpenApi;
  client = createClient(base, '127.0.0.77', new Set());
  await signUpLiveCustomer(
    client,
    database.db,
    createLocalStorage(path.join(dataDir, 'uploads')),
    `sqlmap.${Date.now()}@example.com`,
  );
  staff = createClient(base, '127.0.0.78', new Set());
  const login = await staff.post('/api/admin/login', {
    email: DEFAULT_ADMIN_EMAIL,
    password: started.env.ADMIN_PASSWORD,
  });
  const { login_token, enrollment } = login.json as { login_token: string; enrollment: { secret: string } };
  const second = await staff.post('/api/admin/login-2fa', {
    login_token,
    code: freshTotpCode(enrollment.secret),
  });
  expect(second.status, JSON.stringify(second.json)).toBe(200);
}, 180_000);

afterAll(async () => {
  await instance?.stop('SIGKILL');
  await database?.close();
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** One sqlmap run over a target: its whole output, and why it did not run if it did not. */
function sqlmap(target: Target): Promise<{ output: string; failure?: string }> {
  const child = spawn(
    'sqlmap',
    [
      ...target.args,
      '--batch',
      '--level=1',
      '--risk=1',
      '--threads=4',
      '--time-sec=2',
      '--disable-coloring',
      '--flush-session',
      // Each run its own folder: two runs at once must not share sqlmap's session files.
      `--output-dir=${path.join(dataDir, 'sqlmap', randomBytes(6).toString('hex'))}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ output, failure: error.message }));
    child.once('close', (code, signal) =>
      resolve({ output, ...(signal ? { failure: `sqlmap ended by ${signal}` } : {}) }),
    );
  });
}

/**
 * sqlmap runs at once: most of a run is Python starting and waiting on the app's answers, so two share the
 * two cores; every target is still scanned whole, with the same payloads.
 */
const RUNS_AT_ONCE = 2;

const INJECTABLE = /identified the following injection point|is vulnerable|appears to be injectable/i;

/**
 * Runs sqlmap over each target; what it found (injectable parameters, 500s, the app gone) and how many parameters it
 * tried. A parameter sqlmap calls injectable is scanned again, and counts only if the second scan agrees (a 500 or a
 * failed run counts in either): every error body carries its own request_id, so no two answers are alike, and once
 * in many runs sqlmap's page comparison took that difference for a boolean-based injection (PUT /api/v1/users
 * `country`, answered 422 every time). A real injection answers the same way twice.
 */
async function scan(targets: readonly Target[]): Promise<{ findings: string[]; testedParameters: number }> {
  const findings: string[] = [];
  let testedParameters = 0;
  const queue = [...targets];
  const lane = async () => {
    for (let target = queue.shift(); target && !appGone(); target = queue.shift()) await scanOne(target);
  };
  const appGone = () => instance.child.exitCode !== null || instance.child.signalCode !== null;
  async function scanOne(target: Target) {
    const runs = [await sqlmap(target)];
    if (INJECTABLE.test(runs[0]?.output ?? '')) runs.push(await sqlmap(target));
    const { output } = runs.at(-1) ?? { output: '' };
    if (runs.length === 2 && !INJECTABLE.test(output))
      console.warn(`${target.name}: not confirmed by a second scan:\n${runs[0]?.output ?? ''}`);
    // A run that failed or met a 500 counts whichever run it was; only an injection needs both to agree.
    for (const run of runs) {
      if (run.failure) findings.push(`${target.name}: sqlmap did not run: ${run.failure}`);
      const errors = /\b5\d\d \([^)]*\) - \d+ times/.exec(run.output);
      if (errors) findings.push(`${target.name}: ${errors[0]}`);
    }
    testedParameters += (output.match(/does not seem to be injectable/g) ?? []).length;
    if (INJECTABLE.test(output))
      findings.push(
        `${target.name}: ${output
          .split('\n')
          .filter((line) => /injectable|injection/i.test(line))
          .join(' | ')}`,
      );
    if (appGone()) findings.push(`${target.name}: main.ts exited:\n${instance.output().slice(-3_000)}`);
  }
  await Promise.all(Array.from({ length: RUNS_AT_ONCE }, lane));
  return { findings, testedParameters };
}

/** The status of a GET with the client's cookies, by curl: fetch's pooled socket has gone stale during a long scan. */
function statusOf(caller: Client, url: string): string {
  const cookie = cookieHeader(caller.cookies);
  return spawnSync(
    'curl',
    ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', `cookie: ${cookie}`, `${base}${url}`],
    { encoding: 'utf8' },
  ).stdout;
}

describe('sqlmap', () => {
  it('finds nothing injectable in any parameter of any customer or public route, and no 500', async () => {
    const targets = targetsOf(api, base, client, 'customer');
    expect(targets.length).toBeGreaterThan(60);
    const { findings, testedParameters } = await scan(targets);
    expect(findings).toEqual([]);
    // Every target tried at least one parameter: sqlmap really ran, and not against a wall of 401s.
    expect(testedParameters).toBeGreaterThanOrEqual(targets.length);
    // Still signed in: the runs were made as the customer.
    expect(statusOf(client, '/api/v1/user')).toBe('200');
  }, 1_800_000);

  it('finds nothing injectable in any parameter of any back-office route, and no 500', async () => {
    const targets = targetsOf(api, base, staff, 'staff');
    expect(targets.length).toBeGreaterThan(40);
    const { findings, testedParameters } = await scan(targets);
    expect(findings).toEqual([]);
    expect(testedParameters).toBeGreaterThanOrEqual(targets.length);
    expect(statusOf(staff, '/api/admin/me')).toBe('200');
  }, 1_800_000);
});
