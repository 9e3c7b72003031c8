import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveCustomer } from '../modules/fiat/fiat.test-kit.js';
import { signedInStaff } from '../test/admin.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createBrowser, type Browser } from '../test/browser.js';
import { changedTables, databaseFingerprint } from '../test/fingerprint.js';
import { hostileInputsFor } from '../test/hostile-inputs.js';
import { browserHeaders, callerOf, STATE_CHANGING, sweptRoutes } from '../test/route-sweep.js';
import { seedOf, volumeOf } from '../test/volume.js';

/**
 * Every route of the running app meets HOSTILE_INPUTS_PER_ROUTE bad inputs
 * (25 in `npm test`, 500 in `npm run test:deep`, 5,000 in `npm run
 * test:hostile`), drawn afresh each run from HOSTILE_SEED (printed, so a
 * failure can be replayed; a fresh seed each run keeps widening the search).
 * The answers may never be a 5xx or show a stack, a file path or SQL; a change
 * of state must refuse every one of them and leave every table as it was.
 */
const PER_ROUTE = volumeOf('HOSTILE_INPUTS_PER_ROUTE', 25);
const SEED = seedOf('HOSTILE_SEED');

/** What a refusal must never show: a stack frame, our source, the database talking. */
const LEAK =
  /(\n\s+at |node_modules|\/src\/|\.ts:\d|\bSELECT\b.*\bFROM\b|\bINSERT INTO\b|syntax error at|relation "|violates .* constraint|duplicate key|PGlite|kysely|ZodError)/i;

let t: TestApp;
let callers: { customer: Browser; staff: Browser; anonymous: Browser };

beforeAll(async () => {
  t = await createTestApp({
    env: { RATE_LIMIT_PER_MINUTE: '100000000', API_TOKEN_RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  const anonymous = createBrowser(t.app);
  await anonymous.get('/api/v1/csrf');
  callers = {
    customer: (await liveCustomer(t)).browser,
    staff: (await signedInStaff(t.app, t.database.db, 'superadmin')).browser,
    anonymous,
  };
  console.log(`hostile input: ${PER_ROUTE} per route, HOSTILE_SEED=${SEED}`);
});
afterAll(async () => {
  await t.close();
});

describe('hostile input on every route', () => {
  it(
    `answers ${PER_ROUTE} bad inputs per route without a 5xx or a leak, and refused changes change nothing`,
    async () => {
      const findings: string[] = [];
      let sent = 0;
      for (const route of sweptRoutes(t.app)) {
        const changes = STATE_CHANGING.has(route.method);
        const browser = callerOf(route, callers);
        const before = changes ? await databaseFingerprint(t.database.db) : null;
        for (const input of hostileInputsFor(route, PER_ROUTE, SEED)) {
          const response = await t.app.inject({
            method: route.method as InjectOptions['method'],
            url: input.url,
            headers: {
              ...browserHeaders(browser, route.method, true),
              ...(input.body !== undefined
                ? { 'content-type': input.contentType ?? 'application/json' }
                : {}),
            },
            remoteAddress: browser.ip,
            ...(input.body !== undefined ? { payload: input.body } : {}),
          });
          sent += 1;
          const where = `${route.method} ${route.url} (${input.kind}: ${input.url.slice(0, 160)} ${(input.body ?? '').slice(0, 120)})`;
          if (response.statusCode >= 500)
            findings.push(`${where} → ${response.statusCode} ${response.body.slice(0, 200)}`);
          if (response.statusCode >= 400 && LEAK.test(response.body))
            findings.push(`${where} → leaked: ${response.body.slice(0, 300)}`);
          if (changes && response.statusCode < 400)
            findings.push(`${where} → accepted with ${response.statusCode}`);
          if (findings.length > 20) break;
        }
        if (before) {
          const changed = changedTables(before, await databaseFingerprint(t.database.db));
          if (changed.length > 0)
            findings.push(`${route.method} ${route.url}: refused inputs changed ${changed.join(', ')}`);
        }
        if (findings.length > 20) break;
      }
      expect(findings, `HOSTILE_SEED=${SEED}`).toEqual([]);
      expect(sent).toBeGreaterThanOrEqual(PER_ROUTE * 150);
    },
    60 * 60_000,
  );
});
