import {
  AppError,
  assetOfCoinId,
  coinIdOfAsset,
  CRYPTO_WITHDRAW_TEXTS,
  EMAILED_CODE_MINUTES,
  maskAddress,
  ukDateTime,
  WALLET_USABLE_AFTER_HOURS,
  WHITELIST_TEXTS,
  WHITELISTED_WALLET_TYPE,
  type CoinId,
  type CryptoAsset,
  type WhitelistedWallet,
} from '@florin/contracts';
import { isValidAddress, isValidDestinationTag, normalizeAddress } from '../crypto/service.js';
import { isUniqueViolation, type WalletRow } from './repository.js';
import {
  isIdText,
  requireCustomer,
  requirePasscode,
  twoFactorRequired,
  type WhitelistServiceDeps,
} from './shared.js';

/** After the e-mailed removal code is confirmed, DELETE may remove the address this long. */
export const REMOVAL_CONFIRMED_MINUTES = 10;

function toWallet(row: WalletRow): WhitelistedWallet {
  return {
    id: row.id,
    label: row.label,
    address: maskAddress(row.address),
    coin_id: coinIdOfAsset(row.asset as CryptoAsset),
    tag: row.tag,
    type: WHITELISTED_WALLET_TYPE,
    created_at: row.created_at.toISOString(),
    usable_from: row.usable_from.toISOString(),
    usable: row.usable,
  };
}

/** The Wallet Whitelisting tab: the customer's wallets, added with an authenticator code, removed with an e-mailed one. */
export function createWallets(deps: WhitelistServiceDeps) {
  const { db, repository, notifier } = deps;
  const removalPurpose = (id: string) => `wallet_removal:${id}`;

  async function requireLiveWallet(userId: number, id: string): Promise<WalletRow> {
    const wallet = isIdText(id) ? await repository.findLiveWallet(userId, id) : undefined;
    if (!wallet) throw new AppError('NOT_FOUND');
    return wallet;
  }

  /** Splits xrp's 'address?tag', checks the address by the coin's checksum; the stored spelling. */
  function parseDestination(
    coinId: CoinId,
    text: string,
  ): { asset: CryptoAsset; address: string; tag: string | null } {
    const asset = assetOfCoinId(coinId);
    let address = text.trim();
    let tag: string | null = null;
    if (asset === 'XRP' && address.includes('?')) {
      const [before, after = ''] = address.split('?', 2) as [string, string?];
      address = before.trim();
      const given = after.trim();
      if (given !== '') {
        if (!isValidDestinationTag(given))
          throw new AppError('VALIDATION_FAILED', CRYPTO_WITHDRAW_TEXTS.tagInvalid, {
            address: [CRYPTO_WITHDRAW_TEXTS.tagInvalid],
          });
        tag = String(Number(given));
      }
    }
    if (!isValidAddress(asset, address, deps.network))
      throw new AppError('INVALID_ADDRESS', undefined, undefined, { address: text.trim() });
    return { asset, address: normalizeAddress(asset, address, deps.network), tag };
  }

  return {
    async listWallets(
      userId: number,
      query: { limit: number; coin?: CoinId },
    ): Promise<{ data: WhitelistedWallet[]; total: number }> {
      const { rows, total } = await repository.listWallets(userId, {
        limit: query.limit,
        asset: query.coin ? assetOfCoinId(query.coin) : undefined,
      });
      return { data: rows.map(toWallet), total };
    },

    async addWallet(
      userId: number,
      body: { address: string; coin_id: CoinId; passcode: string; label: string },
    ): Promise<{ data: WhitelistedWallet; message: string }> {
      const customer = await requireCustomer(deps, userId);
      if (!customer.has_totp) throw twoFactorRequired();
      const destination = parseDestination(body.coin_id, body.address);
      const exists = () => new AppError('CONFLICT', WHITELIST_TEXTS.walletExists);
      // Checked before the code is spent, so a duplicate does not cost the customer a code.
      if (
        await repository.findLiveWalletByAddress(
          userId,
          destination.asset,
          destination.address,
          destination.tag,
        )
      )
        throw exists();
      // Withdrawals refuse it, so it is no use on the whitelist.
      const florin = await deps.florinDestinationOf(
        userId,
        destination.asset,
        destination.address,
        destination.tag,
      );
      if (florin !== null) {
        const text =
          florin === 'house_address_without_customer'
            ? WHITELIST_TEXTS.houseAddressWithoutTag
            : WHITELIST_TEXTS.ownDepositAddress;
        throw new AppError('VALIDATION_FAILED', text, { address: [text] });
      }
      await requirePasscode(deps, userId, body.passcode);
      const { row, mail } = await db.transaction().execute(async (trx) => {
        let inserted: WalletRow;
        try {
          inserted = await repository.insertWallet(
            {
              user_id: userId,
              asset: destination.asset,
              address: destination.address,
              tag: destination.tag,
              label: body.label,
              usableAfterHours: WALLET_USABLE_AFTER_HOURS,
            },
            trx,
          );
        } catch (error) {
          if (isUniqueViolation(error, 'whitelisted_wallets_once')) throw exists();
          throw error;
        }
        const queued = await notifier.queue(trx, customer, 'wallet_whitelisted', {
          firstName: customer.first_name,
          coin: destination.asset,
          label: inserted.label,
          ending: inserted.address.slice(-4),
          usableFrom: ukDateTime(inserted.usable_from),
        });
        return { row: inserted, mail: queued };
      });
      await notifier.deliver(mail);
      return { data: toWallet(row), message: WHITELIST_TEXTS.walletAdded };
    },

    /** Mails a code that confirms the removal of this wallet, and only this one. */
    async sendRemovalCode(userId: number, id: string): Promise<{ message: string }> {
      const customer = await requireCustomer(deps, userId);
      const wallet = await requireLiveWallet(userId, id);
      // The code and its mail commit together: no code that was never mailed.
      const mail = await db.transaction().execute(async (trx) => {
        const code = await deps.emailedCodes.issue(trx, userId, removalPurpose(wallet.id));
        return notifier.queue(trx, customer, 'wallet_removal_code', {
          firstName: customer.first_name,
          code,
          coin: wallet.asset,
          ending: wallet.address.slice(-4),
          minutes: EMAILED_CODE_MINUTES,
        });
      });
      await notifier.deliver(mail);
      return { message: WHITELIST_TEXTS.removalCodeSent };
    },

    async verifyRemoval(userId: number, id: string, code: string): Promise<{ message: string }> {
      const wallet = await requireLiveWallet(userId, id);
      const result = await deps.emailedCodes.check(userId, removalPurpose(wallet.id), code);
      // Expired, or spent by five wrong tries (emailedCodes says expired): only a new code helps (Resend).
      if (result === 'expired') throw new AppError('VERIFICATION_FAILED', WHITELIST_TEXTS.codeExpired);
      if (result !== 'ok') throw new AppError('VERIFICATION_FAILED', WHITELIST_TEXTS.removalCodeWrong);
      if (!(await repository.markRemovalVerified(userId, wallet.id, REMOVAL_CONFIRMED_MINUTES)))
        throw new AppError('NOT_FOUND');
      return { message: WHITELIST_TEXTS.removalVerified };
    },

    async removeWallet(userId: number, id: string): Promise<{ message: string }> {
      const customer = await requireCustomer(deps, userId);
      const wallet = await requireLiveWallet(userId, id);
      const mail = await db.transaction().execute(async (trx) => {
        if (!(await repository.removeVerifiedWallet(userId, wallet.id, trx)))
          throw new AppError('VERIFICATION_FAILED', WHITELIST_TEXTS.removalNotVerified);
        return notifier.queue(trx, customer, 'wallet_whitelist_removed', {
          firstName: customer.first_name,
          coin: wallet.asset,
          label: wallet.label,
          ending: wallet.address.slice(-4),
        });
      });
      await notifier.deliver(mail);
      return { message: WHITELIST_TEXTS.walletRemoved };
    },
  };
}
