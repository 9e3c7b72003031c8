import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';

/** The dev mailbox and the dev fixtures give away mail and money: production must not have them. */
describe('the dev routes in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://florin.example',
        SMTP_URL: 'smtp://mail.florin.example:587',
        ENCRYPTION_KEY: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('do not exist', async () => {
    for (const [method, url] of [
      ['GET', '/dev/mailbox'],
      ['GET', '/dev/mailbox.json'],
      ['POST', '/dev/ledger/fund'],
      ['POST', '/dev/fiat/bank-accounts/pass-wait'],
      ['POST', '/dev/security/pass-waits'],
      ['POST', '/dev/investor/pass-waits'],
      ['POST', '/dev/market/drive'],
      ['POST', '/dev/users/platform'],
      ['POST', '/dev/crypto/simulated-chain/deposit'],
      ['POST', '/dev/crypto/simulated-chain/mine'],
      ['POST', '/dev/term-deposits/mature'],
      ['POST', '/dev/auto-trade/run'],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        ...(method === 'POST'
          ? { payload: { email: 'a@example.com', asset: 'GBP', amount: '1.00', key: 'production-check' } }
          : {}),
      });
      expect(response.statusCode, url).toBe(404);
    }
  });
});
