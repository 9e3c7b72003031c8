import {
  AppError,
  assetOfCoinId,
  TERM_DEPOSIT_TEXTS,
  termDepositAfterTerminationText,
  termDepositInterest,
  termDepositMaximumText,
  termDepositMinimumText,
  type CoinId,
  type TermDepositCoin,
  type TermDepositTransaction,
} from '@florin/contracts';
import { formatAmount, isLive, parseAmount, trimZeros } from '@florin/domain';
import { idempotentRequest } from '../../http/idempotency.js';
import { NO_BALANCE, readCustomerBalances } from '../portfolio/service.js';
import {
  asAsset,
  availableAccount,
  DAY_MS,
  lockKey,
  rateText,
  termAccount,
  toTransaction,
  type TermDepositServiceDeps,
} from './shared.js';

export type CreateTermDepositInput = {
  coin: CoinId;
  amount: string;
  day: number;
  rate?: string | undefined;
  user_id?: number | undefined;
};

function refuseAmount(message: string): AppError {
  return new AppError('VALIDATION_FAILED', undefined, { amount: [message] });
}

/** The customer's side: the coins and terms on offer, locking coins, and their deposits. */
export function createDeposits(deps: TermDepositServiceDeps) {
  const { db, repository, ledger } = deps;

  const coinIdOf = (asset: string) => asset.toLowerCase();

  return {
    /** The deposit table: each coin with the customer's available balance and the active terms. */
    async coins(userId: number, now: Date = new Date()): Promise<{ data: TermDepositCoin[] }> {
      const [coins, options, balances] = await Promise.all([
        repository.listCoins(),
        repository.listOptions(true),
        readCustomerBalances(db, userId), // the one every screen shows
      ]);
      const data: TermDepositCoin[] = [];
      for (const coin of coins) {
        const asset = asAsset(coin.asset);
        const balance = balances.get(asset) ?? NO_BALANCE;
        data.push({
          coin_id: coin.coin_id as CoinId,
          name: coin.name,
          scale: coin.scale,
          balance: formatAmount(balance.available, asset),
          options: options
            .filter((option) => option.asset === coin.asset)
            .map((option) => ({
              id: option.id,
              days_id: option.id,
              coin_id: coin.coin_id as CoinId,
              no_days: option.no_days,
              interest_rate: rateText(option.interest_rate),
              expiry: new Date(now.getTime() + option.no_days * DAY_MS).toISOString(),
              min_amount: formatAmount(BigInt(option.amount_min), asset),
              max_amount: option.amount_max === null ? null : formatAmount(BigInt(option.amount_max), asset),
            })),
        });
      }
      return { data };
    },

    /**
     * Locks the amount: the deposit row with its rate, interest and dates and
     * the lock journal (Dr available / Cr term) commit together, once per
     * idempotency key.
     */
    async create(
      userId: number,
      idempotencyKey: string,
      input: CreateTermDepositInput,
      now: Date = new Date(),
    ): Promise<{ data: TermDepositTransaction; message: string }> {
      // The spec's payload names the customer: anyone else's id names nothing this customer may touch.
      if (input.user_id !== undefined && input.user_id !== userId) throw new AppError('NOT_FOUND');
      const customer = await repository.findCustomer(userId);
      if (!customer || !isLive(customer)) throw new AppError('ACCOUNT_NOT_LIVE');
      await deps.verification.assertComplete(userId);
      await deps.investor.assertMayInvest(userId);
      const asset = assetOfCoinId(input.coin);
      const amount = parseAmount(input.amount, asset);
      const request = idempotentRequest({
        request: { coin: input.coin, amount: amount.toString(), day: input.day, rate: input.rate },
        find: (executor) => repository.findByKey(executor, userId, idempotencyKey),
        answer: (row) => row,
      });

      const outcome = await db.transaction().execute(async (trx) => {
        const isLocked = await repository.lockOption(trx, input.day);
        // After the option's lock, not before: a copy of this request (same key) that held it
        // commits before this statement starts (READ COMMITTED), so it is seen here and answered
        // with, not refused for the balance it took (50 concurrent copies in
        // security/races.test.ts got 422s when this came first).
        return request.replayOrRun(trx, async () => {
          const option = isLocked ? await repository.findOption(input.day, trx) : undefined;
          if (!option || !option.active || !option.coin_active || option.asset !== asset)
            throw new AppError('VALIDATION_FAILED', undefined, { day: [TERM_DEPOSIT_TEXTS.termUnavailable] });
          if (input.rate !== undefined && input.rate !== '') {
            const sent = /^\d+(\.\d+)?$/.test(input.rate) ? rateText(input.rate) : input.rate;
            if (sent !== rateText(option.interest_rate))
              throw new AppError('CONFLICT', TERM_DEPOSIT_TEXTS.rateChanged);
          }
          const maturesAt = new Date(now.getTime() + option.no_days * DAY_MS);
          // During the firm's notice: coins locked past it would come back when only withdrawing is left, or after
          // access has ended. Read under the customer's share lock, so a termination either committed first (and
          // is seen here) or waits for this deposit (and shortens it).
          const terminatedAt = await repository.terminationOf(trx, userId);
          if (terminatedAt && maturesAt > terminatedAt) {
            const text = termDepositAfterTerminationText(terminatedAt);
            throw new AppError('VALIDATION_FAILED', text, { day: [text] });
          }
          if (amount < BigInt(option.amount_min))
            throw refuseAmount(
              termDepositMinimumText(trimZeros(formatAmount(BigInt(option.amount_min), asset)), input.coin),
            );
          if (option.amount_max !== null && amount > BigInt(option.amount_max))
            throw refuseAmount(
              termDepositMaximumText(trimZeros(formatAmount(BigInt(option.amount_max), asset)), input.coin),
            );
          const balance = await ledger.getBalance(trx, availableAccount(userId, asset));
          if (amount > balance.available) throw refuseAmount(TERM_DEPOSIT_TEXTS.amountExceeded);
          if (option.total_cap !== null) {
            const live = (await repository.liveTotals(trx, [option.id])).get(option.id) ?? 0n;
            if (live + amount > BigInt(option.total_cap))
              throw new AppError('CONFLICT', TERM_DEPOSIT_TEXTS.termFull);
          }
          const deposit = await repository.insertDeposit(trx, {
            user_id: userId,
            option_id: option.id,
            idempotency_key: idempotencyKey,
            request_hash: request.requestHash,
            asset,
            amount: amount.toString(),
            no_days: option.no_days,
            interest_rate: option.interest_rate,
            interest: termDepositInterest(amount, option.interest_rate, input.coin).toString(),
            starts_at: now,
            matures_at: maturesAt,
          });
          // The same key committed by a concurrent request while this one waited.
          if (!deposit) return request.replayOrThrow(trx, new AppError('CONFLICT'));
          try {
            await ledger.postJournal(trx, {
              idempotencyKey: lockKey(deposit.id),
              kind: 'term_deposit_lock',
              reference: `term_deposit:${deposit.id}`,
              metadata: { term_deposit_id: deposit.id, option_id: option.id },
              postings: [
                { account: availableAccount(userId, asset), amount: -amount },
                { account: termAccount(deposit), amount },
              ],
            });
          } catch (error) {
            if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS')
              throw refuseAmount(TERM_DEPOSIT_TEXTS.amountExceeded);
            throw error;
          }
          return deposit;
        });
      });
      const row = outcome.replayed ? outcome.answer : outcome.result;
      return { data: toTransaction(row, input.coin), message: TERM_DEPOSIT_TEXTS.success };
    },

    async list(
      userId: number,
      query: { skip: number; take: number },
    ): Promise<{ data: TermDepositTransaction[]; total: number }> {
      const [rows, total] = await Promise.all([
        repository.listDeposits(userId, query.skip, query.take),
        repository.countDeposits(userId),
      ]);
      return { data: rows.map((row) => toTransaction(row, coinIdOf(row.asset))), total };
    },
  };
}
