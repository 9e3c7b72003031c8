import type { Kysely } from 'kysely';
import {
  API_TOKEN_TEXTS,
  AppError,
  assetOfCoinId,
  CRYPTO_WITHDRAW_DECIMALS,
  CRYPTO_WITHDRAW_TEXTS,
  CRYPTO_WITHDRAWAL_CONFIRM_MINUTES,
  CRYPTO_WITHDRAWAL_TRANSITIONS,
  cryptoMinimumText,
  EMAILED_CODE_MINUTES,
  maskAddress,
  type CoinId,
  type CryptoWithdrawal,
  type CryptoWithdrawInfo,
} from '@florin/contracts';
import { parseAmount } from '@florin/domain';
import type { DB } from '../../db/schema.js';
import { idempotentRequest } from '../../http/idempotency.js';
import { statesThatMayBecome } from '../../lifecycle.js';
import { LIMITS } from '../../security/rate-limits.js';
import { cryptoWithdrawalsBlockedUntil } from '../compliance/service.js';
import { coins, userRef, type Answer } from './shared.js';
import type { WithdrawalCancellation } from './withdrawal-cancellation.js';
import {
  toWithdrawal,
  type CryptoWithdrawalServiceDeps,
  type WithdrawalContext,
  type WithdrawRequestBody,
} from './withdrawal-context.js';
import type { WithdrawalDestinations } from './withdrawal-destinations.js';
import type { CryptoWithdrawalRow, WithdrawCustomer } from './withdrawal-repository.js';

function amountRefused(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { amount: [message] });
}

function codePurpose(id: string): string {
  return `crypto_withdrawal:${id}`;
}

/**
 * A customer asks for a withdrawal: it is checked, its amount held and a code mailed for it alone, which
 * they enter (or have mailed again) within the 30 minutes.
 */
export function createWithdrawalRequests(
  deps: CryptoWithdrawalServiceDeps,
  context: WithdrawalContext,
  flows: { destinations: WithdrawalDestinations; cancellation: WithdrawalCancellation },
) {
  const { db, repository, ledger, notifier, userEvents, clock } = deps;
  const { requireCustomer, requireCoin, checkMayWithdraw, requireOwn } = context;
  const { destinationOf } = flows.destinations;
  const { expire, expireOverdue } = flows.cancellation;

  /** In the transaction that issues the code, so the code is never stored without its mail. */
  function queueCode(trx: Kysely<DB>, customer: WithdrawCustomer, row: CryptoWithdrawalRow, code: string) {
    return notifier.queue(trx, customer, 'withdrawal_code', {
      firstName: customer.first_name,
      code,
      purpose: `your withdrawal of ${coins(row.amount, row.asset)} ${row.asset} to ${maskAddress(row.address)}`,
      isWithdrawal: true,
      minutes: EMAILED_CODE_MINUTES,
    });
  }

  async function withdrawInfo(userId: number, coinId: CoinId): Promise<{ data: CryptoWithdrawInfo }> {
    const customer = await requireCustomer(userId);
    const asset = assetOfCoinId(coinId);
    const coin = await requireCoin(asset);
    await expireOverdue(userId);
    const balance = await ledger.getBalance(db, userRef(userId, asset));
    return {
      data: {
        coin_id: coinId,
        available: coins(balance.available, asset),
        minimum: coins(coin.amount_min, asset),
        fee: coins(coin.withdraw_fee, asset),
        decimals: asset === 'XRP' ? 0 : CRYPTO_WITHDRAW_DECIMALS,
        passcode_required: deps.secondFactor.isRequired(customer),
        email_codes: customer.platform_2fa_mobile,
        withdraw_disabled: !coin.active || coin.disable_withdraw,
        blocked_until: cryptoWithdrawalsBlockedUntil(customer, clock.now())?.toISOString() ?? null,
      },
    };
  }

  /** send-verify-withdraw: checks, holds the amount and mails a code for this withdrawal only. */
  async function request(
    userId: number,
    idempotencyKey: string,
    body: WithdrawRequestBody,
    /** Set for an API token with WITHDRAW SAVED ADDRESS: only a saved (whitelisted) address, by its id. */
    options: { savedAddressOnly?: boolean } = {},
  ): Promise<Answer<CryptoWithdrawal>> {
    const asset = assetOfCoinId(body.coin);
    const amount = parseAmount(body.amount, asset);
    const travelRule = {
      beneficiary_type: body.beneficiary_type,
      beneficiary_name: body.beneficiary_type === 'self' ? null : (body.beneficiary_name ?? null),
      destination_type: body.destination_type,
      exchange_name: body.destination_type === 'exchange' ? (body.exchange_name ?? null) : null,
    };
    const request = idempotentRequest({
      request: {
        asset,
        amount: amount.toString(),
        wallet: body.wallet ?? null,
        whitelisted_wallet_id: body.whitelisted_wallet_id ?? null,
        tag: body.xrp_tag || null,
        ...travelRule,
      },
      find: (executor) => repository.findByKey(executor, userId, idempotencyKey),
      answer: (row) => ({ data: toWithdrawal(row), message: CRYPTO_WITHDRAW_TEXTS.codeSent }),
    });
    const earlier = await request.replay(db);
    if (earlier) return earlier;

    // The checks in the spec's order (001 §5), with its texts; they run again under the lock below.
    const customer = await requireCustomer(userId);
    const coin = await requireCoin(asset);
    checkMayWithdraw(customer, coin);
    await deps.verification.assertComplete(userId);
    // Issue 10: such a token names a saved address, which destinationOf then holds to its 24-hour wait.
    if (options.savedAddressOnly && !body.whitelisted_wallet_id)
      throw new AppError('FORBIDDEN', API_TOKEN_TEXTS.savedAddressOnly);
    // Issue 8: a mistyped address is refused before anything else about the request.
    const destination = await destinationOf(userId, asset, body);
    const minimum = BigInt(coin.amount_min);
    const fee = BigInt(coin.withdraw_fee);
    if (amount < minimum || amount <= fee)
      throw amountRefused(cryptoMinimumText(asset, coins(minimum, asset)));
    await expireOverdue(userId);
    const balance = await ledger.getBalance(db, userRef(userId, asset));
    if (amount > balance.available) {
      // A copy of this request (same key) that committed since the first look holds the balance:
      // the key answers with that withdrawal, not a refusal (LEDGER.md; 50 concurrent copies in
      // security/races.test.ts got a 422 without this).
      return request.replayOrThrow(db, amountRefused(CRYPTO_WITHDRAW_TEXTS.balanceTooLow));
    }

    const outcome = await db.transaction().execute(async (trx) => {
      // One customer's requests are decided one at a time: the key and the balance under this lock.
      const locked = await repository.lockCustomer(trx, userId);
      if (!locked) throw new AppError('UNAUTHENTICATED');
      return request.replayOrRun(trx, async () => {
        checkMayWithdraw(locked, coin);
        let holdId: string;
        try {
          ({ holdId } = await ledger.placeHold(trx, {
            idempotencyKey: `crypto_withdrawal:${userId}:${idempotencyKey}`,
            account: userRef(userId, asset),
            amount,
            reason: 'crypto_withdrawal',
            reference: `crypto_withdrawal:${userId}:${idempotencyKey}`,
          }));
        } catch (error) {
          if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS')
            throw amountRefused(CRYPTO_WITHDRAW_TEXTS.balanceTooLow);
          throw error;
        }
        const row = await repository.insert(trx, {
          user_id: userId,
          idempotency_key: idempotencyKey,
          request_hash: request.requestHash,
          asset,
          amount: amount.toString(),
          fee: fee.toString(),
          address: destination.address,
          tag: destination.tag,
          whitelisted_wallet_id: destination.whitelistedId,
          ...travelRule,
          status: 'awaiting_code',
          hold_id: holdId,
          verify_by: new Date(clock.now().getTime() + CRYPTO_WITHDRAWAL_CONFIRM_MINUTES * 60_000),
        });
        const code = await deps.emailedCodes.issue(trx, userId, codePurpose(row.id));
        return {
          answer: { data: toWithdrawal(row), message: CRYPTO_WITHDRAW_TEXTS.codeSent },
          mail: await queueCode(trx, customer, row, code),
        };
      });
    });
    if (outcome.replayed) return outcome.answer;
    userEvents.moneyMoved([userId]);
    await notifier.deliver(outcome.result.mail);
    return outcome.result.answer;
  }

  async function resendCode(userId: number, id: string): Promise<{ message: string }> {
    const row = await requireOwn(userId, id);
    if (row.status !== 'awaiting_code' || row.verify_by <= clock.now())
      throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notAwaitingCode);
    const customer = await requireCustomer(userId);
    // Each new code brings five new tries at the six digits: a few resends cover a lost mail.
    try {
      await deps.limits.take(LIMITS.withdrawalCodeResends, id);
    } catch (error) {
      if (error instanceof AppError && error.code === 'RATE_LIMITED')
        throw new AppError('RATE_LIMITED', CRYPTO_WITHDRAW_TEXTS.tooManyResends);
      throw error;
    }
    const mail = await db.transaction().execute(async (trx) => {
      const code = await deps.emailedCodes.issue(trx, userId, codePurpose(id));
      return queueCode(trx, customer, row, code);
    });
    await notifier.deliver(mail);
    return { message: CRYPTO_WITHDRAW_TEXTS.codeResent };
  }

  /** verify-withdraw: the code mailed for this withdrawal, once; 'Verification Code Expired' offers Resend. */
  async function verify(userId: number, id: string, code: string): Promise<Answer<CryptoWithdrawal>> {
    const row = await requireOwn(userId, id);
    if (row.status !== 'awaiting_code') throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notAwaitingCode);
    if (row.verify_by <= clock.now()) {
      await expire(id);
      userEvents.moneyMoved([userId]);
      throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notAwaitingCode);
    }
    const result = await deps.emailedCodes.check(userId, codePurpose(id), code);
    if (result === 'wrong') throw new AppError('VERIFICATION_FAILED', CRYPTO_WITHDRAW_TEXTS.codeWrong);
    if (result !== 'ok') throw new AppError('VERIFICATION_FAILED', CRYPTO_WITHDRAW_TEXTS.codeExpired);
    const updated = await db
      .updateTable('crypto_withdrawals')
      .set({ status: 'verified', verified_at: new Date() })
      .where('id', '=', id)
      .where('status', 'in', statesThatMayBecome(CRYPTO_WITHDRAWAL_TRANSITIONS, 'verified'))
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notAwaitingCode);
    return { data: toWithdrawal(updated), message: CRYPTO_WITHDRAW_TEXTS.codeVerified };
  }

  return { withdrawInfo, request, resendCode, verify };
}
