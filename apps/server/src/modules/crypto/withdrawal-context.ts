import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import {
  AppError,
  coinIdOfAsset,
  CRYPTO_WITHDRAW_TEXTS,
  CRYPTO_WITHDRAWAL_STATUS_LABELS,
  CRYPTO_WITHDRAWAL_TRANSITIONS,
  waitUntilText,
  type AdminCryptoWithdrawal,
  type CoinId,
  type CryptoAsset,
  type CryptoWithdrawal,
  type CryptoWithdrawalStatus,
} from '@florin/contracts';
import { isLive } from '@florin/domain';
import { ON_HOLD, type DB } from '../../db/schema.js';
import type { Ledger } from '../../ledger/index.js';
import { statesThatMayBecome } from '../../lifecycle.js';
import type { EmailedCodes } from '../../security/emailed-codes.js';
import type { RateLimiter } from '../../security/rate-limits.js';
import type { SecondFactor } from '../../security/second-factor.js';
import { cryptoWithdrawalsBlockedUntil } from '../compliance/service.js';
import type { VerificationGate } from '../kyc/verification.js';
import type { Notifier } from '../notifications/service.js';
import type { UserEvents } from '../realtime/index.js';
import type { AddressSources } from './address-sources.js';
import type { HotWallet } from './chains/hot-wallets.js';
import type { WithdrawalWallet } from './chains/wallets.js';
import { asAsset, coins, type Answer } from './shared.js';
import type {
  AdminCryptoWithdrawalRow,
  CryptoWithdrawalRepository,
  CryptoWithdrawalRow,
  WithdrawCoinRules,
  WithdrawCustomer,
} from './withdrawal-repository.js';

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
  /** The nodes' hot wallets the payout job sends from (decision 131); a coin without one is paid by staff. */
  hotWallets?: Partial<Record<CryptoAsset, HotWallet>>;
  /** Spec 000 §6: a customer whose verification is incomplete does not withdraw. */
  verification: VerificationGate;
  /** What the waits (a security change, a new saved address) and a request's 30 minutes run by (the app's clock). */
  clock: Clock;
};

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

/** One spelling of an XRP destination tag (the whitelist keeps '7' for '007'); null for none. */
export function tagKey(tag: string | null): string | null {
  return tag === null ? null : String(Number(tag));
}

/** What the customer may still cancel: until staff approve it. */
export const OPEN_FOR_CUSTOMER = statesThatMayBecome(CRYPTO_WITHDRAWAL_TRANSITIONS, 'cancelled');

export function toWithdrawal(row: CryptoWithdrawalRow): CryptoWithdrawal {
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

/** What the withdrawal flows share: the customer, coin and withdrawal each flow reads and checks. */
export function createWithdrawalContext(deps: CryptoWithdrawalServiceDeps) {
  const { repository, clock } = deps;

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
  /** The customer's own withdrawal, or 404 (a foreign one looks like none). */
  async function requireOwn(userId: number, id: string): Promise<CryptoWithdrawalRow> {
    const row = await repository.find(id);
    if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND');
    return row;
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

  /** `executor`: the transaction that writes the customer's mail about the row. */
  async function customerOf(
    row: CryptoWithdrawalRow,
    executor?: Kysely<DB>,
  ): Promise<WithdrawCustomer | undefined> {
    return repository.findCustomer(row.user_id, executor);
  }

  return {
    requireCustomer,
    requireCoin,
    checkMayWithdraw,
    requireOwn,
    toAdmin,
    adminAnswer,
    lockFor,
    checkNotOnHold,
    customerOf,
  };
}

export type WithdrawalContext = ReturnType<typeof createWithdrawalContext>;
