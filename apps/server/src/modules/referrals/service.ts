import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import {
  AFFILIATE_CLAIM_PURPOSE,
  AppError,
  FIAT_TEXTS,
  REFERRALS_ADMIN_TEXTS,
  REFERRALS_TEXTS,
  type AdminAffiliateClaim,
  type AffiliateClaim,
  type AffiliateEarnings,
  type BankAccount,
  type CustomReferral,
  type IncentivesPolicy,
  type IncentivesPolicyName,
  type ReferralOverview,
  type ReferralPartner,
  waitUntilText,
} from '@florin/contracts';
import { AmountFormatError, formatAmount, mulRatioFloor, parseAmount, parseRatio } from '@florin/domain';
import { ON_HOLD, type DB } from '../../db/schema.js';
import type { DomainCheck, HouseAccountRef, Ledger, UserAccountRef } from '../../ledger/index.js';
import type { SecondFactor } from '../../security/second-factor.js';
import { checkMayPayOut } from '../fiat/service.js';
import type { VerificationGate } from '../kyc/verification.js';
import type { Notifier } from '../notifications/service.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type {
  ClaimRow,
  ClaimWithUser,
  ReferralCustomer,
  ReferralRepository,
  UnaccruedTrade,
} from './repository.js';

/** The leading instance looks for referred customers' trades to credit this often. */
export const COMMISSION_ACCRUAL_INTERVAL_MS = 15_000;
const ACCRUAL_BATCH = 500;

/** The path of a customer's referral link; the register page reads `ref` (features/auth/register-page.tsx). */
export function referralPathOf(code: string): string {
  return `/register?ref=${encodeURIComponent(code)}`;
}

export type ReferralServiceDeps = {
  db: Kysely<DB>;
  repository: ReferralRepository;
  ledger: Ledger;
  secondFactor: SecondFactor;
  notifier: Pick<Notifier, 'notify'>;
  /** The customer's registered GBP bank account (the fiat module's), or null. */
  bankAccountOf: (userId: number) => Promise<BankAccount | null>;
  /** Spec 000 §6: a customer whose verification is incomplete is paid nothing out. */
  verification: VerificationGate;
  /** What a claim's waits (a 2FA reset, new bank details) are judged by (the app's clock). */
  clock: Clock;
};

export type ReferralService = ReturnType<typeof createReferralService>;

type Answer<T> = { data: T; message: string };

const affiliateRef = (userId: number): UserAccountRef => ({
  asset: 'GBP',
  kind: 'affiliate',
  ownerUserId: String(userId),
});
const availableRef = (userId: number): UserAccountRef => ({
  asset: 'GBP',
  kind: 'available',
  ownerUserId: String(userId),
});
const REFERRAL_EXPENSE: HouseAccountRef = { asset: 'GBP', kind: 'referral_expense' };
const BANK_GBP: HouseAccountRef = { asset: 'GBP', kind: 'bank' };

const pounds = (units: bigint | string) => formatAmount(BigInt(units), 'GBP');

function refused(message: string, field: 'passcode' | 'withdraw_amount'): AppError {
  return new AppError('WITHDRAWAL_REFUSED', message, undefined, { [field]: message });
}

/**
 * Whether the incentives policy lets this customer earn commission or use a
 * promo benefit. The default keeps every incentive away from UK retail
 * customers (no inducements to invest): only Corporate customers and
 * customers resident outside the UK. An unknown residence counts as the UK.
 */
export function isEligibleUnder(
  policy: IncentivesPolicyName,
  customer: { account_type: 'Individual' | 'Corporate' | null; country: string | null },
): boolean {
  if (policy === 'everyone') return true;
  if (policy === 'nobody') return false;
  return customer.account_type === 'Corporate' || (customer.country !== null && customer.country !== 'GB');
}

/** The commission on a fee: percent of it in pence, rounded down (the house never rounds against itself). */
export function commissionOn(feePence: bigint, percent: string): bigint {
  const ratio = parseRatio(percent);
  return mulRatioFloor(feePence, { numerator: ratio.numerator, denominator: ratio.denominator * 100n });
}

/** The trade's fee in pence: a GBP fee as it is, another fiat's at the trade's own gbp_value ÷ notional. */
export function feeInPence(trade: Pick<UnaccruedTrade, 'fiat' | 'fee' | 'notional' | 'gbp_value'>): bigint {
  const fee = BigInt(trade.fee);
  if (trade.fiat === 'GBP') return fee;
  const notional = BigInt(trade.notional);
  if (notional === 0n) return 0n;
  return (fee * BigInt(trade.gbp_value)) / notional;
}

function toClaim(row: ClaimRow): AffiliateClaim {
  return {
    id: row.id,
    amount: pounds(row.amount),
    status: row.status,
    created_at: row.created_at.toISOString(),
    paid_at: row.paid_at?.toISOString() ?? null,
  };
}

/** The last four digits of a bank account number, as mails show it. */
function endingOf(accountNumber: string | null): string {
  return (accountNumber ?? '').slice(-4);
}

function hashRequest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

export function createReferralService(deps: ReferralServiceDeps) {
  const { db, repository, ledger } = deps;

  async function requireCustomer(userId: number): Promise<ReferralCustomer> {
    const customer = await repository.findCustomer(userId);
    if (!customer) throw new AppError('UNAUTHENTICATED');
    return customer;
  }

  async function policy(executor: Kysely<DB> = db) {
    return repository.getPolicy(executor);
  }

  function toPolicy(row: Awaited<ReturnType<typeof policy>>): IncentivesPolicy {
    return {
      policy: row.policy,
      commission_percent: row.commission_percent,
      updated_at: row.updated_at?.toISOString() ?? null,
    };
  }

  function adminClaimOf(row: ClaimWithUser): AdminAffiliateClaim {
    return {
      ...toClaim(row),
      user_id: row.user_id,
      email: row.email,
      name: `${row.first_name} ${row.last_name}`,
      name_of_account: row.name_of_account,
      sort_code: row.sort_code,
      account_number: row.account_number,
      rejected_reason: row.rejected_reason,
      customer_on_hold: row.block_status === ON_HOLD,
    };
  }

  async function toAdminClaim(id: string, executor: Kysely<DB> = db): Promise<AdminAffiliateClaim> {
    const row = await repository.findClaimWithUser(id, executor);
    if (!row) throw new AppError('NOT_FOUND');
    return adminClaimOf(row);
  }

  async function toPartner(userId: number, executor: Kysely<DB> = db): Promise<ReferralPartner> {
    const user = await repository.findReferralCodeOf(userId);
    if (!user) throw new AppError('NOT_FOUND');
    const partner = await repository.findPartner(userId, executor);
    return {
      user_id: user.id,
      email: user.email,
      referral_code: user.referral_code,
      has_custom_referral: partner?.has_custom_referral ?? false,
      slug: partner?.slug ?? null,
      logo_url: partner?.logo_url ?? null,
    };
  }

  function isSlugClash(error: unknown): boolean {
    const code = (error as { code?: string }).code;
    const constraint = (error as { constraint?: string }).constraint ?? '';
    return code === '23505' && /slug/.test(constraint || String((error as Error).message));
  }

  async function accrueOne(trade: UnaccruedTrade): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const current = await repository.getPolicy(trx);
      const referrer = await repository.findCustomer(trade.referrer_user_id, trx);
      const feeGbp = feeInPence(trade);
      // Nothing for a trade made after the referrer's account closed or their termination took effect (judged
      // at the trade's time, so a backlog of earlier trades is still paid while they can claim it), nor for any
      // trade once their access has ended: they could never claim it.
      const isClosed =
        referrer !== undefined &&
        ((referrer.terminated_at !== null && referrer.terminated_at <= trade.created_at) ||
          (referrer.access_ends_at !== null && referrer.access_ends_at <= new Date()));
      const eligible = referrer !== undefined && isEligibleUnder(current.policy, referrer);
      const amount = eligible && !isClosed ? commissionOn(feeGbp, current.commission_percent) : 0n;
      const skipped = isClosed
        ? ('closed' as const)
        : !eligible
          ? ('policy' as const)
          : amount === 0n
            ? ('zero' as const)
            : null;
      let journalId: string | null = null;
      if (!skipped) {
        // One key per trade: a second run (or another instance) replays this journal, never repeats it.
        ({ journalId } = await ledger.postJournal(trx, {
          idempotencyKey: `referral_commission:trade:${trade.id}`,
          kind: 'affiliate_commission',
          reference: `trade:${trade.id}`,
          metadata: { referred_user_id: trade.user_id, fee_gbp: feeGbp, percent: current.commission_percent },
          postings: [
            { account: REFERRAL_EXPENSE, amount: -amount },
            { account: affiliateRef(trade.referrer_user_id), amount },
          ],
        }));
      }
      const inserted = await repository.insertCommission(trx, {
        trade_id: trade.id,
        referrer_user_id: trade.referrer_user_id,
        referred_user_id: trade.user_id,
        fee_gbp: feeGbp.toString(),
        commission_percent: current.commission_percent,
        amount: amount.toString(),
        skipped,
        journal_id: journalId,
      });
      return inserted !== undefined && skipped === null;
    });
  }

  return {
    isEligibleUnder,

    /** Whether the incentives policy lets this customer earn commission or use promo benefits now. */
    async isEligible(userId: number): Promise<boolean> {
      const customer = await repository.findCustomer(userId);
      if (!customer) return false;
      return isEligibleUnder((await policy()).policy, customer);
    },

    /**
     * Credits the referrers of every referred customer's trade not yet
     * accrued (the leading instance runs it every COMMISSION_ACCRUAL_INTERVAL_MS;
     * tests call it by hand). Durable: a trade's commission row and its
     * journal commit together, unique on the trade and on the journal key, so
     * a crash or a second run never credits a trade twice or misses one.
     * Returns how many trades were credited.
     */
    async accrueCommissions(): Promise<number> {
      let credited = 0;
      for (;;) {
        const trades = await repository.findUnaccruedTrades(ACCRUAL_BATCH);
        for (const trade of trades) if (await accrueOne(trade)) credited += 1;
        if (trades.length < ACCRUAL_BATCH) return credited;
      }
    },

    // ---- customer ----

    async overview(userId: number): Promise<ReferralOverview> {
      const customer = await requireCustomer(userId);
      const current = await policy();
      const partner = await repository.findPartner(userId);
      const bank = await deps.bankAccountOf(userId);
      return {
        referral_code: customer.referral_code,
        referral_path: referralPathOf(customer.referral_code),
        has_custom_referral: partner?.has_custom_referral ?? false,
        is_eligible: isEligibleUnder(current.policy, customer),
        commission_percent: current.commission_percent,
        passcode_required: deps.secondFactor.isRequired(customer),
        email_codes: customer.platform_2fa_mobile,
        has_bank_account: bank !== null,
      };
    },

    async getCustom(userId: number): Promise<CustomReferral> {
      const partner = await repository.findPartner(userId);
      if (!partner?.has_custom_referral) throw new AppError('FORBIDDEN', REFERRALS_TEXTS.notPartner);
      return { slug: partner.slug, logo_url: partner.logo_url };
    },

    async saveCustom(userId: number, slug: string): Promise<Answer<CustomReferral>> {
      const partner = await repository.findPartner(userId);
      if (!partner?.has_custom_referral) throw new AppError('FORBIDDEN', REFERRALS_TEXTS.notPartner);
      try {
        const row = await repository.upsertPartner(db, userId, { slug });
        return { data: { slug: row.slug, logo_url: row.logo_url }, message: REFERRALS_TEXTS.slugSaved };
      } catch (error) {
        if (isSlugClash(error))
          throw new AppError('VALIDATION_FAILED', REFERRALS_TEXTS.slugTaken, {
            slug: [REFERRALS_TEXTS.slugTaken],
          });
        throw error;
      }
    },

    /** The referral registration page: a partner's slug or a referral code → the code to register with. */
    async lookup(id: string) {
      const value = id.trim().toLowerCase();
      const partner = await repository.findPartnerBySlug(value);
      if (partner?.has_custom_referral) {
        const user = await repository.findReferralCodeOf(partner.user_id);
        if (user)
          return { data: { code: user.referral_code, slug: partner.slug, logo_url: partner.logo_url } };
      }
      const user = await repository.findUserByReferralCode(value);
      if (!user) throw new AppError('NOT_FOUND');
      return { data: { code: user.referral_code, slug: null, logo_url: null } };
    },

    async earnings(userId: number, flag: '0' | '1'): Promise<AffiliateEarnings> {
      const totals = await repository.totals(userId);
      const balance = await ledger.getBalance(db, affiliateRef(userId));
      const list =
        flag === '0'
          ? (await repository.listCommissions(userId)).map((row) => ({
              id: row.id,
              trade_id: row.trade_id,
              amount: pounds(row.amount),
              created_at: row.created_at.toISOString(),
            }))
          : (await repository.listClaimsOf(userId)).map(toClaim);
      return {
        amount_total: pounds(totals.earned),
        amount_available: pounds(balance.available),
        amount_withdrawn: pounds(totals.paid),
        amount_pending: pounds(totals.waiting),
        list: { data: list },
      };
    },

    /**
     * A claim: a payout request of unpaid earnings to the registered GBP bank
     * account. The amount is held on the affiliate account (Waiting to be
     * Paid) until finance pays it (Paid) or rejects it (Unpaid again).
     */
    async claim(
      userId: number,
      idempotencyKey: string,
      body: { withdraw_amount: string; passcode?: string | null },
    ): Promise<Answer<{ user_balance: string; claim: AffiliateClaim }>> {
      let amount: bigint;
      try {
        amount = parseAmount(body.withdraw_amount, 'GBP');
      } catch (error) {
        if (error instanceof AmountFormatError)
          throw new AppError('VALIDATION_FAILED', undefined, {
            withdraw_amount: [FIAT_TEXTS.amountDecimals],
          });
        throw error;
      }
      if (amount <= 0n) throw refused(REFERRALS_TEXTS.nothingToClaim, 'withdraw_amount');
      const requestHash = hashRequest({ amount: amount.toString() });
      const answer = async (row: ClaimRow) => ({
        data: {
          user_balance: pounds((await ledger.getBalance(db, availableRef(userId))).available),
          claim: toClaim(row),
        },
        message: REFERRALS_TEXTS.claimSent,
      });
      /** The claim this key already made, if any; the same key with another request is a conflict. */
      const claimed = async (executor: Kysely<DB>) => {
        const earlier = await repository.findClaimByKey(executor, userId, idempotencyKey);
        if (earlier && earlier.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
        return earlier;
      };
      const earlier = await claimed(db);
      if (earlier) return answer(earlier);

      const customer = await requireCustomer(userId);
      // A claim is paid to the bank: it waits where a fiat withdrawal would (source of wealth, a 2FA reset).
      checkMayPayOut(customer, deps.clock.now());
      await deps.verification.assertComplete(userId);
      const bank = await deps.bankAccountOf(userId);
      if (!bank)
        throw new AppError('BANK_ACCOUNT_NOT_SET', REFERRALS_TEXTS.bankRequired, undefined, {
          title: REFERRALS_TEXTS.bankRequiredTitle,
        });
      if (!bank.verified) throw new AppError('BANK_ACCOUNT_NOT_SET', FIAT_TEXTS.bankAccountUnverified);
      if (bank.withdrawals_allowed_from && new Date(bank.withdrawals_allowed_from) > deps.clock.now())
        throw new AppError(
          'BANK_ACCOUNT_NOT_SET',
          waitUntilText(FIAT_TEXTS.bankDetailsChanged, new Date(bank.withdrawals_allowed_from)),
        );
      try {
        const unpaid = (await ledger.getBalance(db, affiliateRef(userId))).available;
        if (unpaid <= 0n) throw refused(REFERRALS_TEXTS.nothingToClaim, 'withdraw_amount');
        if (amount > unpaid) throw refused(REFERRALS_TEXTS.claimTooLarge, 'withdraw_amount');
        const second = await deps.secondFactor.check(customer, body.passcode, AFFILIATE_CLAIM_PURPOSE);
        if (second === 'missing') throw refused(REFERRALS_TEXTS.passcodeRequired, 'passcode');
        if (second === 'expired') throw refused(REFERRALS_TEXTS.codeExpired, 'passcode');
        if (second === 'wrong') throw refused(REFERRALS_TEXTS.wrongPasscode, 'passcode');
      } catch (error) {
        // A copy of this request (same key) that committed since the first look has held the
        // earnings and spent the code: the key answers with that claim, not a refusal (LEDGER.md;
        // 50 concurrent copies in security/races.test.ts got a 400 without this).
        const committed = await claimed(db);
        if (!committed) throw error;
        return answer(committed);
      }

      let isNew = false;
      const row = await db.transaction().execute(async (trx) => {
        const locked = await repository.lockCustomer(trx, userId);
        if (!locked) throw new AppError('UNAUTHENTICATED');
        const replay = await claimed(trx);
        if (replay) return replay;
        checkMayPayOut(locked, deps.clock.now());
        let holdId: string;
        try {
          ({ holdId } = await ledger.placeHold(trx, {
            idempotencyKey: `affiliate_claim:${userId}:${idempotencyKey}`,
            account: affiliateRef(userId),
            amount,
            reason: 'affiliate_claim',
            reference: `affiliate_claim:${userId}:${idempotencyKey}`,
          }));
        } catch (error) {
          if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS')
            throw refused(REFERRALS_TEXTS.claimTooLarge, 'withdraw_amount');
          throw error;
        }
        isNew = true;
        return repository.insertClaim(trx, {
          user_id: userId,
          idempotency_key: idempotencyKey,
          request_hash: requestHash,
          amount: amount.toString(),
          hold_id: holdId,
          bank_account_id: bank.id,
          name_of_account: bank.name_of_account,
          sort_code: bank.bank_sort_code,
          account_number: bank.bank_account_number,
        });
      });
      if (isNew)
        await deps.notifier.notify(customer, 'affiliate_claim_requested', {
          firstName: customer.first_name,
          amount: pounds(row.amount),
          ending: endingOf(row.account_number),
        });
      return answer(row);
    },

    // ---- back office ----

    async getPolicy(): Promise<IncentivesPolicy> {
      return toPolicy(await policy());
    },

    async updatePolicy(
      actor: AuditActor,
      body: { policy: IncentivesPolicyName; commission_percent: string },
    ): Promise<Answer<IncentivesPolicy>> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await repository.getPolicy(trx);
        const after = await repository.updatePolicy(trx, {
          policy: body.policy,
          commission_percent: body.commission_percent,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'referrals.policy_updated',
          targetType: 'incentives_policy',
          targetId: 1,
          before: { policy: before.policy, commission_percent: before.commission_percent },
          after: { policy: after.policy, commission_percent: after.commission_percent },
        });
        return after;
      });
      return { data: toPolicy(row), message: REFERRALS_ADMIN_TEXTS.policySaved };
    },

    async getPartner(userId: number): Promise<ReferralPartner> {
      return toPartner(userId);
    },

    async updatePartner(
      actor: AuditActor,
      userId: number,
      body: { has_custom_referral: boolean; slug?: string | null; logo_url?: string | null },
    ): Promise<Answer<ReferralPartner>> {
      const before = await toPartner(userId);
      try {
        await db.transaction().execute(async (trx) => {
          await repository.upsertPartner(trx, userId, {
            has_custom_referral: body.has_custom_referral,
            ...(body.slug !== undefined ? { slug: body.slug } : {}),
            ...(body.logo_url !== undefined ? { logo_url: body.logo_url } : {}),
          });
          await recordAudit(trx, {
            ...actor,
            action: 'referrals.partner_updated',
            targetType: 'user',
            targetId: userId,
            before: {
              has_custom_referral: before.has_custom_referral,
              slug: before.slug,
              logo_url: before.logo_url,
            },
            after: body,
          });
        });
      } catch (error) {
        if (isSlugClash(error))
          throw new AppError('VALIDATION_FAILED', REFERRALS_TEXTS.slugTaken, {
            slug: [REFERRALS_TEXTS.slugTaken],
          });
        throw error;
      }
      return { data: await toPartner(userId), message: REFERRALS_ADMIN_TEXTS.partnerSaved };
    },

    async listClaims(status: 'waiting' | 'paid' | 'rejected' = 'waiting'): Promise<AdminAffiliateClaim[]> {
      return (await repository.listClaims(status)).map(adminClaimOf);
    },

    /** Finance paid the claim to the bank account it names: Dr user-affiliate:GBP / Cr bank:GBP. */
    async markClaimPaid(actor: AuditActor, id: string): Promise<Answer<AdminAffiliateClaim>> {
      await db.transaction().execute(async (trx) => {
        const claim = await repository.lockClaim(trx, id);
        if (!claim) throw new AppError('NOT_FOUND');
        if (claim.status !== 'waiting') throw new AppError('CONFLICT', REFERRALS_ADMIN_TEXTS.claimNotWaiting);
        // Locked until the commit: a hold compliance puts on now waits for this payout, or stops it.
        const customer = await repository.lockCustomer(trx, claim.user_id);
        if (customer?.block_status === ON_HOLD)
          throw new AppError('CONFLICT', REFERRALS_ADMIN_TEXTS.customerOnHold);
        const amount = BigInt(claim.amount);
        const { journalId } = await ledger.postHold(trx, {
          holdId: claim.hold_id,
          amount,
          idempotencyKey: `affiliate_claim_paid:${claim.id}`,
          kind: 'affiliate_claim',
          reference: `affiliate_claim:${claim.id}`,
          metadata: { sort_code: claim.sort_code, account_number: claim.account_number },
          postings: [
            { account: affiliateRef(claim.user_id), amount: -amount },
            { account: BANK_GBP, amount },
          ],
        });
        await repository.updateClaim(trx, id, { status: 'paid', journal_id: journalId, paid_at: new Date() });
        await recordAudit(trx, {
          ...actor,
          action: 'referrals.claim_paid',
          targetType: 'affiliate_claim',
          targetId: id,
          before: { status: 'waiting' },
          after: { status: 'paid', amount: pounds(amount) },
        });
      });
      const paid = await toAdminClaim(id);
      const customer = await repository.findCustomer(paid.user_id);
      if (customer)
        await deps.notifier.notify(customer, 'affiliate_claim_paid', {
          firstName: customer.first_name,
          amount: paid.amount,
          ending: endingOf(paid.account_number),
        });
      return { data: paid, message: REFERRALS_ADMIN_TEXTS.claimPaid };
    },

    /** Finance could not pay it: the hold is voided and the amount is Unpaid again. */
    async rejectClaim(actor: AuditActor, id: string, reason: string): Promise<Answer<AdminAffiliateClaim>> {
      await db.transaction().execute(async (trx) => {
        const claim = await repository.lockClaim(trx, id);
        if (!claim) throw new AppError('NOT_FOUND');
        if (claim.status !== 'waiting') throw new AppError('CONFLICT', REFERRALS_ADMIN_TEXTS.claimNotWaiting);
        await ledger.releaseHold(trx, { holdId: claim.hold_id, outcome: 'voided' });
        await repository.updateClaim(trx, id, {
          status: 'rejected',
          rejected_at: new Date(),
          rejected_reason: reason,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'referrals.claim_rejected',
          targetType: 'affiliate_claim',
          targetId: id,
          before: { status: 'waiting' },
          after: { status: 'rejected', reason },
        });
      });
      const rejected = await toAdminClaim(id);
      const customer = await repository.findCustomer(rejected.user_id);
      if (customer)
        await deps.notifier.notify(customer, 'affiliate_claim_rejected', {
          firstName: customer.first_name,
          amount: rejected.amount,
          reason,
        });
      return { data: rejected, message: REFERRALS_ADMIN_TEXTS.claimRejected };
    },
  };
}

/** Invariant 8 for referrals: every commission and claim matches its ledger effect. */
export const referralsDomainCheck: DomainCheck = {
  name: 'referrals',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'commission for trade ' || c.trade_id || ' does not match its journal' AS message
      FROM referral_commissions c
      LEFT JOIN journals j ON j.id = c.journal_id
      WHERE (c.journal_id IS NOT NULL AND (j.id IS NULL OR j.kind <> 'affiliate_commission'
               OR j.idempotency_key <> 'referral_commission:trade:' || c.trade_id
               OR c.amount <= 0
               OR NOT EXISTS (SELECT 1 FROM entries e JOIN accounts a ON a.id = e.account_id
                              WHERE e.journal_id = j.id AND a.kind = 'affiliate'
                                AND a.owner_user_id = c.referrer_user_id AND e.amount = c.amount)))
         OR (c.journal_id IS NULL AND EXISTS (SELECT 1 FROM journals x
               WHERE x.idempotency_key = 'referral_commission:trade:' || c.trade_id))
      UNION ALL
      SELECT 'claim ' || c.id || ' is ' || c.status || ' but its hold is ' || h.status
        || ' with ' || count(j.id) || ' journals'
      FROM affiliate_claims c
      JOIN holds h ON h.id = c.hold_id
      LEFT JOIN journals j ON j.hold_id = c.hold_id
      GROUP BY c.id, c.status, h.status, h.amount, c.amount, c.journal_id
      HAVING NOT (
        h.amount = c.amount AND (
          (c.status = 'paid' AND h.status = 'posted' AND count(j.id) = 1
            AND bool_and(j.id = c.journal_id AND j.kind = 'affiliate_claim'))
          OR (c.status = 'rejected' AND h.status = 'voided' AND count(j.id) = 0)
          OR (c.status = 'waiting' AND h.status = 'pending' AND count(j.id) = 0)
        )
      )`.execute(db);
    return result.rows.map((row) => row.message);
  },
};
