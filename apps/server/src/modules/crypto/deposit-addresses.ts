import {
  AppError,
  assetOfCoinId,
  coinIdOfAsset,
  CRYPTO_ASSETS,
  CRYPTO_TEXTS,
  ERROR_CODES,
  type CoinId,
  type CryptoAsset,
  type DepositUnavailable,
  type DepositWallet,
} from '@florin/contracts';
import { isLive } from '@florin/domain';
import { destinationTagOf } from './address-sources.js';
import type { CryptoServiceDeps, DepositContext } from './deposit-context.js';
import type { CoinRules, CryptoCustomer, DepositAddressRow } from './repository.js';
import { asAsset, type Answer } from './shared.js';

function toWallet(row: DepositAddressRow, confirmations: number): DepositWallet {
  return {
    coin_id: coinIdOfAsset(asAsset(row.asset)),
    address: row.address,
    tag: row.tag,
    confirmations,
    created_at: row.created_at.toISOString(),
  };
}

/** Each customer's deposit address per coin: assigned once, on first view or on request. */
export function createDepositAddresses(deps: CryptoServiceDeps, context: DepositContext) {
  const { db, repository } = deps;
  const { coinRules } = context;

  /** Reads the verification only when it can matter: a customer who is not live hears that first. */
  async function isVerifiedIfLive(customer: CryptoCustomer): Promise<boolean> {
    return !isLive(customer) || deps.verification.isComplete(customer.id);
  }

  /** Why `asset` has no address for this customer now; null when one may be assigned. */
  function unavailableReason(
    customer: CryptoCustomer,
    rules: CoinRules | undefined,
    asset: CryptoAsset,
    isVerified: boolean,
  ): DepositUnavailable['reason'] | null {
    if (!rules || !rules.active || rules.disable_deposit) return 'deposits_disabled';
    if (!isLive(customer)) return 'account_not_live';
    if (!isVerified) return 'verification_incomplete';
    if (!deps.addresses.sources[asset]) return 'not_configured';
    return null;
  }

  /** The customer's address for `asset`, assigned now if they have none: one index, never reused. */
  async function assignAddress(userId: number, asset: CryptoAsset): Promise<DepositAddressRow> {
    const existing = await repository.findAddress(userId, asset);
    if (existing) return existing;
    const source = deps.addresses.sources[asset];
    if (!source) throw new AppError('DEPOSIT_UNAVAILABLE');
    const created = await db
      .transaction()
      .execute(async (trx) => {
        const index = await repository.takeIndex(trx, asset);
        const row = await repository.insertAddress(trx, {
          asset,
          user_id: userId,
          derivation_index: index,
          address: source.kind === 'derived' ? source.deriver.addressAt(index) : source.houseAddress,
          tag: source.kind === 'tag' ? destinationTagOf(index) : null,
        });
        // Another request of this customer got there first: give the index back with a rollback.
        if (!row) throw new AddressAlreadyAssigned();
        return row;
      })
      .catch((error: unknown) => {
        if (error instanceof AddressAlreadyAssigned) return undefined;
        throw error;
      });
    return created ?? ((await repository.findAddress(userId, asset)) as DepositAddressRow);
  }

  async function requireCustomer(userId: number): Promise<CryptoCustomer> {
    const customer = await repository.findCustomer(userId);
    if (!customer) throw new AppError('UNAUTHENTICATED');
    return customer;
  }

  async function listWalletAddresses(
    userId: number,
    coin: CoinId | 'all',
  ): Promise<{ data: DepositWallet[]; unavailable: DepositUnavailable[] }> {
    const customer = await requireCustomer(userId);
    const isVerified = await isVerifiedIfLive(customer);
    const rules = await coinRules();
    const assets = coin === 'all' ? CRYPTO_ASSETS.filter((asset) => rules.has(asset)) : [assetOfCoinId(coin)];
    const data: DepositWallet[] = [];
    const unavailable: DepositUnavailable[] = [];
    const existing = new Map((await repository.listAddresses(userId)).map((row) => [row.asset, row]));
    for (const asset of assets) {
      const rule = rules.get(asset);
      const reason = unavailableReason(customer, rule, asset, isVerified);
      if (reason || !rule) {
        unavailable.push({
          coin_id: coinIdOfAsset(asset),
          reason: reason ?? 'deposits_disabled',
          message:
            reason === 'verification_incomplete'
              ? ERROR_CODES.VERIFICATION_INCOMPLETE.message
              : CRYPTO_TEXTS.contactSupport,
        });
        continue;
      }
      // Derived addresses are assigned on first view; an XRP tag waits for 'Generate Address'.
      const row =
        existing.get(asset) ??
        (deps.addresses.sources[asset]?.kind === 'derived' ? await assignAddress(userId, asset) : undefined);
      if (row) data.push(toWallet(row, rule.confirmations));
    }
    return { data, unavailable };
  }

  async function generateAddress(userId: number, coinId: CoinId): Promise<Answer<DepositWallet>> {
    const customer = await requireCustomer(userId);
    const asset = assetOfCoinId(coinId);
    const rule = (await coinRules()).get(asset);
    const reason = unavailableReason(customer, rule, asset, await isVerifiedIfLive(customer));
    if (reason === 'account_not_live') throw new AppError('ACCOUNT_NOT_LIVE');
    if (reason === 'verification_incomplete') throw new AppError('VERIFICATION_INCOMPLETE');
    if (reason || !rule) throw new AppError('DEPOSIT_UNAVAILABLE');
    const row = await assignAddress(userId, asset);
    return {
      data: toWallet(row, rule.confirmations),
      message: asset === 'XRP' ? CRYPTO_TEXTS.tagGenerated : CRYPTO_TEXTS.addressGenerated,
    };
  }

  return { listWalletAddresses, generateAddress };
}

class AddressAlreadyAssigned extends Error {}
