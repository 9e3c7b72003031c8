import { sql } from 'kysely';
import { expect } from 'vitest';
import { OpenOrderSchema, QuoteSchema, type OpenOrder, type Quote } from '@florin/contracts';
import { formatAmount } from '@florin/domain';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { checkLedger } from '../../ledger/index.js';
import { type TestApp } from '../../test/app.js';
import { bankDeposit, coinDeposit } from '../../test/deposits.js';
import { liveCustomer, newIdempotencyKey, type FiatCustomer as Customer } from '../fiat/fiat.test-kit.js';
import { createNotifier } from '../notifications/service.js';
import { createFeeScheduleStore } from '../fees/schedule.js';
import { createTradingVolumes, tradingVolumeDomainCheck } from '../trading-volume/service.js';
import { createTradingRepository } from './repository.js';
import { createTradingService, tradingDomainCheck, type TradingServiceDeps } from './service.js';
import { createInvestorRepository } from '../investor/repository.js';
import { createInvestorService } from '../investor/service.js';
import { createKycRepository } from '../kyc/repository.js';
import { createVerificationGate } from '../kyc/verification.js';
import { sendDueMail as sendDueMailOf } from '../../test/browser.js';
import { testClock } from '../../test/clock.js';

/**
 * What the trading API tests share: customers funded to trade, the simulated market moved by hand,
 * quotes, market and limit orders sent as the app's clients send them, and a trading service of the
 * test's own. Each test file calls `tradingSteps(() => t)` with its own app.
 */
export function tradingSteps(app: () => TestApp) {
  const db = () => app().database.db;

  async function expectLedgerToHold(): Promise<void> {
    const result = await checkLedger(db(), [tradingDomainCheck, tradingVolumeDomainCheck]);
    expect(result.violations).toEqual([]);
  }

  /** Moves the simulated BTC/GBP mid (and fills what it crosses) through the dev route. */
  async function drive(mid: string, symbol = 'BTC/GBP') {
    const response = await app().app.inject({
      method: 'POST',
      url: '/dev/market/drive',
      payload: { symbol, mid },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: { bid: string; ask: string } }>().data;
  }

  /** A live customer holding `gbp` pence (a bank transfer) and `btc` satoshi (a confirmed coin deposit). */
  async function trader(options: { platform?: 1 | 2; gbp?: bigint; btc?: bigint } = {}): Promise<Customer> {
    const customer = await liveCustomer(app());
    if (options.platform === 2)
      await db().updateTable('users').set({ platform: 2 }).where('id', '=', customer.id).execute();
    if (options.gbp) await bankDeposit(app(), customer, formatAmount(options.gbp, 'GBP'));
    if (options.btc) await coinDeposit(app(), customer, 'btc', formatAmount(options.btc, 'BTC'));
    return customer;
  }

  /** The firm ended the account a moment ago: 60 days to withdraw, nothing else (issue 13). */
  async function terminate(customer: Customer): Promise<void> {
    await db()
      .updateTable('users')
      .set({
        terminated_at: sql<Date>`now() - interval '1 second'`,
        access_ends_at: sql<Date>`now() + interval '60 days'`,
        terminated_by: 'firm',
      })
      .where('id', '=', customer.id)
      .execute();
  }

  async function balance(customer: Customer, asset: 'GBP' | 'BTC') {
    return app().ledger.getBalance(db(), { asset, kind: 'available', ownerUserId: String(customer.id) });
  }

  async function quote(customer: Customer, body: Record<string, unknown>): Promise<Quote> {
    const response = await customer.browser.post('/api/v1/quotes', { side: 'buy', coin_id: 'btc', ...body });
    expect(response.statusCode, response.body).toBe(200);
    return QuoteSchema.parse(response.json<{ data: unknown }>().data);
  }

  function execute(customer: Customer, quoteId: string) {
    return customer.browser.post('/api/v1/order', { quote_id: quoteId });
  }

  function market(
    customer: Customer,
    side: 'buy' | 'sell',
    body: Record<string, unknown>,
    key = newIdempotencyKey(),
  ) {
    return customer.browser.post(
      `/api/v1/crypto/${side}`,
      { coin_id: 'btc', ...body },
      { headers: { 'idempotency-key': key } },
    );
  }

  function limit(customer: Customer, body: Record<string, unknown>, key = newIdempotencyKey()) {
    return customer.browser.post(
      '/api/v1/crypto/limit_order',
      { coin_id: 'btc', order_type: 2, ...body },
      { headers: { 'idempotency-key': key } },
    );
  }

  async function placed(customer: Customer, body: Record<string, unknown>): Promise<OpenOrder> {
    const response = await limit(customer, body);
    expect(response.statusCode, response.body).toBe(200);
    return OpenOrderSchema.parse(response.json<{ data: unknown }>().data);
  }

  /** A trading service of its own on the test's database, with some of its parts replaced. */
  function tradingService(overrides: Pick<TradingServiceDeps, 'market'> & Partial<TradingServiceDeps>) {
    const investor = createInvestorService({
      db: db(),
      repository: createInvestorRepository(db()),
      clock: testClock,
    });
    const verification = createVerificationGate({ db: db(), repository: createKycRepository(db()) });
    const volumes = createTradingVolumes(db());
    return createTradingService({
      db: db(),
      repository: createTradingRepository(db()),
      volumes,
      ledger: app().ledger,
      notifier: createNotifier({ db: db(), mailer: createDevMailbox(db()), log: app().app.log }),
      userEvents: { moneyMoved: () => undefined, ordersChanged: () => undefined },
      log: app().app.log,
      feeDiscountFor: () => Promise.resolve(null),
      feeSchedule: createFeeScheduleStore(db()),
      quoteFacts: {
        moneyRefused: verification.moneyRefusedFact,
        mayInvest: investor.mayInvestFact,
        volumeThisYear: volumes.volumeThisYearFact,
        runningDiscount: () => ({ select: sql<null>`null`, read: () => null }),
        eligibleDiscount: () => Promise.resolve(null),
      },
      investor,
      verification,
      sourceOfWealth: {
        resetSourceOfWealthOverThreshold: () => Promise.resolve(),
        mayBeAskedByThresholdFact: () => ({ select: sql<boolean>`false`, read: () => false }),
      },
      ...overrides,
    });
  }

  /** The outbox's sender, as the leader's mail job runs it: a trade's and a fill's mail are sent by it. */
  const sendDueMail = () => sendDueMailOf(app().app, db());

  async function statusOf(orderId: string) {
    return (
      await db().selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()
    ).status;
  }
  return {
    db,
    expectLedgerToHold,
    drive,
    trader,
    terminate,
    balance,
    quote,
    execute,
    market,
    limit,
    placed,
    tradingService,
    sendDueMail,
    statusOf,
  };
}

export type { Customer };
