import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { CryptoAsset } from '@florin/contracts';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { createStorageFromConfig } from '../../adapters/storage/index.js';
import type { DB } from '../../db/schema.js';
import { checkLedger } from '../../ledger/index.js';
import type { TestApp } from '../../test/app.js';
import type { Browser } from '../../test/browser.js';
import { newCustomer } from '../kyc/kyc.test-kit.js';
import { createNotifier } from '../notifications/service.js';
import { fiatDomainCheck } from '../fiat/service.js';
import { addressSourcesFromConfig } from './address-sources.js';
import { createSimulatedChain } from './chains/simulated.js';
import type { ChainClient } from './chains/types.js';
import { createCryptoRepository } from './repository.js';
import { createCryptoService, cryptoDomainCheck } from './service.js';
import { chainsFromConfig } from './setup.js';
import { cryptoWithdrawalDomainCheck } from './withdrawals.js';
import { completeInvestorJourney } from '../investor/investor.test-kit.js';
import { insertApprovedVerification } from '../compliance/customers.test-kit.js';
import { createKycRepository } from '../kyc/repository.js';
import { createVerificationGate } from '../kyc/verification.js';

/**
 * What the crypto API tests share: live customers with a bearer session,
 * a second crypto service on the test database (a second "instance", whose
 * watcher races the app's), and the ledger checker with the crypto domain
 * check.
 */

/** Invariants 1–7 and invariant 8 for fiat, crypto deposits and crypto withdrawals. */
export async function expectCryptoLedgerToHold(db: Kysely<DB>): Promise<void> {
  const result = await checkLedger(db, [fiatDomainCheck, cryptoDomainCheck, cryptoWithdrawalDomainCheck]);
  expect(result.violations).toEqual([]);
}

/** A live customer (status 1) signed in with a bearer session, past the first-investment journey. */
export async function liveCustomer(t: TestApp, options: { live?: boolean } = {}) {
  const customer = await newCustomer(t);
  if (options.live !== false) {
    await t.database.db
      .updateTable('users')
      .set({ status: 1, live_since: new Date() })
      .where('id', '=', customer.id)
      .execute();
    await insertApprovedVerification(t.database.db, createStorageFromConfig(t.config), customer.id);
    await completeInvestorJourney(t.database.db, customer.id);
  }
  return customer;
}

/** Another instance's crypto service on the same database (chains: the simulated one unless given). */
export function otherInstance(
  t: TestApp,
  options: {
    gbpRate?: (asset: string) => string | null;
    chains?: Partial<Record<CryptoAsset, ChainClient>>;
  } = {},
) {
  const db = t.database.db;
  const simulated = createSimulatedChain(db);
  const moved: (string | number)[][] = [];
  const service = createCryptoService({
    db,
    repository: createCryptoRepository(db),
    ledger: t.ledger,
    notifier: createNotifier({ db, mailer: createDevMailbox(db), log: t.app.log }),
    userEvents: { moneyMoved: (ids) => moved.push([...ids]) },
    gbpRate: options.gbpRate ?? (() => null),
    addresses: addressSourcesFromConfig(t.config),
    chains: { ...chainsFromConfig(t.config, simulated.client), ...options.chains },
    simulated,
    verification: createVerificationGate({ db, repository: createKycRepository(db) }),
  });
  return { service, simulated, moved };
}

export async function balanceOf(t: TestApp, userId: number, asset: CryptoAsset) {
  return t.ledger.getBalance(t.database.db, { asset, kind: 'available', ownerUserId: String(userId) });
}

/**
 * Asks for a code for a BTC withdrawal of 0.5 to an external wallet, with a fresh idempotency key:
 * how the security-wait tests find out whether crypto withdrawals are paused (403) or get as far
 * as the balance (422 for an empty one).
 */
export function askForBtcWithdrawal(browser: Browser) {
  return browser.post(
    '/api/v1/crypto/send-verify-withdraw',
    {
      coin: 'btc',
      wallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      beneficiary_type: 'self',
      destination_type: 'private_wallet',
      amount: '0.5',
    },
    { headers: { 'idempotency-key': `security-wait-${Date.now()}-${Math.random()}` } },
  );
}
