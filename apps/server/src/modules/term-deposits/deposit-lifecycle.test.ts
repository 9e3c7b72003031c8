import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TermDepositTransactionSchema } from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import { createDevMailbox } from '../../adapters/mail/mailer.js';
import { coinDeposit } from '../../test/deposits.js';
import { expectLedgerToHold } from '../../test/ledger.js';
import { statesThatMayBecome, transition } from '../../lifecycle.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { testClock } from '../../test/clock.js';
import { liveCustomer, newIdempotencyKey } from '../fiat/fiat.test-kit.js';
import { createInvestorRepository } from '../investor/repository.js';
import { createInvestorService } from '../investor/service.js';
import { createKycRepository } from '../kyc/repository.js';
import { createVerificationGate } from '../kyc/verification.js';
import { createNotifier } from '../notifications/service.js';
import { createTermDepositRepository } from './repository.js';
import { createTermDepositService, TERM_DEPOSIT_TRANSITIONS } from './service.js';

/**
 * The term deposit lifecycle (TERM_DEPOSIT_TRANSITIONS) is what paying back goes by: a deposit
 * expires once, when it is paid back, and nothing moves it after that.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

/** The maturity job, as the leading instance runs it. */
function maturityJob() {
  return createTermDepositService({
    db: db(),
    repository: createTermDepositRepository(db()),
    ledger: t.ledger,
    notifier: createNotifier({ db: db(), mailer: createDevMailbox(db()), log: t.app.log }),
    publicUrl: 'http://localhost',
    log: t.app.log,
    investor: createInvestorService({
      db: db(),
      repository: createInvestorRepository(db()),
      clock: testClock,
    }),
    verification: createVerificationGate({ db: db(), repository: createKycRepository(db()) }),
  });
}

async function depositRow(id: number) {
  return db()
    .selectFrom('term_deposits')
    .select(['id', 'status', 'paid_at'])
    .where('id', '=', String(id))
    .executeTakeFirstOrThrow();
}

describe('the term deposit lifecycle', () => {
  it('lets only a live deposit expire, and nothing leave expired', () => {
    expect(statesThatMayBecome(TERM_DEPOSIT_TRANSITIONS, 'expired')).toEqual(['live']);
    expect(TERM_DEPOSIT_TRANSITIONS.expired).toEqual([]);
    expect(() => transition(TERM_DEPOSIT_TRANSITIONS, 'expired', 'expired')).toThrow(
      expect.objectContaining({ code: 'CONFLICT', status: 409 }),
    );
  });

  it('refuses to mark a paid-back deposit expired again: it is paid back once', async () => {
    const customer = await liveCustomer(t);
    await coinDeposit(t, customer, 'eth', '1');
    const coins = await customer.browser.get('/api/v1/term-deposit-coins');
    const eth = coins
      .json<{ data: { coin_id: string; options: { id: number; no_days: number }[] }[] }>()
      .data.find((coin) => coin.coin_id === 'eth');
    const option = eth?.options.reduce((a, b) => (a.no_days <= b.no_days ? a : b));
    const locked = await customer.browser.post(
      '/api/v1/crypto/term-deposit',
      { coin: 'eth', amount: '0.5', day: option?.id },
      { headers: { 'idempotency-key': newIdempotencyKey() } },
    );
    expect(locked.statusCode, locked.body).toBe(200);
    const deposit = TermDepositTransactionSchema.parse(locked.json<{ data: unknown }>().data);
    expect(await maturityJob().payMatured(new Date(Date.parse(deposit.end_day) + 1000))).toBeGreaterThan(0);

    const expired = await depositRow(deposit.id);
    expect(expired.status).toBe('expired');
    const repository = createTermDepositRepository(db());
    await expect(
      db()
        .transaction()
        .execute((trx) => repository.markExpired(trx, expired, new Date(Date.now() + 86_400_000))),
    ).rejects.toMatchObject({ code: 'CONFLICT', status: 409 });
    expect(await depositRow(deposit.id)).toEqual(expired);
    const balance = await t.ledger.getBalance(db(), {
      asset: 'ETH',
      kind: 'available',
      ownerUserId: String(customer.id),
    });
    expect(balance.available).toBe(parseAmount('1.00125', 'ETH'));
    await expectLedgerToHold(db());
  });
});
