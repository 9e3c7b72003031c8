import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInStaff } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { insertCustomer } from '../compliance/customers.test-kit.js';
import { balanceOf } from '../fiat/fiat.test-kit.js';

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
        COMPANY_NAME: 'Florin Ltd',
        COMPANY_NUMBER: '12345678',
        COMPANY_ADDRESS: '1 Poultry, London EC2R 8EJ',
        COMPANY_FCA_REFERENCE: '987654',
        // The dev routes go with production itself, whatever it runs on: these stand-ins are allowed by name.
        ALLOW_STAND_INS: 'market,chain:BTC,chain:ETH,chain:LTC,chain:BCH,chain:XRP,uploads',
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

  // A payment made up on the simulated chain would credit a real balance, and its hot wallet holds no coins.
  it('has no simulated chain for the back office: its controls are not found and the shell is told so', async () => {
    const finance = await signedInStaff(t.app, t.database.db, 'finance');
    for (const url of [
      '/api/admin/crypto/simulated-chain/deposit',
      '/api/admin/crypto/simulated-chain/mine',
      '/api/admin/crypto/simulated-chain/drop',
    ]) {
      const response = await finance.browser.post(url, { asset: 'XRP', blocks: 1, txid: 'x' });
      expect(response.statusCode, url).toBe(404);
    }
    const me = await finance.browser.get('/api/admin/me');
    expect(me.json()).toMatchObject({ data: { role: 'finance', simulated_chain: false } });
  });
});

/** Outside production the helpers still give away money and mail: only this machine may call them. */
describe('the dev routes in development', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const fund = (email: string, key: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/dev/ledger/fund',
      payload: { email, asset: 'GBP', amount: '100.00', key },
      remoteAddress,
      headers,
    });

  it('are not found from another machine, whatever X-Forwarded-For claims', async () => {
    const customer = await insertCustomer(t.database.db);
    const unknownRoute = await t.app.inject({
      method: 'GET',
      url: '/dev/no-such-page',
      remoteAddress: '10.1.2.3',
    });
    for (const remoteAddress of ['10.1.2.3', '192.168.1.20', '2001:db8::1', '::ffff:10.0.0.1']) {
      const funded = await fund(customer.email, `remote-${remoteAddress}`, remoteAddress, {
        'x-forwarded-for': '127.0.0.1',
      });
      expect(funded.statusCode, remoteAddress).toBe(404);
      expect(funded.json()).toMatchObject({ code: 'NOT_FOUND' });
      const mailbox = await t.app.inject({ method: 'GET', url: '/dev/mailbox.json', remoteAddress });
      expect(mailbox.statusCode, remoteAddress).toBe(404);
      expect(mailbox.json()).toMatchObject({ code: unknownRoute.json<{ code: string }>().code });
      const driven = await t.app.inject({
        method: 'POST',
        url: '/dev/market/drive',
        payload: { symbol: 'BTC/GBP', mid: '1' },
        remoteAddress,
      });
      expect(driven.statusCode, remoteAddress).toBe(404);
    }
    expect((await balanceOf(t, customer.id)).posted).toBe(0n);
  });

  it('answer callers on this machine', async () => {
    const customer = await insertCustomer(t.database.db);
    for (const [index, remoteAddress] of ['127.0.0.1', '::1', '::ffff:127.0.0.1'].entries()) {
      const funded = await fund(customer.email, `loopback-${index}`, remoteAddress);
      expect(funded.statusCode, funded.body).toBe(200);
    }
    expect((await balanceOf(t, customer.id)).posted).toBe(30_000n);
    const mailbox = await t.app.inject({
      method: 'GET',
      url: '/dev/mailbox.json',
      remoteAddress: '127.0.0.1',
    });
    expect(mailbox.statusCode).toBe(200);
  });
});
