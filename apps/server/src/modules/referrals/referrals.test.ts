import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AffiliateEarningsSchema,
  FIAT_TEXTS,
  QuoteSchema,
  REFERRALS_ADMIN_TEXTS,
  REFERRALS_TEXTS,
} from '@florin/contracts';
import { formatAmount, parseAmount } from '@florin/domain';
import { checkLedger } from '../../ledger/index.js';
import { signedInStaff, type SignedInStaff, putOnHold } from '../../test/admin.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { awayFromTotpStepEdge, oathtoolCode, type Browser } from '../../test/browser.js';
import { moneyPaths, type MoneyPaths } from '../../test/money-paths.js';
import { mailSubjects } from '../compliance/customers.test-kit.js';
import { fiatDomainCheck } from '../fiat/service.js';
import { errorOf, newIdempotencyKey, readyBankAccount, type FiatCustomer } from '../fiat/fiat.test-kit.js';
import { tradingDomainCheck } from '../trading/service.js';
import { referralsDomainCheck, type ReferralService } from './service.js';
import { testClock } from '../../test/clock.js';
import { createReferralsForTests, referralsKit } from './referrals.test-kit.js';

let t: TestApp;
let superadmin: SignedInStaff;
let finance: SignedInStaff;
let compliance: SignedInStaff;
/** The same services the app runs, on its database and ledger: tests run the accrual job by hand. */
let referrals: ReferralService;
let paths: MoneyPaths;

beforeAll(async () => {
  t = await createTestApp();
  superadmin = await signedInStaff(t.app, t.database.db, 'superadmin');
  finance = await signedInStaff(t.app, t.database.db, 'finance');
  compliance = await signedInStaff(t.app, t.database.db, 'compliance');
  referrals = createReferralsForTests(t);
  paths = await moneyPaths(t);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;

async function expectLedgerToHold(): Promise<void> {
  const result = await checkLedger(db(), [referralsDomainCheck, tradingDomainCheck, fiatDomainCheck]);
  expect(result.violations).toEqual([]);
}

const { customer, overview } = referralsKit(() => t);

async function earnings(who: FiatCustomer, flag: 0 | 1 = 0) {
  const response = await who.browser.get(`/api/v1/user/affiliate-earnings/${flag}`);
  expect(response.statusCode, response.body).toBe(200);
  return AffiliateEarningsSchema.parse(response.json<{ data: unknown }>().data);
}

/** 20 % of the fees in pounds, each rounded down to the penny. */
function commissionOn(...fees: string[]): string {
  return formatAmount(
    fees.reduce((sum, fee) => sum + (parseAmount(fee, 'GBP') * 20n) / 100n, 0n),
    'GBP',
  );
}

/**
 * A £1,000 bank transfer finance records, then an instant buy of 0.01 BTC near £20,000 by `who`:
 * about £200 at Tier 1 (1.39 %), so a fee near £2.80.
 */
async function buyBitcoin(who: FiatCustomer): Promise<string> {
  await paths.bankDeposit(who, '1000.00');
  const driven = await t.app.inject({
    method: 'POST',
    url: '/dev/market/drive',
    payload: { symbol: 'BTC/GBP', mid: '20000' },
  });
  expect(driven.statusCode, driven.body).toBe(200);
  const quoted = await who.browser.post('/api/v1/quotes', { side: 'buy', coin_id: 'btc', quantity: '0.01' });
  expect(quoted.statusCode, quoted.body).toBe(200);
  const quote = QuoteSchema.parse(quoted.json<{ data: unknown }>().data);
  const executed = await who.browser.post('/api/v1/order', { quote_id: quote.id });
  expect(executed.statusCode, executed.body).toBe(200);
  return quote.fee;
}

async function enableTwoFactor(browser: Browser): Promise<string> {
  const generated = await browser.get('/api/v1/two-factor-authentication/generate');
  const { secret } = generated.json<{ data: { secret: string } }>().data;
  awayFromTotpStepEdge();
  const enabled = await browser.post('/api/v1/two-factor-authentication/toggle', {
    passcode: oathtoolCode(secret, new Date(testClock.now().getTime() - 30_000)),
    disable_2fa: 0,
    google2fa_secret: 'IGNORED',
  });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return secret;
}

function claim(who: FiatCustomer, body: Record<string, unknown>, key = newIdempotencyKey()) {
  return who.browser.post('/api/v1/user/affiliate-withdraw', body, { headers: { 'idempotency-key': key } });
}

describe('the incentives policy', () => {
  it('keeps commissions and promo benefits from UK individuals by default, and a superadmin can change it', async () => {
    expect((await overview(await customer('uk-individual'))).is_eligible).toBe(false);
    expect((await overview(await customer('corporate'))).is_eligible).toBe(true);
    const abroad = await overview(await customer('abroad'));
    expect(abroad).toMatchObject({ is_eligible: true, commission_percent: '20', has_custom_referral: false });
    expect(abroad.referral_path).toBe(`/register?ref=${encodeURIComponent(abroad.referral_code)}`);

    const policy = await superadmin.browser.get('/api/admin/referrals/policy');
    expect(policy.json()).toMatchObject({
      data: { policy: 'corporate_or_outside_uk', commission_percent: '20' },
    });
    // Finance pays claims but does not set the policy.
    const refused = await finance.browser.put('/api/admin/referrals/policy', {
      policy: 'everyone',
      commission_percent: '20',
    });
    expect(refused.statusCode).toBe(404);

    const saved = await superadmin.browser.put('/api/admin/referrals/policy', {
      policy: 'everyone',
      commission_percent: '25',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ message: REFERRALS_ADMIN_TEXTS.policySaved });
    expect((await overview(await customer('uk-individual'))).is_eligible).toBe(true);
    const restored = await superadmin.browser.put('/api/admin/referrals/policy', {
      policy: 'corporate_or_outside_uk',
      commission_percent: '20',
    });
    expect(restored.statusCode).toBe(200);
  });
});

describe('referral commission', () => {
  it("credits 20 % of a referred customer's trading fee to an eligible referrer, once", async () => {
    const referrer = await customer('corporate');
    const referred = await customer('uk-individual', { referredBy: referrer });
    const fee = await buyBitcoin(referred);
    expect(Number(fee)).toBeGreaterThan(2.7);
    expect((await earnings(referrer)).amount_total).toBe('0.00');

    await referrals.accrueCommissions();
    await referrals.accrueCommissions();
    const earned = await earnings(referrer);
    expect(earned).toMatchObject({
      amount_total: commissionOn(fee),
      amount_available: commissionOn(fee),
      amount_pending: '0.00',
      amount_withdrawn: '0.00',
    });
    expect(earned.list.data).toHaveLength(1);
    await expectLedgerToHold();
  });

  it('credits a referrer under notice for trades before the termination takes effect, and nothing once it has or their account has closed', async () => {
    const referrer = await customer('corporate');
    const referred = await customer('uk-individual', { referredBy: referrer });
    const skips = async () =>
      (
        await db()
          .selectFrom('referral_commissions')
          .select('skipped')
          .where('referrer_user_id', '=', referrer.id)
          .orderBy('created_at')
          .execute()
      ).map((row) => row.skipped);
    const setEnds = (terminatedAt: Date, accessEndsAt: Date) =>
      db()
        .updateTable('users')
        .set({ terminated_at: terminatedAt, access_ends_at: accessEndsAt, terminated_by: 'firm' })
        .where('id', '=', referrer.id)
        .execute();
    const day = 86_400_000;

    // Bought during the notice, accrued after the termination took effect: paid, and claimable for 60 days.
    await setEnds(new Date(Date.now() + day), new Date(Date.now() + 61 * day));
    const fee = await buyBitcoin(referred);
    await setEnds(new Date(), new Date(Date.now() + 60 * day));
    await referrals.accrueCommissions();
    expect(await skips()).toEqual([null]);
    expect((await earnings(referrer)).amount_available).toBe(commissionOn(fee));

    // Bought after it took effect: nothing.
    await buyBitcoin(referred);
    await referrals.accrueCommissions();
    expect(await skips()).toEqual([null, 'closed']);

    // Bought before the account closed but accrued after: nothing, since it could never be claimed.
    await setEnds(new Date(Date.now() + day), new Date(Date.now() + 61 * day));
    await buyBitcoin(referred);
    const closedAt = new Date();
    await setEnds(closedAt, closedAt);
    await referrals.accrueCommissions();
    expect(await skips()).toEqual([null, 'closed', 'closed']);
    await expectLedgerToHold();
  });

  it('credits nothing to a UK individual referrer the policy excludes', async () => {
    const referrer = await customer('uk-individual');
    const referred = await customer('abroad', { referredBy: referrer });
    await buyBitcoin(referred);
    await referrals.accrueCommissions();
    expect(await earnings(referrer)).toMatchObject({ amount_total: '0.00', amount_available: '0.00' });
    await expectLedgerToHold();
  });
});

describe('claiming earnings', () => {
  /** A referrer with £1.10 or more unpaid (two trades' commission). */
  async function earner(): Promise<FiatCustomer> {
    const referrer = await customer('abroad');
    const referred = await customer('uk-individual', { referredBy: referrer });
    const fees = [await buyBitcoin(referred), await buyBitcoin(referred)];
    await referrals.accrueCommissions();
    expect((await earnings(referrer)).amount_available).toBe(commissionOn(...fees));
    expect(Number(commissionOn(...fees))).toBeGreaterThanOrEqual(1.1);
    return referrer;
  }

  it('asks for bank details, then the 2FA code, then queues the claim for finance, who pay it', async () => {
    const referrer = await earner();
    const noBank = await claim(referrer, { withdraw_amount: '1.10' });
    expect(noBank.statusCode).toBe(422);
    expect(errorOf(noBank)).toMatchObject({
      code: 'BANK_ACCOUNT_NOT_SET',
      message: REFERRALS_TEXTS.bankRequired,
    });

    await readyBankAccount(t, referrer);
    const secret = await enableTwoFactor(referrer.browser);
    expect(await overview(referrer)).toMatchObject({ passcode_required: true, has_bank_account: true });
    const missing = await claim(referrer, { withdraw_amount: '1.10' });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).message).toBe(REFERRALS_TEXTS.passcodeRequired);
    const wrong = await claim(referrer, { withdraw_amount: '1.10', passcode: '000000' });
    expect(errorOf(wrong).message).toBe(REFERRALS_TEXTS.wrongPasscode);
    const tooMuch = await claim(referrer, { withdraw_amount: '99.00', passcode: '000000' });
    expect(errorOf(tooMuch).message).toBe(REFERRALS_TEXTS.claimTooLarge);

    awayFromTotpStepEdge();
    const key = newIdempotencyKey();
    const body = { withdraw_amount: '1.10', passcode: oathtoolCode(secret) };
    const claimed = await claim(referrer, body, key);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toMatchObject({
      message: REFERRALS_TEXTS.claimSent,
      data: { user_balance: '0.00', claim: { amount: '1.10', status: 'waiting' } },
    });
    // A retry with the same key is the same claim.
    const again = await claim(referrer, body, key);
    expect(again.json<{ data: { claim: { id: string } } }>().data.claim.id).toBe(
      claimed.json<{ data: { claim: { id: string } } }>().data.claim.id,
    );
    const unpaid = Number((await earnings(referrer)).amount_total);
    expect(await earnings(referrer)).toMatchObject({
      amount_available: (unpaid - 1.1).toFixed(2),
      amount_pending: '1.10',
      amount_withdrawn: '0.00',
    });
    await expectLedgerToHold();

    const queue = await finance.browser.get('/api/admin/affiliate-claims');
    const queued = queue
      .json<{ data: { id: string; user_id: number; sort_code: string | null }[] }>()
      .data.find((row) => row.user_id === referrer.id);
    expect(queued).toMatchObject({ sort_code: '123456' });
    const paid = await finance.browser.post(`/api/admin/affiliate-claims/${queued?.id}/paid`);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ message: REFERRALS_ADMIN_TEXTS.claimPaid, data: { status: 'paid' } });
    expect(await mailSubjects(db(), referrer.email)).toEqual(
      expect.arrayContaining([
        'Your referral earnings claim — Florin',
        'Your referral earnings were paid — Florin',
      ]),
    );
    const twice = await finance.browser.post(`/api/admin/affiliate-claims/${queued?.id}/paid`);
    expect(errorOf(twice)).toMatchObject({
      code: 'CONFLICT',
      message: REFERRALS_ADMIN_TEXTS.claimNotWaiting,
    });
    expect(await earnings(referrer)).toMatchObject({
      amount_available: (unpaid - 1.1).toFixed(2),
      amount_pending: '0.00',
      amount_withdrawn: '1.10',
    });
    expect((await earnings(referrer, 1)).list.data).toMatchObject([{ amount: '1.10', status: 'paid' }]);
    await expectLedgerToHold();
  });

  it('puts a rejected claim back to Unpaid', async () => {
    const referrer = await earner();
    await readyBankAccount(t, referrer);
    const claimed = await claim(referrer, { withdraw_amount: '1.00' });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const id = claimed.json<{ data: { claim: { id: string } } }>().data.claim.id;
    const rejected = await finance.browser.post(`/api/admin/affiliate-claims/${id}/reject`, {
      reason: 'Bank returned the payment',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await mailSubjects(db(), referrer.email)).toContain(
      'Your referral earnings claim could not be paid — Florin',
    );
    const after = await earnings(referrer);
    expect(after).toMatchObject({ amount_available: after.amount_total, amount_pending: '0.00' });
    await expectLedgerToHold();
  });

  it('pays no claim of a customer on hold until the hold is lifted; the claim stays waiting', async () => {
    const referrer = await earner();
    await readyBankAccount(t, referrer);
    const claimed = await claim(referrer, { withdraw_amount: '1.00' });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const id = claimed.json<{ data: { claim: { id: string } } }>().data.claim.id;
    await putOnHold(compliance, referrer.id);
    // The claims list says so, for the screen to show it before finance pays the bank.
    const listed = (await finance.browser.get('/api/admin/affiliate-claims')).json<{
      data: { id: string; customer_on_hold: boolean }[];
    }>();
    expect(listed.data.find((row) => row.id === id)?.customer_on_hold).toBe(true);

    const paid = await finance.browser.post(`/api/admin/affiliate-claims/${id}/paid`);
    expect(paid.statusCode).toBe(409);
    expect(errorOf(paid)).toMatchObject({ code: 'CONFLICT', message: REFERRALS_ADMIN_TEXTS.customerOnHold });
    const row = await db()
      .selectFrom('affiliate_claims')
      .innerJoin('holds', 'holds.id', 'affiliate_claims.hold_id')
      .select(['affiliate_claims.status', 'holds.status as hold_status'])
      .where('affiliate_claims.id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'waiting', hold_status: 'pending' });
    await expectLedgerToHold();

    const lifted = await compliance.browser.post(`/api/admin/compliance/cases/${referrer.id}/lift-hold`, {
      reason: 'Cleared: a false match.',
    });
    expect(lifted.statusCode, lifted.body).toBe(200);
    const paidAfter = await finance.browser.post(`/api/admin/affiliate-claims/${id}/paid`);
    expect(paidAfter.statusCode, paidAfter.body).toBe(200);
    await expectLedgerToHold();
  });

  it('waits, as a fiat withdrawal does, for source-of-wealth answers and after a staff 2FA reset', async () => {
    const referrer = await earner();
    await readyBankAccount(t, referrer);
    const unpaid = (await earnings(referrer)).amount_available;
    const setUser = (values: { is_sow_reset?: number; two_factor_reset_at?: Date | null }) =>
      db().updateTable('users').set(values).where('id', '=', referrer.id).execute();

    await setUser({ is_sow_reset: 1 });
    const asked = await claim(referrer, { withdraw_amount: '1.00' });
    expect(asked.statusCode).toBe(403);
    expect(errorOf(asked).message).toBe(FIAT_TEXTS.sourceOfWealthPending);

    await setUser({ is_sow_reset: 0, two_factor_reset_at: new Date(Date.now() - 3_600_000) });
    const waiting = await claim(referrer, { withdraw_amount: '1.00' });
    expect(waiting.statusCode).toBe(403);
    expect(errorOf(waiting).message).toMatch(new RegExp(`^${FIAT_TEXTS.twoFactorResetWait} `));
    expect((await earnings(referrer)).amount_available).toBe(unpaid);

    await setUser({ two_factor_reset_at: new Date(Date.now() - 25 * 3_600_000) });
    const claimed = await claim(referrer, { withdraw_amount: '1.00' });
    expect(claimed.statusCode, claimed.body).toBe(200);
    await expectLedgerToHold();
  });

  it('refuses a claim with nothing unpaid', async () => {
    const nobody = await customer('corporate');
    await readyBankAccount(t, nobody);
    const response = await claim(nobody, { withdraw_amount: '1.00' });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).message).toBe(REFERRALS_TEXTS.nothingToClaim);
  });

  it('refuses an unverified bank account with the fiat text', async () => {
    const referrer = await earner();
    const created = await referrer.browser.post('/api/v1/bank-account/create', {
      name_of_account: 'Grace Hopper',
      currency_code: 'GBP',
      bank_sort_code: '12-34-56',
      bank_account_number: '12345678',
    });
    expect(created.statusCode).toBe(200);
    const response = await claim(referrer, { withdraw_amount: '1.00' });
    expect(errorOf(response).message).toBe(FIAT_TEXTS.bankAccountUnverified);
  });
});
