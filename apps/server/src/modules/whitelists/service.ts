import { isIPv6 } from 'node:net';
import type { Kysely } from 'kysely';
import {
  AppError,
  assetOfCoinId,
  coinIdOfAsset,
  CRYPTO_WITHDRAW_TEXTS,
  maskAddress,
  WALLET_USABLE_AFTER_HOURS,
  WHITELIST_TEXTS,
  WHITELISTED_WALLET_TYPE,
  type CoinId,
  type CryptoAsset,
  type WhitelistedIp,
  type WhitelistedWallet,
  EMAILED_CODE_MINUTES,
  ukDateTime,
} from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import type { EmailedCodes } from '../../security/emailed-codes.js';
import { isValidAddress, isValidDestinationTag, normalizeAddress } from '../crypto/service.js';
import type { Notifier } from '../notifications/service.js';
import type { FlorinDestination } from '../crypto/withdrawals.js';
import {
  isUniqueViolation,
  type IpRow,
  type WalletRow,
  type WhitelistCustomer,
  type WhitelistRepository,
} from './repository.js';
import { locateIp } from './ip-location.js';

/** After the e-mailed removal code is confirmed, DELETE may remove the address this long. */
export const REMOVAL_CONFIRMED_MINUTES = 10;

type Network = 'mainnet' | 'testnet';

/**
 * One spelling per IP address: an IPv4 address seen through an IPv6 socket
 * (::ffff:203.0.113.7) is the IPv4 address; IPv6 in its compressed lower-case form.
 */
export function normalizeIp(ip: string): string {
  const text = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (mapped) return mapped[1]!;
  if (!isIPv6(text)) return text;
  try {
    return new URL(`http://[${text}]`).hostname.slice(1, -1);
  } catch {
    return text;
  }
}

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

function toIp(row: IpRow): WhitelistedIp {
  return {
    id: row.id,
    ip_address: row.ip_address,
    city: row.city || null,
    country: row.country || null,
    created_at: row.created_at.toISOString(),
  };
}

const isIdText = (id: string) => /^\d{1,18}$/.test(id);

const twoFactorRequired = () =>
  new AppError('VALIDATION_FAILED', WHITELIST_TEXTS.twoFactorRequired, {
    passcode: [WHITELIST_TEXTS.twoFactorRequired],
  });

/**
 * The Settings tabs Wallet Whitelisting and IP Whitelisting (issue 8) and
 * what other modules read from them: the crypto withdrawal service's
 * whitelisted destinations, and the sign-in check of the auth module.
 * Adding needs 2FA on and an authenticator code; removing a wallet needs a
 * code e-mailed for that wallet; every change is mailed to the customer.
 */
export function createWhitelistService(deps: {
  db: Kysely<DB>;
  repository: WhitelistRepository;
  notifier: Notifier;
  emailedCodes: EmailedCodes;
  /**
   * An authenticator code's check, each taken once: the second factor's, which counts wrong codes
   * against the customer's limit (security/second-factor.ts).
   */
  verifyAuthenticatorCode: (userId: number, passcode: string) => Promise<boolean>;
  /** Which network addresses are checked for (CRYPTO_NETWORK). */
  network: Network;
  /** The crypto module's check that an address (and XRP tag) is Florin's own, which withdrawals refuse. */
  florinDestinationOf: (
    userId: number,
    asset: CryptoAsset,
    address: string,
    tag: string | null,
  ) => Promise<FlorinDestination | null>;
}) {
  const { db, repository, notifier } = deps;
  const removalPurpose = (id: string) => `wallet_removal:${id}`;

  async function requireCustomer(userId: number): Promise<WhitelistCustomer> {
    const customer = await repository.findCustomer(userId);
    if (!customer) throw new AppError('UNAUTHENTICATED');
    return customer;
  }

  /** The IP routes name their owner in the path; anyone else's identification is not found. */
  async function requireOwner(userId: number, identification: string): Promise<WhitelistCustomer> {
    const customer = await requireCustomer(userId);
    if (customer.user_identification !== identification) throw new AppError('NOT_FOUND');
    return customer;
  }

  async function requirePasscode(userId: number, passcode: string): Promise<void> {
    if (!(await deps.verifyAuthenticatorCode(userId, passcode)))
      throw new AppError('INVALID_PASSCODE', WHITELIST_TEXTS.wrongPasscode, {
        passcode: [WHITELIST_TEXTS.wrongPasscode],
      });
  }

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
    // ---- wallets: the customer ----

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
      const customer = await requireCustomer(userId);
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
      await requirePasscode(userId, body.passcode);
      let row: WalletRow;
      try {
        row = await repository.insertWallet({
          user_id: userId,
          asset: destination.asset,
          address: destination.address,
          tag: destination.tag,
          label: body.label,
          usableAfterHours: WALLET_USABLE_AFTER_HOURS,
        });
      } catch (error) {
        if (isUniqueViolation(error, 'whitelisted_wallets_once')) throw exists();
        throw error;
      }
      await notifier.notify(customer, 'wallet_whitelisted', {
        firstName: customer.first_name,
        coin: destination.asset,
        label: row.label,
        ending: row.address.slice(-4),
        usableFrom: ukDateTime(row.usable_from),
      });
      return { data: toWallet(row), message: WHITELIST_TEXTS.walletAdded };
    },

    /** Mails a code that confirms the removal of this wallet, and only this one. */
    async sendRemovalCode(userId: number, id: string): Promise<{ message: string }> {
      const customer = await requireCustomer(userId);
      const wallet = await requireLiveWallet(userId, id);
      const code = await deps.emailedCodes.issue(db, userId, removalPurpose(wallet.id));
      await notifier.notify(customer, 'wallet_removal_code', {
        firstName: customer.first_name,
        code,
        coin: wallet.asset,
        ending: wallet.address.slice(-4),
        minutes: EMAILED_CODE_MINUTES,
      });
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
      const customer = await requireCustomer(userId);
      const wallet = await requireLiveWallet(userId, id);
      if (!(await repository.removeVerifiedWallet(userId, wallet.id)))
        throw new AppError('VERIFICATION_FAILED', WHITELIST_TEXTS.removalNotVerified);
      await notifier.notify(customer, 'wallet_whitelist_removed', {
        firstName: customer.first_name,
        coin: wallet.asset,
        label: wallet.label,
        ending: wallet.address.slice(-4),
      });
      return { message: WHITELIST_TEXTS.walletRemoved };
    },

    // ---- wallets: for the crypto withdrawal service ----

    /** The customer's live whitelisted wallet with this id (full address), or undefined. */
    async findWallet(
      userId: number,
      id: string,
    ): Promise<
      { id: string; asset: string; address: string; tag: string | null; usable_from: Date } | undefined
    > {
      if (!isIdText(id)) return undefined;
      const row = await repository.findLiveWallet(userId, id);
      return (
        row && {
          id: row.id,
          asset: row.asset,
          address: row.address,
          tag: row.tag,
          usable_from: row.usable_from,
        }
      );
    },

    /** The customer's live whitelisted wallet for this destination, however its address is spelled. */
    async findByAddress(
      userId: number,
      asset: string,
      address: string,
      tag: string | null,
    ): Promise<{ id: string; usable_from: Date } | undefined> {
      const code = asset.toUpperCase() as CryptoAsset;
      if (!isValidAddress(code, address, deps.network)) return undefined;
      const row = await repository.findLiveWalletByAddress(
        userId,
        code,
        normalizeAddress(code, address, deps.network),
        code === 'XRP' && tag !== null && tag !== '' ? String(Number(tag)) : null,
      );
      return row && { id: row.id, usable_from: row.usable_from };
    },

    // ---- IPs ----

    async listIps(
      userId: number,
      identification: string,
      limit: number,
      currentIp: string,
    ): Promise<{ data: WhitelistedIp[]; total: number; current_ip: string }> {
      await requireOwner(userId, identification);
      const { rows, total } = await repository.listIps(userId, limit);
      // Rows saved before locations were looked up are located once, as they are first read.
      const located = await Promise.all(
        rows.map(async (row) => {
          if (row.city !== null || row.country !== null) return row;
          const location = await locateIp(row.ip_address);
          await repository.saveIpLocation(row.id, location);
          return { ...row, ...location };
        }),
      );
      return { data: located.map(toIp), total, current_ip: normalizeIp(currentIp) };
    },

    async addIp(
      userId: number,
      identification: string,
      body: { ip_address: string; passcode: string; city?: string | null; country?: string | null },
      currentIp: string,
    ): Promise<{ data: WhitelistedIp; message: string }> {
      const customer = await requireOwner(userId, identification);
      if (!customer.has_totp) throw twoFactorRequired();
      const ip = normalizeIp(body.ip_address);
      const current = normalizeIp(currentIp);
      // A first entry other than the address in use would lock the customer out at their next sign-in.
      const checkRules = async (executor: Kysely<DB>) => {
        if (ip !== current && (await repository.countLiveIps(userId, executor)) === 0)
          throw new AppError('VALIDATION_FAILED', WHITELIST_TEXTS.ipFirstMustBeCurrent, {
            ip_address: [WHITELIST_TEXTS.ipFirstMustBeCurrent],
          });
        if (await repository.findLiveIpByAddress(userId, ip, executor))
          throw new AppError('CONFLICT', WHITELIST_TEXTS.ipExists);
      };
      await checkRules(db);
      await requirePasscode(userId, body.passcode);
      // Our own lookup, not the page's city and country: a customer's browser cannot know better, nor be trusted to.
      const location = await locateIp(ip);
      const row = await db.transaction().execute(async (trx) => {
        await repository.lockCustomer(trx, userId);
        await checkRules(trx);
        try {
          return await repository.insertIp(trx, { user_id: userId, ip_address: ip, ...location });
        } catch (error) {
          if (isUniqueViolation(error, 'whitelisted_ips_once'))
            throw new AppError('CONFLICT', WHITELIST_TEXTS.ipExists);
          throw error;
        }
      });
      await notifier.notify(customer, 'ip_whitelisted', { firstName: customer.first_name, ip });
      return { data: toIp(row), message: WHITELIST_TEXTS.ipAdded };
    },

    async removeIp(
      userId: number,
      identification: string,
      id: string,
      passcode: string,
      currentIp: string,
    ): Promise<{ message: string }> {
      const customer = await requireOwner(userId, identification);
      const row = isIdText(id) ? await repository.findLiveIp(userId, id) : undefined;
      if (!row) throw new AppError('NOT_FOUND');
      if (!customer.has_totp) throw twoFactorRequired();
      // As when adding the first: removing the address in use while others stay would lock the customer
      // out at their next sign-in from here (removing the last one lets every address in again).
      if (row.ip_address === normalizeIp(currentIp) && (await repository.countLiveIps(userId, db)) > 1)
        throw new AppError('VALIDATION_FAILED', WHITELIST_TEXTS.ipRemoveCurrent);
      await requirePasscode(userId, passcode);
      if (!(await repository.removeIp(userId, row.id))) throw new AppError('NOT_FOUND');
      await notifier.notify(customer, 'ip_whitelist_removed', {
        firstName: customer.first_name,
        ip: row.ip_address,
      });
      return { message: WHITELIST_TEXTS.ipRemoved };
    },

    /** For sign-in: true when the customer whitelists no IPs, or `ip` is one of them. */
    async isSignInIpAllowed(userId: number, ip: string): Promise<boolean> {
      const allowed = await repository.listLiveIpAddresses(userId);
      return allowed.length === 0 || allowed.includes(normalizeIp(ip));
    },
  };
}

export type WhitelistService = ReturnType<typeof createWhitelistService>;
