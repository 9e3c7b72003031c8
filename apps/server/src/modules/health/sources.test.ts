import { afterEach, expect, it } from 'vitest';
import type { Health } from '@florin/contracts';
import { createTestApp, type TestApp } from '../../test/app.js';

/**
 * GET /api/v1/health says where each part's data comes from (issue 44): the
 * market, each coin's chain, the mail and the uploads, and the stand-ins
 * production runs on because ALLOW_STAND_INS names them.
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function health(env: Record<string, string> = {}): Promise<Health> {
  t = await createTestApp({ env });
  const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Health>();
}

it('reports every stand-in of a development install, and no exchange feed', async () => {
  const report = await health();
  expect(report.price_feeds).toEqual([]);
  expect(report.sources).toEqual({
    market: ['simulated'],
    chains: { BTC: 'simulated', ETH: 'simulated', LTC: 'simulated', BCH: 'simulated', XRP: 'simulated' },
    mail: 'dev-mailbox',
    uploads: 'local',
    stand_ins_allowed: [],
  });
});

it('reports the real sources configured, and the stand-ins production was allowed by name', async () => {
  const report = await health({
    NODE_ENV: 'production',
    ENCRYPTION_KEY: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    PUBLIC_URL: 'https://app.florin.example',
    SMTP_URL: 'smtp://mail.florin.example:587',
    COMPANY_NAME: 'Florin Ltd',
    COMPANY_NUMBER: '12345678',
    COMPANY_ADDRESS: '1 Poultry, London EC2R 8EJ',
    COMPANY_FCA_REFERENCE: '987654',
    PRICE_SOURCE: 'kraken',
    BITCOIN_RPC_URL_BTC: 'http://florin:secret@bitcoind:8332/wallet/deposits',
    ETHEREUM_RPC_URL: 'http://geth:8545',
    STORAGE_S3_URL: 'https://s3.eu-west-2.amazonaws.com/florin-documents',
    STORAGE_S3_ACCESS_KEY_ID: 'AKIAFLORIN',
    STORAGE_S3_SECRET_ACCESS_KEY: 'secret',
    XRP_NODE_URL: 'wss://xrpl.florin.example:51233',
    ALLOW_STAND_INS: 'chain:LTC,chain:BCH',
  });
  expect(report.sources).toEqual({
    market: ['kraken'],
    chains: { BTC: 'node', ETH: 'node', LTC: 'simulated', BCH: 'simulated', XRP: 'node' },
    // The mailer the app was built with decides: these tests keep mail in the dev mailbox.
    mail: 'dev-mailbox',
    uploads: 's3',
    stand_ins_allowed: ['chain:LTC', 'chain:BCH'],
  });
});
