import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '@florin/contracts';
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

describe('a request over an abuse limit', () => {
  it('says in Retry-After how many seconds until the window frees a place', async () => {
    const browser = createBrowser(t.app);
    const register = () =>
      browser.post('/api/v1/user-register', {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: `ada-${randomUUID()}@example.com`,
        password: 'Analytical-Engine-1843',
        password_confirmation: 'Analytical-Engine-1843',
        accept_terms_and_privacy: true,
      });
    for (let i = 0; i < LIMITS.registerPerIp.max; i += 1) expect((await register()).statusCode).toBe(201);
    const refused = await register();
    expect(refused.statusCode).toBe(429);
    const seconds = Number(refused.headers['retry-after']);
    // The first registration leaves the hour's window first: a little under an hour from now.
    expect(seconds).toBeGreaterThan(LIMITS.registerPerIp.windowMinutes * 60 - 120);
    expect(seconds).toBeLessThanOrEqual(LIMITS.registerPerIp.windowMinutes * 60);
    expect(ErrorBodySchema.parse(refused.json())).toMatchObject({
      code: 'RATE_LIMITED',
      data: { retry_after: seconds },
    });
  });
});
