import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/index.js';
import { createClient, signUpLiveCustomer, type Client } from '../test/http-client.js';
import { postgresForMain, startMain, type MainProcess } from '../test/main-process.js';
import { freePort, type PostgresServer } from '../test/postgres-server.js';

/**
 * Issue 15: Debian's sqlmap against every parameterised customer and public
 * route, read from the running app's own OpenAPI document, signed in as a
 * live customer, on main.ts and a PostgreSQL server. Every query, path and
 * JSON body parameter is tried with sqlmap's boolean, error, union, stacked
 * and time-based payloads; none may be injectable and none may answer 500.
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

const SKIPPED = new Set(['POST /api/v1/logout']);

/** One sqlmap run per route: each parameter set to "1", path parameters marked with sqlmap's `*`. */
function targetsOf(api: OpenApi, base: string, client: Client): Target[] {
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const headers = [
    `X-CSRF-Token: ${client.cookies.get('csrf_token') ?? ''}`,
    `Idempotency-Key: sqlmap-${randomBytes(6).toString('hex')}`,
    'X-Forwarded-For: 127.0.0.77',
  ].join('\n');
  const targets: Target[] = [];
  for (const [route, operations] of Object.entries(api.paths)) {
    if (!route.startsWith('/api/') || route.startsWith('/api/admin') || route.startsWith('/api/docs'))
      continue;
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${route}`;
      const parameters = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const fields = Object.keys(content['application/json']?.schema?.properties ?? {});
      if (SKIPPED.has(name) || content['multipart/form-data']) continue;
      if (parameters.length === 0 && fields.length === 0) continue;
      const pathPart = route.replace(/\{\w+\}/g, '1*');
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
let base: string;
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
  client = createClient(base, '127.0.0.77', new Set());
  await signUpLiveCustomer(client, database.db, `sqlmap.${Date.now()}@example.com`);
}, 180_000);

afterAll(async () => {
  await instance?.stop('SIGKILL');
  await database?.close();
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('sqlmap', () => {
  it('finds nothing injectable in any parameter of any customer or public route, and no 500', async () => {
    const api = (await (await fetch(`${base}/api/docs/json`)).json()) as OpenApi;
    const targets = targetsOf(api, base, client);
    expect(targets.length).toBeGreaterThan(60);
    const findings: string[] = [];
    let testedParameters = 0;
    for (const target of targets) {
      const run = spawnSync(
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
          `--output-dir=${path.join(dataDir, 'sqlmap')}`,
        ],
        { encoding: 'utf8', timeout: 300_000 },
      );
      const output = `${run.stdout}${run.stderr}`;
      if (run.status !== 0 && run.error)
        findings.push(`${target.name}: sqlmap did not run: ${run.error.message}`);
      testedParameters += (output.match(/does not seem to be injectable/g) ?? []).length;
      if (/identified the following injection point|is vulnerable|appears to be injectable/i.test(output))
        findings.push(
          `${target.name}: ${output
            .split('\n')
            .filter((line) => /injectable|injection/i.test(line))
            .join(' | ')}`,
        );
      const errors = /\b5\d\d \([^)]*\) - \d+ times/.exec(output);
      if (errors) findings.push(`${target.name}: ${errors[0]}`);
      if (instance.child.exitCode !== null || instance.child.signalCode !== null) {
        findings.push(`${target.name}: main.ts exited:\n${instance.output().slice(-3_000)}`);
        break;
      }
    }
    expect(findings).toEqual([]);
    // Every target tried at least one parameter: sqlmap really ran, and not against a wall of 401s.
    expect(testedParameters).toBeGreaterThanOrEqual(targets.length);
    // Still signed in: the runs were made as the customer. (curl: fetch's pooled socket has gone stale meanwhile.)
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const me = spawnSync(
      'curl',
      ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', `cookie: ${cookie}`, `${base}/api/v1/user`],
      {
        encoding: 'utf8',
      },
    );
    expect(me.stdout).toBe('200');
  }, 1_800_000);
});
