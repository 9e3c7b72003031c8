import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import {
  API_TOKEN_TEXTS,
  AppError,
  assetOfCoinId,
  coinIdOfAsset,
  CRYPTO_ACTIVITY_PAGE_SIZE,
  CRYPTO_DEPOSIT_STATUS_LABELS,
  CRYPTO_WITHDRAW_DECIMALS,
  CRYPTO_WITHDRAW_TEXTS,
  CRYPTO_WITHDRAWAL_CONFIRM_MINUTES,
  CRYPTO_WITHDRAWAL_STATUS_LABELS,
  cryptoMinimumText,
  listCryptoActivity,
  listCryptoPayoutQueue,
  maskAddress,
  type AdminCryptoWithdrawal,
  type CoinId,
  type CryptoActivity,
  type CryptoAsset,
  type CryptoWithdrawal,
  type CryptoWithdrawalSettings,
  type CryptoWithdrawalStatus,
  type CryptoWithdrawInfo,
  type Page,
  waitUntilText,
  EMAILED_CODE_MINUTES,
} from '@florin/contracts';
import { formatAmount, parseAmount } from '@florin/domain';
import { ON_HOLD, type CryptoDepositsTable, type DB, type RowOf } from '../../db/schema.js';
import type { DomainCheck, Ledger, Posting } from '../../ledger/index.js';
import { readPage } from '../../http/pages.js';
import type { EmailedCodes } from '../../security/emailed-codes.js';
import { LIMITS, type RateLimiter } from '../../security/rate-limits.js';
import type { SecondFactor } from '../../security/second-factor.js';
import { recordAudit, type AuditActor } from '../audit/service.js';
import { cryptoWithdrawalsBlockedUntil } from '../compliance/customer-service.js';
import type { VerificationGate } from '../kyc/verification.js';
import type { Notifier } from '../notifications/service.js';
import type { UserEvents } from '../realtime/index.js';
import { xrpHouseAddressOf, type AddressSources } from './address-sources.js';
import { gbpValueMetadata } from './service.js';
import { isValidAddress, isValidDestinationTag, normalizeAddress } from './addresses/validate.js';
import type { WithdrawalWallet } from './chains/wallets.js';
import type {
  AdminCryptoWithdrawalRow,
  CryptoWithdrawalRepository,
  CryptoWithdrawalRow,
  WithdrawCoinRules,
  WithdrawCustomer,
} from './withdrawal-repository.js';

/** request-2fa's purpose for a crypto withdrawal (customers with e-mailed codes as their second factor). */
export const CRYPTO_WITHDRAW_2FA_PURPOSE = 'Crypto Withdraw(2fa)';

type Answer<T> = { data: T; message: string };

/** The whitelist as the withdrawal reads it (the whitelists module's). */
export type SavedAddresses = {
  findWallet(
    userId: number,
    id: string,
  ): Promise<
    { id: string; asset: string; address: string; tag: string | null; usable_from: Date } | undefined
  >;
  findByAddress(
    userId: number,
    asset: string,
    address: string,
    tag: string | null,
  ): Promise<{ id: string; usable_from: Date } | undefined>;
};

export type CryptoWithdrawalServiceDeps = {
  db: Kysely<DB>;
  repository: CryptoWithdrawalRepository;
  ledger: Ledger;
  notifier: Notifier;
  userEvents: Pick<UserEvents, 'moneyMoved'>;
  emailedCodes: EmailedCodes;
  secondFactor: SecondFactor;
  /** Caps the new codes one withdrawal may be mailed. */
  limits: Pick<RateLimiter, 'take'>;
  addresses: AddressSources;
  /** What one unit of an asset is worth in GBP now; null without a fresh price (market.gbpRate). */
  gbpRate: (asset: string) => string | null;
  savedAddresses: SavedAddresses;
  wallets: Record<CryptoAsset, WithdrawalWallet>;
  /** Spec 000 §6: a customer whose verification is incomplete does not withdraw. */
  verification: VerificationGate;
  /** What the waits (a security change, a new saved address) and a request's 30 minutes run by (the app's clock). */
  clock: Clock;
};

export type CryptoWithdrawalService = ReturnType<typeof createCryptoWithdrawalService>;

/** A destination that is Florin's own, and why (florinDestinationOf). */
export type FlorinDestination = 'own_deposit_address' | 'house_address_without_customer';

export type WithdrawRequestBody = {
  coin: CoinId;
  amount: string;
  wallet?: string | null;
  whitelisted_wallet_id?: number | null;
  xrp_tag?: string | null;
  beneficiary_type: 'self' | 'person' | 'business';
  beneficiary_name?: string | null;
  destination_type: 'private_wallet' | 'exchange';
  exchange_name?: string | null;
};

function asAsset(code: string): CryptoAsset {
  return code as CryptoAsset;
}

function coins(units: string | bigint, asset: string): string {
  return formatAmount(BigInt(units), asAsset(asset));
}

function isLive(customer: Pick<WithdrawCustomer, 'status' | 'block_status'>): boolean {
  return customer.status === 1 && customer.block_status !== ON_HOLD;
}

function amountRefused(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { amount: [message] });
}

function refused(field: 'passcode', message: string): AppError {
  return new AppError('WITHDRAWAL_REFUSED', message, undefined, { [field]: message });
}

function codePurpose(id: string): string {
  return `crypto_withdrawal:${id}`;
}

/** One spelling of an XRP destination tag (the whitelist keeps '7' for '007'); null for none. */
function tagKey(tag: string | null): string | null {
  return tag === null ? null : String(Number(tag));
}

const OPEN_FOR_CUSTOMER: CryptoWithdrawalStatus[] = ['awaiting_code', 'verified', 'pending'];

function toWithdrawal(row: CryptoWithdrawalRow): CryptoWithdrawal {
  const amount = BigInt(row.amount);
  const fee = BigInt(row.fee);
  return {
    id: row.id,
    coin_id: coinIdOfAsset(asAsset(row.asset)),
    amount: coins(amount, row.asset),
    fee: coins(fee, row.asset),
    amount_receive: coins(amount - fee, row.asset),
    address: row.address,
    tag: row.tag,
    beneficiary_type: row.beneficiary_type,
    beneficiary_name: row.beneficiary_name,
    destination_type: row.destination_type,
    exchange_name: row.exchange_name,
    status: row.status,
    status_label: CRYPTO_WITHDRAWAL_STATUS_LABELS[row.status],
    txid: row.txid,
    verify_by: row.verify_by.toISOString(),
    can_cancel: OPEN_FOR_CUSTOMER.includes(row.status),
    reject_reason: row.reject_reason,
    created_at: row.created_at.toISOString(),
    sent_at: row.sent_at?.toISOString() ?? null,
  };
}

function hashRequest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

const custodyRef = (asset: string) => ({ asset: asAsset(asset), kind: 'custody' as const });
const feeRef = (asset: string) => ({ asset: asAsset(asset), kind: 'withdrawal_fee_revenue' as const });
const userRef = (userId: number, asset: string) => ({
  asset: asAsset(asset),
  kind: 'available' as const,
  ownerUserId: String(userId),
});

/**
 * Crypto out. A request is checked, its amount held and a code mailed for
 * it alone; the code, then the customer's 2FA, put it in the staff queue;
 * staff approve it (twice beyond the coin's daily limit), send it (the hold
 * is posted) and mark it confirmed, or reject it (the hold is voided). A
 * request not confirmed within 30 minutes expires and its hold is released.
 * Customers are mailed and their screens told after each commit.
 */
export function createCryptoWithdrawalService(deps: CryptoWithdrawalServiceDeps) {
  const { db, repository, ledger, notifier, userEvents, clock } = deps;

  async function requireCustomer(userId: number): Promise<WithdrawCustomer> {
    const customer = await repository.findCustomer(userId);
    if (!customer) throw new AppError('UNAUTHENTICATED');
    return customer;
  }

  async function requireCoin(asset: string): Promise<WithdrawCoinRules> {
    const coin = await repository.findCoin(asset);
    if (!coin) throw new AppError('NOT_FOUND');
    return coin;
  }

  /** The spec's first checks (001 §5) and ours: live, source of wealth, the 24-hour pause, the coin. */
  function checkMayWithdraw(customer: WithdrawCustomer, coin: WithdrawCoinRules): void {
    if (!isLive(customer)) throw new AppError('ACCOUNT_NOT_LIVE');
    if (customer.is_sow_reset === 1)
      throw new AppError('FORBIDDEN', 'Please answer the source-of-wealth questions before withdrawing.');
    const until = cryptoWithdrawalsBlockedUntil(customer, clock.now());
    if (until)
      throw new AppError('FORBIDDEN', waitUntilText(CRYPTO_WITHDRAW_TEXTS.securityWait, until), undefined, {
        blocked_until: until.toISOString(),
      });
    if (!coin.active || coin.disable_withdraw)
      throw new AppError('FORBIDDEN', CRYPTO_WITHDRAW_TEXTS.withdrawDisabled);
  }

  /**
   * Whether a destination, however it was written, is Florin's own: XRP's shared house address without
   * a customer's tag (none, or one nobody has) is nobody's, and the coins would wait in suspense for
   * staff; the customer's own deposit address, with their tag at XRP's, would bring the coins back less
   * the fee. Another customer's address, or the house address with their tag, is a payment to them.
   */
  async function florinDestinationOf(
    userId: number,
    asset: CryptoAsset,
    address: string,
    tag: string | null,
  ): Promise<FlorinDestination | null> {
    const normalized = normalizeAddress(asset, address, deps.addresses.network);
    const key = tagKey(tag);
    if (
      asset === 'XRP' &&
      normalized === xrpHouseAddressOf(deps.addresses) &&
      (key === null || !(await repository.isCustomerTag(key)))
    )
      return 'house_address_without_customer';
    return (await repository.isOwnDepositAddress(userId, asset, normalized, key))
      ? 'own_deposit_address'
      : null;
  }

  async function refuseFlorinDestination(
    userId: number,
    asset: CryptoAsset,
    address: string,
    tag: string | null,
  ): Promise<void> {
    const destination = await florinDestinationOf(userId, asset, address, tag);
    if (destination === null) return;
    const text =
      destination === 'house_address_without_customer'
        ? CRYPTO_WITHDRAW_TEXTS.houseAddressWithoutTag
        : CRYPTO_WITHDRAW_TEXTS.sendToOwnAddress;
    throw new AppError('VALIDATION_FAILED', text, { wallet: [text] });
  }

  /** Where the coins go: a saved (whitelisted) address, or a typed one that passes the coin's checksum. */
  async function destinationOf(userId: number, asset: CryptoAsset, body: WithdrawRequestBody) {
    if (body.whitelisted_wallet_id) {
      const saved = await deps.savedAddresses.findWallet(userId, String(body.whitelisted_wallet_id));
      if (!saved || saved.asset !== asset)
        throw new AppError('VALIDATION_FAILED', CRYPTO_WITHDRAW_TEXTS.savedAddressGone, {
          whitelisted_wallet_id: [CRYPTO_WITHDRAW_TEXTS.savedAddressGone],
        });
      if (saved.usable_from > clock.now())
        throw new AppError(
          'FORBIDDEN',
          waitUntilText(CRYPTO_WITHDRAW_TEXTS.whitelistWait, saved.usable_from),
          undefined,
          { usable_from: saved.usable_from.toISOString() },
        );
      // The whitelist holds address and tag as one destination: at an exchange's shared address the
      // tag is the recipient's account, so another tag is another (not whitelisted) destination.
      const given = asset === 'XRP' && body.xrp_tag ? body.xrp_tag : null;
      if (given !== null && !isValidDestinationTag(given))
        throw new AppError('VALIDATION_FAILED', CRYPTO_WITHDRAW_TEXTS.tagInvalid, {
          xrp_tag: [CRYPTO_WITHDRAW_TEXTS.tagInvalid],
        });
      if (given !== null && tagKey(given) !== tagKey(saved.tag))
        throw new AppError('VALIDATION_FAILED', CRYPTO_WITHDRAW_TEXTS.savedAddressOtherTag, {
          xrp_tag: [CRYPTO_WITHDRAW_TEXTS.savedAddressOtherTag],
        });
      const tag = asset === 'XRP' ? saved.tag : null;
      // Whitelisted before this check existed, or at the shared XRP address, a saved one may be the customer's own.
      await refuseFlorinDestination(userId, asset, saved.address, tag);
      return { address: saved.address, tag, whitelistedId: saved.id };
    }
    const address = (body.wallet ?? '').trim();
    if (!isValidAddress(asset, address, deps.addresses.network))
      throw new AppError('INVALID_ADDRESS', undefined, undefined, { address });
    const given = asset === 'XRP' && body.xrp_tag ? body.xrp_tag : null;
    if (given !== null && !isValidDestinationTag(given))
      throw new AppError('VALIDATION_FAILED', CRYPTO_WITHDRAW_TEXTS.tagInvalid, {
        xrp_tag: [CRYPTO_WITHDRAW_TEXTS.tagInvalid],
      });
    // A tag is a number on the chain: 01000017 is 1000017, and is kept and compared so.
    const tag = tagKey(given);
    await refuseFlorinDestination(userId, asset, address, tag);
    const saved = await deps.savedAddresses.findByAddress(userId, asset, address, tag);
    return { address, tag, whitelistedId: saved?.id ?? null };
  }

  /** Voids the hold of a withdrawal nobody confirmed in time. */
  async function expire(id: string): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const row = await repository.lock(trx, id);
      if (
        !row ||
        (row.status !== 'awaiting_code' && row.status !== 'verified') ||
        row.verify_by > clock.now()
      )
        return;
      await ledger.releaseHold(trx, { holdId: row.hold_id, outcome: 'expired' });
      await repository.update(trx, id, { status: 'expired' });
    });
  }

  async function expireOverdue(userId?: number): Promise<number> {
    const rows = await repository.listUnconfirmedPastDue(clock.now(), userId);
    for (const row of rows) await expire(row.id);
    if (rows.length > 0) userEvents.moneyMoved([...new Set(rows.map((row) => row.user_id))]);
    return rows.length;
  }

  /** The customer's own withdrawal, or 404 (a foreign one looks like none). */
  async function requireOwn(userId: number, id: string): Promise<CryptoWithdrawalRow> {
    const row = await repository.find(id);
    if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND');
    return row;
  }

  async function mailCode(customer: WithdrawCustomer, row: CryptoWithdrawalRow, code: string) {
    await notifier.notify(customer, 'withdrawal_code', {
      firstName: customer.first_name,
      code,
      purpose: `your withdrawal of ${coins(row.amount, row.asset)} ${row.asset} to ${maskAddress(row.address)}`,
      isWithdrawal: true,
      minutes: EMAILED_CODE_MINUTES,
    });
  }

  async function requireAdmin(id: string): Promise<AdminCryptoWithdrawalRow> {
    const row = await repository.findAdmin(id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  function toAdmin(row: AdminCryptoWithdrawalRow): AdminCryptoWithdrawal {
    const asset = asAsset(row.asset);
    return {
      ...toWithdrawal(row),
      asset,
      user_id: row.user_id,
      user_identification: row.user_identification,
      customer_name: `${row.first_name} ${row.last_name}`,
      email: row.email,
      whitelisted: row.whitelisted_wallet_id !== null,
      needs_second_approval: row.needs_second_approval,
      auto_approved: row.auto_approved,
      approved_by: row.approved_by_email,
      second_approved_by: row.second_approved_by_email,
      sent_by: row.sent_by_email,
      wallet: deps.wallets[asset].kind,
      customer_on_hold: row.block_status === ON_HOLD,
    };
  }

  async function adminAnswer(id: string, message: string): Promise<Answer<AdminCryptoWithdrawal>> {
    return { data: toAdmin(await requireAdmin(id)), message };
  }

  /** Locks a withdrawal for a staff decision: 404 when there is none, 409 when it is not in `allowed`. */
  async function lockFor(
    trx: Kysely<DB>,
    id: string,
    allowed: readonly CryptoWithdrawalStatus[],
    message: string,
  ): Promise<CryptoWithdrawalRow> {
    const row = await repository.lock(trx, id);
    if (!row) throw new AppError('NOT_FOUND');
    if (!allowed.includes(row.status)) throw new AppError('CONFLICT', message);
    return row;
  }

  /**
   * Locks the customer of a withdrawal staff are about to approve or send: 409 while compliance holds
   * the account. Locked until the commit, so a hold put on now waits for this decision, or stops it.
   */
  async function checkNotOnHold(trx: Kysely<DB>, row: CryptoWithdrawalRow): Promise<void> {
    const customer = await repository.lockCustomer(trx, row.user_id);
    if (customer?.block_status === ON_HOLD)
      throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.customerOnHold);
  }

  async function customerOf(row: CryptoWithdrawalRow): Promise<WithdrawCustomer | undefined> {
    return repository.findCustomer(row.user_id);
  }

  function toSettings(coin: WithdrawCoinRules): CryptoWithdrawalSettings {
    const asset = asAsset(coin.asset);
    return {
      coin_id: coinIdOfAsset(asset),
      asset,
      daily_limit: coin.withdraw_daily_limit === null ? null : coins(coin.withdraw_daily_limit, asset),
      auto_approve_whitelisted: coin.auto_approve_whitelisted,
      wallet: deps.wallets[asset].kind,
    };
  }

  return {
    /** Run by the leading instance's watcher: unconfirmed requests past their 30 minutes give their coins back. */
    expireOverdue,

    /** The whitelist refuses what a withdrawal would. */
    florinDestinationOf,

    // ---- customer ----

    async withdrawInfo(userId: number, coinId: CoinId): Promise<{ data: CryptoWithdrawInfo }> {
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
    },

    /** send-verify-withdraw: checks, holds the amount and mails a code for this withdrawal only. */
    async request(
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
      const requestHash = hashRequest({
        asset,
        amount: amount.toString(),
        wallet: body.wallet ?? null,
        whitelisted_wallet_id: body.whitelisted_wallet_id ?? null,
        tag: body.xrp_tag || null,
        ...travelRule,
      });
      const replay = async (executor: Kysely<DB>) => {
        const earlier = await repository.findByKey(executor, userId, idempotencyKey);
        if (!earlier) return undefined;
        if (earlier.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
        return { data: toWithdrawal(earlier), message: CRYPTO_WITHDRAW_TEXTS.codeSent };
      };
      const earlier = await replay(db);
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
        const committed = await replay(db);
        if (committed) return committed;
        throw amountRefused(CRYPTO_WITHDRAW_TEXTS.balanceTooLow);
      }

      const result = await db.transaction().execute(async (trx) => {
        // One customer's requests are decided one at a time: the key and the balance under this lock.
        const locked = await repository.lockCustomer(trx, userId);
        if (!locked) throw new AppError('UNAUTHENTICATED');
        const replayed = await replay(trx);
        if (replayed) return { answer: replayed, created: undefined };
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
          request_hash: requestHash,
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
          created: { row, code },
        };
      });
      if (result.created) {
        userEvents.moneyMoved([userId]);
        await mailCode(customer, result.created.row, result.created.code);
      }
      return result.answer;
    },

    async resendCode(userId: number, id: string): Promise<{ message: string }> {
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
      const code = await deps.emailedCodes.issue(db, userId, codePurpose(id));
      await mailCode(customer, row, code);
      return { message: CRYPTO_WITHDRAW_TEXTS.codeResent };
    },

    /** verify-withdraw: the code mailed for this withdrawal, once; 'Verification Code Expired' offers Resend. */
    async verify(userId: number, id: string, code: string): Promise<Answer<CryptoWithdrawal>> {
      const row = await requireOwn(userId, id);
      if (row.status !== 'awaiting_code')
        throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notAwaitingCode);
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
        .where('status', '=', 'awaiting_code')
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notAwaitingCode);
      return { data: toWithdrawal(updated), message: CRYPTO_WITHDRAW_TEXTS.codeVerified };
    },

    /** crypto/withdraw: the 2FA code, then the staff queue (or approval at once, when staff allow it). */
    async submit(
      userId: number,
      id: string,
      passcode: string | null | undefined,
    ): Promise<Answer<CryptoWithdrawal>> {
      const before = await requireOwn(userId, id);
      const queued: CryptoWithdrawalStatus[] = ['pending', 'approved', 'sent', 'confirmed'];
      if (queued.includes(before.status))
        return { data: toWithdrawal(before), message: CRYPTO_WITHDRAW_TEXTS.withdrawalRequested };
      if (before.status === 'awaiting_code')
        throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notVerified);
      if (before.status !== 'verified') throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notOpen);
      const customer = await requireCustomer(userId);
      const factor = await deps.secondFactor.check(customer, passcode, CRYPTO_WITHDRAW_2FA_PURPOSE);
      if (factor === 'missing') throw refused('passcode', CRYPTO_WITHDRAW_TEXTS.passcodeRequired);
      if (factor === 'expired') throw refused('passcode', CRYPTO_WITHDRAW_TEXTS.codeExpired);
      if (factor === 'wrong') throw refused('passcode', CRYPTO_WITHDRAW_TEXTS.wrongPasscode);

      // DECISIONS.md: approval is automatic only to an address whitelisted over 24 hours ago, within the
      // limit, and only with the tag it was whitelisted with (address and tag are one destination).
      const saved = before.whitelisted_wallet_id
        ? await deps.savedAddresses.findWallet(userId, before.whitelisted_wallet_id)
        : undefined;
      const outcome = await db.transaction().execute(async (trx) => {
        const row = await repository.lock(trx, id);
        if (!row) throw new AppError('NOT_FOUND');
        if (queued.includes(row.status)) return { row, queuedNow: false };
        if (row.status !== 'verified') throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notOpen);
        const now = clock.now();
        if (row.verify_by <= now) throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notOpen);
        const locked = await repository.lockCustomer(trx, userId);
        if (!locked) throw new AppError('UNAUTHENTICATED');
        const coin = await repository.findCoin(row.asset, trx);
        if (!coin) throw new AppError('NOT_FOUND');
        checkMayWithdraw(locked, coin);
        const today = await repository.withdrawnToday(trx, userId, row.asset, id, now);
        const limit = coin.withdraw_daily_limit === null ? null : BigInt(coin.withdraw_daily_limit);
        const overLimit = limit !== null && today + BigInt(row.amount) > limit;
        const autoApprove =
          coin.auto_approve_whitelisted &&
          !overLimit &&
          saved !== undefined &&
          saved.usable_from <= now &&
          tagKey(saved.tag) === tagKey(row.tag);
        const updated = await repository.update(trx, id, {
          status: autoApprove ? 'approved' : 'pending',
          requested_at: now,
          needs_second_approval: overLimit,
          auto_approved: autoApprove,
          approved_at: autoApprove ? now : null,
        });
        return { row: updated, queuedNow: true };
      });
      if (outcome.queuedNow)
        await notifier.notify(customer, 'crypto_withdrawal_requested', {
          firstName: customer.first_name,
          amount: coins(outcome.row.amount, outcome.row.asset),
          receive: coins(BigInt(outcome.row.amount) - BigInt(outcome.row.fee), outcome.row.asset),
          asset: outcome.row.asset,
          address: outcome.row.address,
        });
      return { data: toWithdrawal(outcome.row), message: CRYPTO_WITHDRAW_TEXTS.withdrawalRequested };
    },

    async cancel(userId: number, id: string): Promise<Answer<CryptoWithdrawal>> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await repository.lock(trx, id);
        if (!before || before.user_id !== userId) throw new AppError('NOT_FOUND');
        if (!OPEN_FOR_CUSTOMER.includes(before.status))
          throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notCancellable);
        await ledger.releaseHold(trx, { holdId: before.hold_id, outcome: 'voided' });
        return repository.update(trx, id, { status: 'cancelled', cancelled_at: new Date() });
      });
      userEvents.moneyMoved([userId]);
      return { data: toWithdrawal(row), message: CRYPTO_WITHDRAW_TEXTS.cancelled };
    },

    async listActivity(userId: number, page: number, coinId?: CoinId): Promise<Page<CryptoActivity>> {
      const asset = coinId ? assetOfCoinId(coinId) : undefined;
      await expireOverdue(userId);
      type Item = { deposit: RowOf<CryptoDepositsTable> } | { withdrawal: CryptoWithdrawalRow };
      return readPage({
        page,
        path: listCryptoActivity.path,
        perPage: CRYPTO_ACTIVITY_PAGE_SIZE,
        filters: { coin: coinId },
        count: () => repository.countActivity(userId, asset),
        list: async (limit, offset) => {
          const rows = await repository.listActivity(userId, asset, limit, offset);
          const ids = (type: 'deposit' | 'withdrawal') =>
            rows.filter((row) => row.type === type).map((row) => row.id);
          const [deposits, withdrawals] = await Promise.all([
            repository.listDepositsByIds(ids('deposit')),
            repository.listByIds(ids('withdrawal')),
          ]);
          return rows.flatMap((item): Item[] => {
            const deposit = item.type === 'deposit' ? deposits.find((row) => row.id === item.id) : undefined;
            const withdrawal =
              item.type === 'withdrawal' ? withdrawals.find((row) => row.id === item.id) : undefined;
            if (deposit) return [{ deposit }];
            return withdrawal ? [{ withdrawal }] : [];
          });
        },
        toItem: (item): CryptoActivity => {
          if ('deposit' in item) {
            const { deposit } = item;
            return {
              id: `deposit:${deposit.id}`,
              type: 'deposit',
              coin_id: coinIdOfAsset(asAsset(deposit.asset)),
              amount: coins(deposit.amount, deposit.asset),
              fee: coins(0n, deposit.asset),
              status: deposit.status,
              status_label: CRYPTO_DEPOSIT_STATUS_LABELS[deposit.status],
              address: deposit.address,
              txid: deposit.txid,
              confirmations: deposit.confirmations,
              required_confirmations: deposit.required_confirmations,
              withdrawal: null,
              created_at: deposit.created_at.toISOString(),
            };
          }
          const withdrawal = toWithdrawal(item.withdrawal);
          return {
            id: `withdrawal:${withdrawal.id}`,
            type: 'withdrawal',
            coin_id: withdrawal.coin_id,
            amount: withdrawal.amount,
            fee: withdrawal.fee,
            status: withdrawal.status,
            status_label: withdrawal.status_label,
            address: withdrawal.address,
            txid: withdrawal.txid,
            confirmations: null,
            required_confirmations: null,
            withdrawal,
            created_at: withdrawal.created_at,
          };
        },
      });
    },

    // ---- back office: the payout queue ----

    async listQueue(
      page: number,
      status: 'open' | CryptoWithdrawalStatus,
    ): Promise<Page<AdminCryptoWithdrawal>> {
      return readPage({
        page,
        path: listCryptoPayoutQueue.path,
        filters: { status },
        count: () => repository.countAdmin(status),
        list: (limit, offset) => repository.listAdmin(status, limit, offset),
        toItem: toAdmin,
      });
    },

    /** Approves a pending withdrawal; beyond the daily limit it takes two different staff members. */
    async approve(actor: AuditActor, id: string): Promise<Answer<AdminCryptoWithdrawal>> {
      const message = await db.transaction().execute(async (trx) => {
        const row = await lockFor(trx, id, ['pending'], CRYPTO_WITHDRAW_TEXTS.notPending);
        await checkNotOnHold(trx, row);
        const now = new Date();
        let after: CryptoWithdrawalRow;
        let message: string = CRYPTO_WITHDRAW_TEXTS.approved;
        if (row.needs_second_approval && row.approved_by === null) {
          after = await repository.update(trx, id, { approved_by: actor.staffId, approved_at: now });
          message = CRYPTO_WITHDRAW_TEXTS.firstApproval;
        } else if (row.needs_second_approval) {
          if (row.approved_by === actor.staffId)
            throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.alreadyApprovedByYou);
          after = await repository.update(trx, id, {
            status: 'approved',
            second_approved_by: actor.staffId,
            second_approved_at: now,
          });
        } else {
          after = await repository.update(trx, id, {
            status: 'approved',
            approved_by: actor.staffId,
            approved_at: now,
          });
        }
        await recordAudit(trx, {
          ...actor,
          action: 'crypto.withdrawal_approved',
          targetType: 'crypto_withdrawal',
          targetId: id,
          before: { status: row.status, approved_by: row.approved_by },
          after: {
            status: after.status,
            approved_by: after.approved_by,
            second_approved_by: after.second_approved_by,
          },
        });
        return message;
      });
      return adminAnswer(id, message);
    },

    /** The unsigned transaction of an approved withdrawal, for the cold-storage signer; none while on hold. */
    async signingRequest(id: string) {
      const row = await repository.find(id);
      if (!row) throw new AppError('NOT_FOUND');
      if (row.status !== 'approved') throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.notApproved);
      if ((await repository.findCustomer(row.user_id))?.block_status === ON_HOLD)
        throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.customerOnHold);
      const net = BigInt(row.amount) - BigInt(row.fee);
      return {
        data: {
          withdrawal_id: row.id,
          asset: asAsset(row.asset),
          address: row.address,
          tag: row.tag,
          amount: coins(net, row.asset),
          amount_units: net.toString(),
          created_at: row.created_at.toISOString(),
        },
      };
    },

    /**
     * Sends an approved withdrawal: the hot wallet (simulated chain) broadcasts
     * it, or staff give the txid the cold-storage signer returned. The hold is
     * posted in the same transaction (LEDGER.md: the customer's coins leave
     * custody, net to the address and the fee to revenue).
     */
    async send(
      actor: AuditActor,
      id: string,
      txid: string | null | undefined,
    ): Promise<Answer<AdminCryptoWithdrawal>> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await lockFor(trx, id, ['approved'], CRYPTO_WITHDRAW_TEXTS.notApproved);
        const asset = asAsset(before.asset);
        const wallet = deps.wallets[asset];
        // The hot wallet would send the coins now; a cold-storage txid records coins signed and sent already.
        if (wallet.kind === 'simulated') await checkNotOnHold(trx, before);
        const amount = BigInt(before.amount);
        const fee = BigInt(before.fee);
        if (wallet.kind === 'cold_storage' && !txid)
          throw new AppError('CONFLICT', CRYPTO_WITHDRAW_TEXTS.txidRequired);
        const postings: Posting[] = [
          { account: userRef(before.user_id, asset), amount: -amount },
          { account: custodyRef(asset), amount: amount - fee },
        ];
        if (fee > 0n) postings.push({ account: feeRef(asset), amount: fee });
        const { journalId } = await ledger.postHold(trx, {
          holdId: before.hold_id,
          amount,
          idempotencyKey: `crypto_withdrawal_sent:${id}`,
          kind: 'crypto_withdrawal',
          reference: `crypto_withdrawal:${id}`,
          metadata: {
            fee: coins(fee, asset),
            address: before.address,
            // What the coins leaving the balance were worth when they left, as a deposit records it.
            ...gbpValueMetadata(deps.gbpRate(asset), asset, amount),
          },
          postings,
        });
        // Last, so that nothing after the broadcast can fail but the commit.
        const sentTxid =
          wallet.kind === 'simulated'
            ? await wallet.send(
                { asset, address: before.address, tag: before.tag, amount: amount - fee },
                trx,
              )
            : (txid as string);
        const after = await repository.update(trx, id, {
          status: 'sent',
          journal_id: journalId,
          txid: sentTxid,
          sent_by: actor.staffId,
          sent_at: new Date(),
        });
        await recordAudit(trx, {
          ...actor,
          action: 'crypto.withdrawal_sent',
          targetType: 'crypto_withdrawal',
          targetId: id,
          before: { status: before.status },
          after: { status: 'sent', txid: sentTxid, journal_id: journalId },
        });
        return after;
      });
      userEvents.moneyMoved([row.user_id]);
      const customer = await customerOf(row);
      if (customer)
        await notifier.notify(customer, 'crypto_withdrawal_sent', {
          firstName: customer.first_name,
          receive: coins(BigInt(row.amount) - BigInt(row.fee), row.asset),
          asset: row.asset,
          address: row.address,
          txid: row.txid ?? '',
        });
      return adminAnswer(id, CRYPTO_WITHDRAW_TEXTS.sent);
    },

    async confirm(actor: AuditActor, id: string): Promise<Answer<AdminCryptoWithdrawal>> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await lockFor(trx, id, ['sent'], CRYPTO_WITHDRAW_TEXTS.notSent);
        const after = await repository.update(trx, id, {
          status: 'confirmed',
          confirmed_by: actor.staffId,
          confirmed_at: new Date(),
        });
        await recordAudit(trx, {
          ...actor,
          action: 'crypto.withdrawal_confirmed',
          targetType: 'crypto_withdrawal',
          targetId: id,
          before: { status: before.status },
          after: { status: 'confirmed' },
        });
        return after;
      });
      userEvents.moneyMoved([row.user_id]);
      return adminAnswer(id, CRYPTO_WITHDRAW_TEXTS.confirmed);
    },

    async reject(actor: AuditActor, id: string, reason: string): Promise<Answer<AdminCryptoWithdrawal>> {
      const row = await db.transaction().execute(async (trx) => {
        const before = await lockFor(trx, id, ['pending', 'approved'], CRYPTO_WITHDRAW_TEXTS.notOpen);
        await ledger.releaseHold(trx, { holdId: before.hold_id, outcome: 'voided' });
        const after = await repository.update(trx, id, {
          status: 'rejected',
          rejected_by: actor.staffId,
          rejected_at: new Date(),
          reject_reason: reason,
        });
        await recordAudit(trx, {
          ...actor,
          action: 'crypto.withdrawal_rejected',
          targetType: 'crypto_withdrawal',
          targetId: id,
          before: { status: before.status },
          after: { status: 'rejected', reason },
        });
        return after;
      });
      userEvents.moneyMoved([row.user_id]);
      const customer = await customerOf(row);
      if (customer)
        await notifier.notify(customer, 'crypto_withdrawal_rejected', {
          firstName: customer.first_name,
          amount: coins(row.amount, row.asset),
          asset: row.asset,
          reason,
        });
      return adminAnswer(id, CRYPTO_WITHDRAW_TEXTS.rejected);
    },

    // ---- public ----

    /**
     * Every active coin's withdrawal fee and minimum, as request() charges
     * them, for the public fees page (modules/fees). The daily limit is no
     * maximum: beyond it a withdrawal waits for a second approval.
     */
    async listFeeRules(): Promise<{ asset: CryptoAsset; fee: bigint; minimum: bigint }[]> {
      const rows = await repository.listCoins();
      return rows
        .filter((row) => row.active && row.asset in deps.wallets)
        .map((row) => ({
          asset: asAsset(row.asset),
          fee: BigInt(row.withdraw_fee),
          minimum: BigInt(row.amount_min),
        }));
    },

    // ---- back office: settings ----

    async listSettings(): Promise<{ data: CryptoWithdrawalSettings[] }> {
      const rows = await repository.listCoins();
      return { data: rows.filter((row) => row.asset in deps.wallets).map(toSettings) };
    },

    async updateSettings(
      actor: AuditActor,
      coinId: CoinId,
      body: { daily_limit: string; auto_approve_whitelisted: boolean },
    ): Promise<Answer<CryptoWithdrawalSettings>> {
      const asset = assetOfCoinId(coinId);
      let limit: bigint;
      try {
        limit = parseAmount(body.daily_limit, asset);
      } catch {
        throw new AppError('VALIDATION_FAILED', undefined, {
          daily_limit: [`Enter the daily limit with at most the decimals ${asset} has.`],
        });
      }
      const after = await db.transaction().execute(async (trx) => {
        const before = await repository.findCoin(asset, trx);
        if (!before) throw new AppError('NOT_FOUND');
        await repository.updateCoinSettings(trx, asset, {
          withdraw_daily_limit: limit.toString(),
          auto_approve_whitelisted: body.auto_approve_whitelisted,
        });
        const after = (await repository.findCoin(asset, trx)) as WithdrawCoinRules;
        await recordAudit(trx, {
          ...actor,
          action: 'crypto.withdrawal_settings_updated',
          targetType: 'coin',
          targetId: coinId,
          before: toSettings(before),
          after: toSettings(after),
        });
        return after;
      });
      return { data: toSettings(after), message: CRYPTO_WITHDRAW_TEXTS.settingsSaved };
    },
  };
}

/**
 * Invariant 8 for crypto withdrawals (shared/LEDGER.md): held while open,
 * one settle journal once sent, the hold voided or expired and no journal
 * when it ends unsent.
 */
export const cryptoWithdrawalDomainCheck: DomainCheck = {
  name: 'crypto withdrawals',
  async run(db) {
    const result = await sql<{ message: string }>`
      SELECT 'crypto withdrawal ' || w.id || ' is ' || w.status || ' but its hold is ' || h.status
        || ' with ' || count(j.id) || ' journals' AS message
      FROM crypto_withdrawals w
      JOIN holds h ON h.id = w.hold_id
      LEFT JOIN journals j ON j.hold_id = w.hold_id
      GROUP BY w.id, w.status, h.status, w.journal_id
      HAVING NOT (
        (w.status IN ('sent', 'confirmed') AND h.status = 'posted' AND count(j.id) = 1 AND w.journal_id IS NOT NULL
          AND bool_and(j.id = w.journal_id AND j.kind = 'crypto_withdrawal'))
        OR (w.status IN ('rejected', 'cancelled') AND h.status = 'voided' AND count(j.id) = 0)
        OR (w.status = 'expired' AND h.status = 'expired' AND count(j.id) = 0)
        OR (w.status IN ('awaiting_code', 'verified', 'pending', 'approved') AND h.status = 'pending'
          AND count(j.id) = 0)
      )`.execute(db);
    return result.rows.map((row) => row.message);
  },
};
