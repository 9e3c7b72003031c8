import {
  AppError,
  FIAT_TEXTS,
  FIAT_WITHDRAWAL_TRANSITIONS,
  normaliseBankFields,
  waitUntilText,
  type FiatCurrency,
  type FiatWithdrawal,
} from '@florin/contracts';
import { AmountFormatError, parseAmount } from '@florin/domain';
import { idempotentRequest } from '../../http/idempotency.js';
import { transition } from '../../lifecycle.js';
import { withdrawalsBlockedUntil } from '../compliance/service.js';
import type { BankAccountRow, FiatCustomer } from './repository.js';
import {
  asCurrency,
  checkMayPayOut,
  money,
  requireCustomer,
  toWithdrawal,
  userRef,
  withdrawalsAllowedFrom,
  type Answer,
  type FiatServiceDeps,
} from './shared.js';
import type { WithdrawalRow } from './withdrawal-repository.js';

export const FIAT_WITHDRAW_PURPOSE = 'Fiat Withdraw(2fa)';

function refused(field: 'amount' | 'passcode', message: string): AppError {
  return new AppError('WITHDRAWAL_REFUSED', message, undefined, { [field]: message });
}

/** A currency's withdrawal rules in minor units, as withdraw() charges them and the fees page shows them. */
function toCurrencyRules(row: {
  symbol: string;
  withdraw_min: string;
  withdraw_fee: string;
  withdraw_fee_free_from: string | null;
}) {
  return {
    symbol: row.symbol,
    minimum: BigInt(row.withdraw_min),
    fee: BigInt(row.withdraw_fee),
    feeFreeFrom: row.withdraw_fee_free_from === null ? null : BigInt(row.withdraw_fee_free_from),
  };
}

function feeFor(amount: bigint, rules: { fee: bigint; feeFreeFrom: bigint | null }): bigint {
  return rules.feeFreeFrom !== null && amount >= rules.feeFreeFrom ? 0n : rules.fee;
}

/**
 * The customer's fiat withdrawals: the form's rules, the request (money held until finance pays or
 * rejects it, payouts.ts) and the cancel while no payout file lists it.
 */
export function createWithdrawals(
  deps: Pick<
    FiatServiceDeps,
    'db' | 'repository' | 'ledger' | 'notifier' | 'userEvents' | 'secondFactor' | 'verification' | 'clock'
  >,
) {
  const { db, repository, ledger, notifier, userEvents, clock } = deps;

  async function currencyRules(currency: string) {
    const rules = await repository.findCurrencyRules(currency);
    if (!rules) throw new AppError('NOT_FOUND');
    return toCurrencyRules(rules);
  }

  /** The second factor a withdrawal needs, with the spec's texts. */
  async function checkSecondFactor(
    customer: FiatCustomer,
    passcode: string | null | undefined,
    purpose: string,
  ) {
    const result = await deps.secondFactor.check(customer, passcode, purpose);
    if (result === 'missing') throw refused('passcode', FIAT_TEXTS.passcodeRequired);
    if (result === 'expired') throw refused('passcode', FIAT_TEXTS.codeExpired);
    if (result === 'wrong') throw refused('passcode', FIAT_TEXTS.wrongPasscode);
  }

  /** Why this customer may not withdraw to their account in `currency` now; the account when they may. */
  function checkBankAccount(
    account: BankAccountRow | undefined,
    body: {
      bank_sort_code?: string | null;
      bank_account_number?: string | null;
      currency_code?: FiatCurrency | null;
    },
  ): BankAccountRow {
    if (!account) throw new AppError('BANK_ACCOUNT_NOT_SET');
    if (!account.verified_at) throw new AppError('BANK_ACCOUNT_NOT_SET', FIAT_TEXTS.bankAccountUnverified);
    const waitUntil = withdrawalsAllowedFrom(account, clock.now());
    if (waitUntil)
      throw new AppError(
        'BANK_ACCOUNT_NOT_SET',
        waitUntilText(FIAT_TEXTS.bankDetailsChanged, waitUntil),
        undefined,
        {
          withdrawals_allowed_from: waitUntil.toISOString(),
        },
      );
    // The client may send the details it shows; the money goes only to the registered account.
    if (body.bank_account_number || body.bank_sort_code) {
      const sent = normaliseBankFields({
        currency_code: body.currency_code,
        bank_account_number: body.bank_account_number ?? '',
        bank_sort_code: body.bank_sort_code ?? '',
      });
      const matches =
        account.currency === 'GBP'
          ? sent.accountNumber === account.account_number && sent.sortCode === account.sort_code
          : (!sent.bic || sent.bic === account.bic) && (!sent.iban || sent.iban === account.iban);
      if (!matches) throw new AppError('BANK_ACCOUNT_NOT_SET', FIAT_TEXTS.bankDetailsMismatch);
    }
    return account;
  }

  return {
    /**
     * Every active currency's withdrawal rules, for the public fees page
     * (modules/fees). Deposits cost nothing: receiveTransfer credits the whole
     * amount received.
     */
    async listFeeRules(): Promise<
      { currency: FiatCurrency; minimum: bigint; fee: bigint; feeFreeFrom: bigint | null }[]
    > {
      const rows = await repository.listCurrencyRules();
      return rows.map((row) => {
        const { minimum, fee, feeFreeFrom } = toCurrencyRules(row);
        return { currency: asCurrency(row.code), minimum, fee, feeFreeFrom };
      });
    },

    async getWithdrawInfo(userId: number, currency: FiatCurrency = 'GBP') {
      const customer = await requireCustomer(repository, userId);
      const rules = await currencyRules(currency);
      const balance = await ledger.getBalance(db, userRef(userId, currency));
      return {
        currency,
        currency_symbol: rules.symbol,
        minimum: money(rules.minimum, currency),
        fee: money(rules.fee, currency),
        fee_free_from: rules.feeFreeFrom === null ? null : money(rules.feeFreeFrom, currency),
        available: money(balance.available, currency),
        passcode_required: deps.secondFactor.isRequired(customer),
        blocked_until: withdrawalsBlockedUntil(customer, clock.now())?.toISOString() ?? null,
        email_codes: customer.platform_2fa_mobile,
      };
    },

    async withdraw(
      userId: number,
      idempotencyKey: string,
      body: {
        amount: string;
        currency_code?: FiatCurrency | null;
        passcode?: string | null;
        bank_sort_code?: string | null;
        bank_account_number?: string | null;
        name_of_account?: string | null;
      },
    ): Promise<Answer<FiatWithdrawal>> {
      const currency: FiatCurrency = body.currency_code ?? 'GBP';
      let amount: bigint;
      try {
        amount = parseAmount(body.amount, currency);
      } catch (error) {
        if (error instanceof AmountFormatError)
          throw new AppError('VALIDATION_FAILED', undefined, { amount: [FIAT_TEXTS.amountDecimals] });
        throw error;
      }
      const request = idempotentRequest({
        request: { amount: amount.toString(), currency },
        find: (executor) => repository.findWithdrawalByKey(executor, userId, idempotencyKey),
        answer: (row) => ({ data: toWithdrawal(row), message: FIAT_TEXTS.transactionSuccessful }),
      });
      const earlier = await request.replay(db);
      if (earlier) return earlier;

      // The checks in the spec's order, with its texts; they run again under the lock below.
      const customer = await requireCustomer(repository, userId);
      checkMayPayOut(customer, clock.now());
      await deps.verification.assertComplete(userId);
      checkBankAccount(await repository.findBankAccountByCurrency(userId, currency), body);
      const rules = await currencyRules(currency);
      const fee = feeFor(amount, rules);
      if (amount < rules.minimum || amount <= fee)
        throw refused('amount', `Minimum ${currency} withdrawal amount is ${money(rules.minimum, currency)}`);
      try {
        const balance = await ledger.getBalance(db, userRef(userId, currency));
        if (amount > balance.available) throw refused('amount', FIAT_TEXTS.balanceTooLow);
        await checkSecondFactor(customer, body.passcode, FIAT_WITHDRAW_PURPOSE);
      } catch (error) {
        // A copy of this request (same key) that committed since the first look has held the
        // balance and spent the code: the key answers with that withdrawal, not a refusal
        // (LEDGER.md; 50 concurrent copies in security/races.test.ts got 400s without this).
        return request.replayOrThrow(db, error);
      }

      const outcome = await db.transaction().execute(async (trx) => {
        // One customer's withdrawals and cancels run one at a time: the key and the balance are decided under this lock.
        const locked = await repository.lockCustomer(trx, userId);
        if (!locked) throw new AppError('UNAUTHENTICATED');
        return request.replayOrRun(trx, async () => {
          checkMayPayOut(locked, clock.now());
          const account = checkBankAccount(
            await repository.findBankAccountByCurrency(userId, currency, trx),
            body,
          );
          const settings = await repository.findSettings(currency, trx);
          let holdId: string;
          try {
            ({ holdId } = await ledger.placeHold(trx, {
              idempotencyKey: `fiat_withdrawal:${userId}:${idempotencyKey}`,
              account: userRef(userId, currency),
              amount,
              reason: 'fiat_withdrawal',
              reference: `fiat_withdrawal:${userId}:${idempotencyKey}`,
            }));
          } catch (error) {
            if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS')
              throw refused('amount', FIAT_TEXTS.balanceTooLow);
            throw error;
          }
          const row = await repository.insertWithdrawal(trx, {
            user_id: userId,
            idempotency_key: idempotencyKey,
            request_hash: request.requestHash,
            currency,
            amount: amount.toString(),
            fee: fee.toString(),
            bank_account_id: account.id,
            name_of_account: account.name_of_account,
            account_number: account.account_number,
            sort_code: account.sort_code,
            iban: account.iban,
            bic: account.bic,
            hold_id: holdId,
            needs_second_approval: settings ? amount >= BigInt(settings.second_approval_from) : true,
          });
          const withdrawal = toWithdrawal(row);
          // Written with the withdrawal, so a server killed after the commit still sends it (the outbox's sender).
          const mail = await notifier.queue(trx, customer, 'fiat_withdrawal_requested', {
            firstName: customer.first_name,
            amount: withdrawal.amount,
            receive: withdrawal.amount_receive,
            currency,
          });
          return { answer: { data: withdrawal, message: FIAT_TEXTS.transactionSuccessful }, mail };
        });
      });
      if (outcome.replayed) return outcome.answer;
      userEvents.moneyMoved([userId]);
      await notifier.deliver(outcome.result.mail);
      return outcome.result.answer;
    },

    async cancelWithdrawal(userId: number, id: string): Promise<Answer<FiatWithdrawal>> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await repository.lockWithdrawal(trx, id);
        if (!before || before.user_id !== userId) throw new AppError('NOT_FOUND');
        if (before.status !== 'pending') throw new AppError('CONFLICT', FIAT_TEXTS.notPending);
        if (before.exported_at !== null) throw new AppError('CONFLICT', FIAT_TEXTS.beingPaid);
        await ledger.releaseHold(trx, { holdId: before.hold_id, outcome: 'voided' });
        await repository.updateWithdrawal(trx, id, {
          status: transition(FIAT_WITHDRAWAL_TRANSITIONS, before.status, 'cancelled'),
          cancelled_at: new Date(),
        });
        return (await repository.findWithdrawal(id, trx)) as WithdrawalRow;
      });
      userEvents.moneyMoved([userId]);
      return { data: toWithdrawal(row), message: FIAT_TEXTS.withdrawalCancelled };
    },
  };
}
