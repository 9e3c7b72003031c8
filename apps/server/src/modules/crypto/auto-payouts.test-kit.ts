import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { CRYPTO_ASSETS, type CryptoAsset } from '@florin/contracts';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { createEmailedCodes } from '../../security/emailed-codes.js';
import { createRateLimiter } from '../../security/rate-limits.js';
import { createSecondFactor } from '../../security/second-factor.js';
import type { SignedInStaff } from '../../test/admin.js';
import type { TestApp } from '../../test/app.js';
import { testClock } from '../../test/clock.js';
import { createKycRepository } from '../kyc/repository.js';
import { createVerificationGate } from '../kyc/verification.js';
import { createNotifier } from '../notifications/service.js';
import type { HotWallet } from './chains/hot-wallets.js';
import type { WithdrawalWallet } from './chains/wallets.js';
import { createCryptoWithdrawalRepository } from './withdrawal-repository.js';
import { createCryptoWithdrawalService } from './withdrawals.js';

/**
 * The withdrawal service as another instance of the app builds it, with hot wallets on the test's
 * nodes (the app under test has none configured), every coin otherwise paid from cold storage.
 */
export function payoutInstance(t: TestApp, hotWallets: Partial<Record<CryptoAsset, HotWallet>>) {
  const db = t.database.db;
  const emailedCodes = createEmailedCodes({ db, key: 'test', clock: testClock });
  const limits = createRateLimiter(db);
  const wallets = {} as Record<CryptoAsset, WithdrawalWallet>;
  for (const asset of CRYPTO_ASSETS) wallets[asset] = { kind: 'cold_storage' };
  return createCryptoWithdrawalService({
    db,
    repository: createCryptoWithdrawalRepository(db),
    ledger: t.ledger,
    notifier: createNotifier({ db, mailer: createDevMailbox(db), log: t.app.log }),
    userEvents: { moneyMoved: () => undefined },
    emailedCodes,
    secondFactor: createSecondFactor({
      emailedCodes,
      limits,
      verifyAuthenticatorCode: () => Promise.resolve(false),
    }),
    limits,
    addresses: { network: 'mainnet', sources: {} },
    gbpRate: () => null,
    savedAddresses: {
      findWallet: () => Promise.resolve(undefined),
      findByAddress: () => Promise.resolve(undefined),
    },
    wallets,
    hotWallets,
    verification: createVerificationGate({ db, repository: createKycRepository(db) }),
    clock: testClock,
  });
}

/** Finance sets a coin's automatic payout limits in the back office (coins, as typed there). */
export async function setPayoutLimits(
  finance: SignedInStaff,
  coin: string,
  payout: {
    auto_payout: boolean;
    max_per_withdrawal: string | null;
    daily_total: string | null;
    hot_wallet_ceiling: string | null;
  },
): Promise<void> {
  const response = await finance.browser.put(`/api/admin/crypto/withdrawal-settings/${coin}`, {
    daily_limit: '100000',
    auto_approve_whitelisted: false,
    payout,
  });
  expect(response.statusCode, response.body).toBe(200);
}

export type RpcCall = { method: string; params: unknown[] };
/** What the recorded node answers: a result, an error, or nothing (the connection dropped after it read the call). */
export type RpcAnswer = { result: unknown } | { error: { code: number; message: string } } | 'drop';

/** A local HTTP server speaking Bitcoin Core's JSON-RPC 1.0, answering each call from `answer`. */
export async function startRecordedNode(answer: (call: RpcCall) => RpcAnswer) {
  const calls: RpcCall[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const body = JSON.parse(text) as { id: number; method: string; params: unknown[] };
      const call = { method: body.method, params: body.params };
      calls.push(call);
      const answered = answer(call);
      if (answered === 'drop') {
        request.socket.destroy();
        return;
      }
      // Bitcoin Core answers an RPC error with HTTP 500 and the error in the body.
      response.statusCode = 'error' in answered ? 500 : 200;
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify(
          'error' in answered
            ? { result: null, error: answered.error, id: body.id }
            : { result: answered.result, error: null, id: body.id },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://florin:s3cret@127.0.0.1:${(server.address() as AddressInfo).port}/wallet/payouts`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
