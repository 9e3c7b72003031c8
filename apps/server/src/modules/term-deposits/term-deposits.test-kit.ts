import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { TermDepositCoinSchema, TermDepositTransactionSchema, type TermDepositCoin } from '@florin/contracts';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import type { DB } from '../../db/schema.js';
import { checkLedger } from '../../ledger/index.js';
import type { TestApp } from '../../test/app.js';
import { coinDeposit } from '../../test/deposits.js';
import { liveCustomer, newIdempotencyKey, type FiatCustomer as Customer } from '../fiat/fiat.test-kit.js';
import { createNotifier } from '../notifications/service.js';
import { createTermDepositRepository } from './repository.js';
import { createTermDepositService, termDepositDomainCheck } from './service.js';
import { createInvestorRepository } from '../investor/repository.js';
import { createInvestorService } from '../investor/service.js';
import { createKycRepository } from '../kyc/repository.js';
import { createVerificationGate } from '../kyc/verification.js';
import { testClock } from '../../test/clock.js';

/** The firm's notice, as the closure service writes it: withdraw-only from `terminatedAt`, for 60 days. */
export async function giveNotice(executor: Kysely<DB>, userId: number, terminatedAt: Date): Promise<void> {
  await executor
    .updateTable('users')
    .set({
      termination_notice_at: new Date(),
      terminated_at: terminatedAt,
      access_ends_at: new Date(terminatedAt.getTime() + 60 * 86_400_000),
      terminated_by: 'firm',
    })
    .where('id', '=', userId)
    .execute();
}

/**
 * What the term-deposit API tests share, bound to the test app `app()` returns
 * (each file starts its own in beforeAll).
 */
export function termDepositKit(app: () => TestApp) {
  const db = () => app().database.db;

  async function expectLedgerToHold(): Promise<void> {
    const result = await checkLedger(db(), [termDepositDomainCheck]);
    expect(result.violations).toEqual([]);
  }

  /** A second instance of the service on the same database, as another server would run it. */
  function instance() {
    return createTermDepositService({
      db: db(),
      repository: createTermDepositRepository(db()),
      ledger: app().ledger,
      notifier: createNotifier({ db: db(), mailer: createDevMailbox(db()), log: app().app.log }),
      publicUrl: 'http://localhost',
      log: app().app.log,
      investor: createInvestorService({
        db: db(),
        repository: createInvestorRepository(db()),
        clock: testClock,
      }),
      verification: createVerificationGate({ db: db(), repository: createKycRepository(db()) }),
    });
  }

  /** A live customer holding `eth` and `btc`, each paid to their deposit address and confirmed. */
  async function customerWith(eth = '0', btc = '0'): Promise<Customer> {
    const customer = await liveCustomer(app());
    if (eth !== '0') await coinDeposit(app(), customer, 'eth', eth);
    if (btc !== '0') await coinDeposit(app(), customer, 'btc', btc);
    return customer;
  }

  async function coins(customer: Customer): Promise<TermDepositCoin[]> {
    const response = await customer.browser.get('/api/v1/term-deposit-coins');
    expect(response.statusCode, response.body).toBe(200);
    return TermDepositCoinSchema.array().parse(response.json<{ data: unknown }>().data);
  }

  async function shortestOption(customer: Customer, coin = 'eth') {
    const row = (await coins(customer)).find((entry) => entry.coin_id === coin);
    const option = row?.options.reduce((a, b) => (a.no_days <= b.no_days ? a : b));
    if (!option) throw new Error(`no option for ${coin}`);
    return option;
  }

  function lock(customer: Customer, body: Record<string, unknown>, key = newIdempotencyKey()) {
    return customer.browser.post('/api/v1/crypto/term-deposit', body, {
      headers: { 'idempotency-key': key },
    });
  }

  async function available(customer: Customer, asset: 'ETH' | 'BTC' = 'ETH') {
    return (
      await app().ledger.getBalance(db(), { asset, kind: 'available', ownerUserId: String(customer.id) })
    ).available;
  }

  async function history(customer: Customer, skip = 0, take = 3) {
    const response = await customer.browser.get(
      `/api/v1/term-deposit-transactions?skip=${skip}&take=${take}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ data: unknown; total: number }>();
    return { data: TermDepositTransactionSchema.array().parse(body.data), total: body.total };
  }

  async function journalsWithKey(key: string) {
    return db().selectFrom('journals').select('id').where('idempotency_key', '=', key).execute();
  }

  return {
    expectLedgerToHold,
    instance,
    customerWith,
    coins,
    shortestOption,
    lock,
    available,
    history,
    journalsWithKey,
  };
}
