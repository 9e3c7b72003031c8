import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ErrorBodySchema, waitUntilText } from '@florin/contracts';
import { createTestApp, type TestApp } from '../test/app.js';
import { createBrowser } from '../test/browser.js';
import { LIMITS } from './rate-limits.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const registration = () => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: `ada-${randomUUID()}@example.com`,
  password: 'Analytical-Engine-1843',
  password_confirmation: 'Analytical-Engine-1843',
  accept_terms_and_privacy: true,
});

describe('a request over an abuse limit', () => {
  it('says in Retry-After how many seconds until the window frees a place', async () => {
    const browser = createBrowser(t.app);
    const register = () => browser.post('/api/v1/user-register', registration());
    for (let i = 0; i < LIMITS.registerPerIp.max; i += 1) expect((await register()).statusCode).toBe(201);
    const refused = await register();
    expect(refused.statusCode).toBe(429);
    const seconds = Number(refused.headers['retry-after']);
    // The first registration leaves the hour's window first: about an hour from now, on the next whole minute.
    expect(seconds).toBeGreaterThan(LIMITS.registerPerIp.windowMinutes * 60 - 120);
    expect(seconds).toBeLessThanOrEqual(LIMITS.registerPerIp.windowMinutes * 60 + 60);
    expect(ErrorBodySchema.parse(refused.json())).toMatchObject({
      code: 'RATE_LIMITED',
      data: { retry_after: seconds },
    });
  });

  it('names, in UK time, the minute from which a retry works, the one Retry-After counts down to', async () => {
    const browser = createBrowser(t.app);
    const register = () => browser.post('/api/v1/user-register', registration());
    for (let i = 0; i < LIMITS.registerPerIp.max; i += 1) expect((await register()).statusCode).toBe(201);
    // The hour's sign-ups began 45 minutes ago (10 s into that minute): the oldest leaves the window in 15 minutes.
    const { minute } = (
      await sql<{ minute: Date }>`SELECT date_trunc('minute', now()) AS minute`.execute(t.database.db)
    ).rows[0]!;
    await t.database.db
      .updateTable('rate_limit_hits')
      .set({ at: new Date(minute.getTime() - 45 * 60_000 + 10_000) })
      .where('key', '=', `${LIMITS.registerPerIp.name}:${browser.ip}`)
      .execute();

    const refused = await register();
    expect(refused.statusCode).toBe(429);
    // 15 minutes and 10 seconds on, so from the minute after: never the hour the window lasts
    // (a little under 15 minutes away should the clock pass a minute during the test).
    const retryFrom = new Date(minute.getTime() + 16 * 60_000);
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: waitUntilText('Too many attempts. You can try again from', retryFrom),
    });
    const seconds = Number(refused.headers['retry-after']);
    expect(seconds).toBeGreaterThan(14 * 60);
    expect(seconds).toBeLessThanOrEqual(16 * 60);
  });
});
