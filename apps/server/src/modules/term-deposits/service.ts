import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  AppError,
  assetOfCoinId,
  coinIdOfAsset,
  floorToTermDepositDecimals,
  TERM_DEPOSIT_TEXTS,
  termDepositAfterTerminationText,
  termDepositInterest,
  termDepositMaximumText,
  termDepositMinimumText,
  type AdminTermDepositOption,
  type CoinId,
  type CryptoAsset,
  type TermDepositCoin,
  type TermDepositTransaction,
} from '@florin/contracts';
import { formatAmount, parseAmount, trimZeros, type AssetCode } from '@florin/domain';
import { ON_HOLD, type DB } from '../../db/schema.js';
import type { DomainCheck, Ledger, Posting, UserAccountRef } from '../../ledger/index.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import type { Notifier } from '../notifications/service.js';
import type { InvestorService } from '../investor/service.js';
import type { VerificationGate } from '../kyc/verification.js';
import type { DepositRow, OptionRow, TermDepositRepository } from './repository.js';
import { NO_BALANCE, readCustomerBalances } from '../portfolio/customer-balances.js';

/** How often the leading instance looks for matured deposits. */
export const MATURITY_SCAN_INTERVAL_MS = 5_000;
/** Deposits one scan pays at most; the next scan continues. */
const MATURITY_BATCH = 200;
const DAY_MS = 86_400_000;

/** Spec 002 §4: a deposit is Live until it is paid back, then Expired. */
export const TERM_DEPOSIT_TRANSITIONS = { live: ['expired'], expired: [] } as const;

export type TermDepositServiceDeps = {
  db: Kysely<DB>;
  repository: TermDepositRepository;
  ledger: Ledger;
  notifier: Notifier;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** The first-investment journey (issue 13): locking coins is an investment. */
  investor: Pick<InvestorService, 'assertMayInvest'>;
  /** Spec 000 §6: a customer whose verification is incomplete locks nothing. */
  verification: VerificationGate;
};

export type TermDepositService = ReturnType<typeof createTermDepositService>;

export type CreateTermDepositInput = {
  coin: CoinId;
  amount: string;
  day: number;
  rate?: string | undefined;
  user_id?: number | undefined;
};

function asAsset(code: string): AssetCode {
  return code as AssetCode;
}

/** '1.2500' → '1.25': rates as people read and compare them. */
function rateText(value: string): string {
  return trimZeros(value.includes('.') ? value : `${value}.0`);
}

function termAccount(deposit: Pick<DepositRow, 'id' | 'user_id' | 'asset'>): UserAccountRef {
  return {
    asset: asAsset(deposit.asset),
    kind: 'term',
    ownerUserId: String(deposit.user_id),
    reference: String(deposit.id),
  };
}

function availableAccount(userId: number, asset: string): UserAccountRef {
  return { asset: asAsset(asset), kind: 'available', ownerUserId: String(userId) };
}

export const lockKey = (id: string) => `term_deposit:lock:${id}`;
export const maturityKey = (id: string) => `term_deposit:maturity:${id}`;

function toTransaction(row: DepositRow, coinId: string): TermDepositTransaction {
  const asset = asAsset(row.asset);
  const amount = BigInt(row.amount);
  const interest = BigInt(row.interest);
  return {
    id: Number(row.id),
    coin_id: coinId as CoinId,
    amount: formatAmount(amount, asset),
    rate: rateText(row.interest_rate),
    start_day: row.starts_at.toISOString(),
    end_day: row.matures_at.toISOString(),
    deposit_return: formatAmount(interest, asset),
    total_balance_amount: formatAmount(amount + interest, asset),
    term_days: row.no_days,
    is_active: row.status === 'live',
    status: row.status,
  };
}

function refuseAmount(message: string): AppError {
  return new AppError('VALIDATION_FAILED', undefined, { amount: [message] });
}

export function createTermDepositService(deps: TermDepositServiceDeps) {
  const { db, repository, ledger, notifier } = deps;

  const coinIdOf = (asset: string) => asset.toLowerCase();

  function toAdminOption(row: OptionRow, live: bigint): AdminTermDepositOption {
    const asset = asAsset(row.asset);
    return {
      id: row.id,
      coin_id: row.coin_id as CoinId,
      no_days: row.no_days,
      interest_rate: rateText(row.interest_rate),
      active: row.active,
      min_amount: formatAmount(BigInt(row.amount_min), asset),
      max_amount: row.amount_max === null ? null : formatAmount(BigInt(row.amount_max), asset),
      total_cap: row.total_cap === null ? null : formatAmount(BigInt(row.total_cap), asset),
      total_live: formatAmount(live, asset),
    };
  }

  /** A back-office amount in the coin's units; more decimals than the coin has is a field error. */
  function adminAmount(text: string | null, asset: AssetCode, field: string): string | null {
    if (text === null) return null;
    try {
      return parseAmount(text, asset).toString();
    } catch {
      throw new AppError('VALIDATION_FAILED', undefined, { [field]: [TERM_DEPOSIT_TEXTS.optionAmount] });
    }
  }

  async function payOne(id: string, now: Date): Promise<DepositRow | null> {
    return db.transaction().execute(async (trx) => {
      const deposit = await repository.lockDueDeposit(trx, id, now);
      if (!deposit) return null;
      const amount = BigInt(deposit.amount);
      const interest = BigInt(deposit.interest);
      const postings: Posting[] = [
        { account: termAccount(deposit), amount: -amount },
        { account: availableAccount(deposit.user_id, deposit.asset), amount: amount + interest },
      ];
      if (interest > 0n)
        postings.push({
          account: { asset: asAsset(deposit.asset), kind: 'interest_expense' },
          amount: -interest,
        });
      // The key makes the payment once even if an earlier run posted it and died before marking the row.
      await ledger.postJournal(trx, {
        idempotencyKey: maturityKey(deposit.id),
        kind: 'term_deposit_maturity',
        reference: `term_deposit:${deposit.id}`,
        metadata: { term_deposit_id: deposit.id, interest: interest.toString() },
        postings,
      });
      await repository.markExpired(trx, deposit.id, now);
      return deposit;
    });
  }

  async function tellPaid(deposit: DepositRow): Promise<void> {
    const customer = await repository.findCustomer(deposit.user_id);
    if (!customer) return;
    const asset = asAsset(deposit.asset);
    const amount = BigInt(deposit.amount);
    const interest = BigInt(deposit.interest);
    await notifier.notify(customer, 'term_deposit_matured', {
      firstName: customer.first_name,
      coin: asset,
      amount: formatAmount(amount, asset),
      interest: formatAmount(interest, asset),
      total: formatAmount(amount + interest, asset),
      url: `${deps.publicUrl}/user/term-deposit`,
    });
  }

  return {
    /** The deposit table: each coin with the customer's available balance and the active terms. */
    async coins(userId: number, now: Date = new Date()): Promise<{ data: TermDepositCoin[] }> {
      const [coins, options] = await Promise.all([repository.listCoins(), repository.listOptions(true)]);
      const balances = await readCustomerBalances(db, userId); // the one every screen shows
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
      if (!customer || customer.status !== 1 || customer.block_status === ON_HOLD)
        throw new AppError('ACCOUNT_NOT_LIVE');
      await deps.verification.assertComplete(userId);
      await deps.investor.assertMayInvest(userId);
      const asset = assetOfCoinId(input.coin);
      const amount = parseAmount(input.amount, asset);
      const requestHash = createHash('sha256')
        .update(
          JSON.stringify({ coin: input.coin, amount: amount.toString(), day: input.day, rate: input.rate }),
        )
        .digest('hex');

      const replay = (row: DepositRow) => {
        if (row.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
        return row;
      };

      const row = await db.transaction().execute(async (trx) => {
        const isLocked = await repository.lockOption(trx, input.day);
        // After the option's lock, not before: a copy of this request (same key) that held it
        // commits before this statement starts (READ COMMITTED), so it is seen here and answered
        // with, not refused for the balance it took (50 concurrent copies in
        // security/races.test.ts got 422s when this came first).
        const earlier = await repository.findByKey(trx, userId, idempotencyKey);
        if (earlier) return replay(earlier);
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
          request_hash: requestHash,
          asset,
          amount: amount.toString(),
          no_days: option.no_days,
          interest_rate: option.interest_rate,
          interest: termDepositInterest(amount, option.interest_rate, input.coin).toString(),
          starts_at: now,
          matures_at: maturesAt,
        });
        if (!deposit) {
          // The same key committed by a concurrent request while this one waited.
          const other = await repository.findByKey(trx, userId, idempotencyKey);
          if (!other) throw new AppError('CONFLICT');
          return replay(other);
        }
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

    /**
     * Pays back every deposit due by `now`: each in its own transaction that
     * locks the row (another instance skips it), posts the maturity journal
     * under the deposit's key and marks the row; the mail goes after commit.
     * Returns how many this call paid.
     */
    async payMatured(now: Date = new Date()): Promise<number> {
      const ids = await repository.dueIds(now, MATURITY_BATCH);
      let paid = 0;
      for (const id of ids) {
        const deposit = await payOne(id, now);
        if (!deposit) continue;
        paid += 1;
        await tellPaid(deposit).catch((error: unknown) =>
          deps.log.error({ err: error, termDepositId: id }, 'term deposit mail failed'),
        );
      }
      return paid;
    },

    /**
     * The firm's termination (closure service, in its transaction): a live deposit that would end after the
     * account becomes withdraw-only ends then instead, with the interest for the time it will have been held
     * (floored), so its coins come back while the customer can still withdraw them. Audited; returns how many.
     */
    async endByTermination(
      trx: Transaction<DB>,
      userId: number,
      terminatedAt: Date,
      actor: AuditActor,
    ): Promise<number> {
      const deposits = await repository.lockLiveEndingAfter(trx, userId, terminatedAt);
      for (const deposit of deposits) {
        const heldMs = BigInt(Math.max(0, terminatedAt.getTime() - deposit.starts_at.getTime()));
        const termMs = BigInt(deposit.matures_at.getTime() - deposit.starts_at.getTime());
        const interest = floorToTermDepositDecimals(
          (BigInt(deposit.interest) * heldMs) / termMs,
          coinIdOfAsset(deposit.asset as CryptoAsset),
        );
        await repository.shortenDeposit(trx, deposit.id, {
          matures_at: terminatedAt,
          interest: interest.toString(),
        });
        await recordAudit(trx, {
          ...actor,
          action: 'term_deposit.ended_by_termination',
          targetType: 'term_deposit',
          targetId: deposit.id,
          before: { matures_at: deposit.matures_at.toISOString(), interest: deposit.interest },
          after: { matures_at: terminatedAt.toISOString(), interest: interest.toString() },
        });
      }
      return deposits.length;
    },

    /** Dev and e2e only: makes a customer's live deposits due now and pays them. */
    async matureNowForTesting(email: string): Promise<number> {
      await sql`
        UPDATE term_deposits SET matures_at = now() - interval '1 second'
        WHERE status = 'live' AND user_id IN (SELECT id FROM users WHERE email = ${email.toLowerCase()})`.execute(
        db,
      );
      return this.payMatured(new Date());
    },

    async listOptions(): Promise<{ data: AdminTermDepositOption[] }> {
      const [rows, totals] = await Promise.all([repository.listOptions(false), repository.liveTotals(db)]);
      return { data: rows.map((row) => toAdminOption(row, totals.get(row.id) ?? 0n)) };
    },

    async createOption(
      actor: AuditActor,
      body: {
        coin_id: CoinId;
        no_days: number;
        interest_rate: string;
        active: boolean;
        min_amount: string;
        max_amount: string | null;
        total_cap: string | null;
      },
    ): Promise<{ data: AdminTermDepositOption; message: string }> {
      const asset = assetOfCoinId(body.coin_id);
      const values = {
        asset,
        no_days: body.no_days,
        interest_rate: body.interest_rate,
        active: body.active,
        amount_min: adminAmount(body.min_amount, asset, 'min_amount') ?? '0',
        amount_max: adminAmount(body.max_amount, asset, 'max_amount'),
        total_cap: adminAmount(body.total_cap, asset, 'total_cap'),
      };
      const id = await db.transaction().execute(async (trx) => {
        const inserted = await repository.insertOption(trx, values);
        if (inserted === undefined)
          throw new AppError('VALIDATION_FAILED', undefined, { no_days: [TERM_DEPOSIT_TEXTS.optionExists] });
        await recordAudit(trx, {
          ...actor,
          action: 'term_deposit_option.created',
          targetType: 'term_deposit_option',
          targetId: inserted,
          before: null,
          after: { ...values },
        });
        return inserted;
      });
      const row = await repository.findOption(id);
      if (!row) throw new AppError('NOT_FOUND');
      return { data: toAdminOption(row, 0n), message: TERM_DEPOSIT_TEXTS.optionSaved };
    },

    async updateOption(
      actor: AuditActor,
      id: number,
      body: {
        no_days: number;
        interest_rate: string;
        active: boolean;
        min_amount: string;
        max_amount: string | null;
        total_cap: string | null;
      },
    ): Promise<{ data: AdminTermDepositOption; message: string }> {
      await db.transaction().execute(async (trx) => {
        if (!(await repository.lockOption(trx, id))) throw new AppError('NOT_FOUND');
        const before = await repository.findOption(id, trx);
        if (!before) throw new AppError('NOT_FOUND');
        const asset = asAsset(before.asset);
        if (await repository.isDaysTaken(trx, before.asset, body.no_days, id))
          throw new AppError('VALIDATION_FAILED', undefined, { no_days: [TERM_DEPOSIT_TEXTS.optionExists] });
        const values = {
          no_days: body.no_days,
          interest_rate: body.interest_rate,
          active: body.active,
          amount_min: adminAmount(body.min_amount, asset, 'min_amount') ?? '0',
          amount_max: adminAmount(body.max_amount, asset, 'max_amount'),
          total_cap: adminAmount(body.total_cap, asset, 'total_cap'),
        };
        await repository.updateOption(trx, id, values);
        await recordAudit(trx, {
          ...actor,
          action: 'term_deposit_option.updated',
          targetType: 'term_deposit_option',
          targetId: id,
          before: { ...before },
          after: { ...values },
        });
      });
      const row = await repository.findOption(id);
      if (!row) throw new AppError('NOT_FOUND');
      const totals = await repository.liveTotals(db, [id]);
      return { data: toAdminOption(row, totals.get(id) ?? 0n), message: TERM_DEPOSIT_TEXTS.optionSaved };
    },
  };
}

/**
 * Invariant 8 for term deposits (shared/LEDGER.md): a live deposit has its
 * lock journal, no maturity journal and its amount in its term account; an
 * expired one also has exactly one maturity journal and an empty term
 * account; every term deposit journal belongs to a deposit.
 */
export const termDepositDomainCheck: DomainCheck = {
  name: 'term-deposits',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'term deposit ' || d.id || ' is ' || d.status || ' with ' || d.locks || ' lock and '
        || d.maturities || ' maturity journals and ' || coalesce(d.balance, 0) || ' in its term account' AS message
      FROM (
        SELECT t.id, t.status, t.amount,
          (SELECT count(*) FROM journals j WHERE j.idempotency_key = 'term_deposit:lock:' || t.id
            AND j.kind = 'term_deposit_lock') AS locks,
          (SELECT count(*) FROM journals j WHERE j.idempotency_key = 'term_deposit:maturity:' || t.id
            AND j.kind = 'term_deposit_maturity') AS maturities,
          (SELECT a.posted FROM accounts a WHERE a.kind = 'term' AND a.owner_user_id = t.user_id
            AND a.reference = t.id::text AND a.asset = t.asset) AS balance
        FROM term_deposits t
      ) d
      WHERE NOT (d.locks = 1 AND (
        (d.status = 'live' AND d.maturities = 0 AND coalesce(d.balance, 0) = d.amount)
        OR (d.status = 'expired' AND d.maturities = 1 AND coalesce(d.balance, 0) = 0)))
      UNION ALL
      SELECT 'journal ' || j.id || ' (' || j.kind || ') belongs to no term deposit'
      FROM journals j
      WHERE j.idempotency_key LIKE 'term\\_deposit:%'
        AND NOT EXISTS (SELECT 1 FROM term_deposits t WHERE j.reference = 'term_deposit:' || t.id)`.execute(
      db,
    );
    return result.rows.map((row) => row.message);
  },
};
