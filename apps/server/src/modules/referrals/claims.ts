import {
  AFFILIATE_CLAIM_PURPOSE,
  AppError,
  FIAT_TEXTS,
  REFERRALS_TEXTS,
  type AffiliateClaim,
  type AffiliateEarnings,
  waitUntilText,
} from '@florin/contracts';
import { AmountFormatError, parseAmount } from '@florin/domain';
import { idempotentRequest } from '../../http/idempotency.js';
import { checkMayPayOut } from '../fiat/service.js';
import type { ClaimRow } from './repository.js';
import {
  affiliateRef,
  availableRef,
  endingOf,
  pounds,
  refused,
  requireCustomer,
  toClaim,
  type Answer,
  type ReferralServiceDeps,
} from './shared.js';

/** The customer's earnings, and their claims to be paid them. */
export function createClaims(deps: ReferralServiceDeps) {
  const { db, repository, ledger } = deps;

  return {
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
      const answer = async (row: ClaimRow) => ({
        data: {
          user_balance: pounds((await ledger.getBalance(db, availableRef(userId))).available),
          claim: toClaim(row),
        },
        message: REFERRALS_TEXTS.claimSent,
      });
      /** The claim this key already made answers again, with the balance as it is now. */
      const request = idempotentRequest({
        request: { amount: amount.toString() },
        find: (executor) => repository.findClaimByKey(executor, userId, idempotencyKey),
        answer: (row) => row,
      });
      const earlier = await request.replay(db);
      if (earlier) return answer(earlier);

      const customer = await requireCustomer(repository, userId);
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
        return answer(await request.replayOrThrow(db, error));
      }

      const outcome = await db.transaction().execute(async (trx) => {
        const locked = await repository.lockCustomer(trx, userId);
        if (!locked) throw new AppError('UNAUTHENTICATED');
        return request.replayOrRun(trx, async () => {
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
          const inserted = await repository.insertClaim(trx, {
            user_id: userId,
            idempotency_key: idempotencyKey,
            request_hash: request.requestHash,
            amount: amount.toString(),
            hold_id: holdId,
            bank_account_id: bank.id,
            name_of_account: bank.name_of_account,
            sort_code: bank.bank_sort_code,
            account_number: bank.bank_account_number,
          });
          const mail = await deps.notifier.queue(trx, customer, 'affiliate_claim_requested', {
            firstName: customer.first_name,
            amount: pounds(inserted.amount),
            ending: endingOf(inserted.account_number),
          });
          return { row: inserted, mail };
        });
      });
      if (outcome.replayed) return answer(outcome.answer);
      await deps.notifier.deliver(outcome.result.mail);
      return answer(outcome.result.row);
    },
  };
}
