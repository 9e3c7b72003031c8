import { isIPv6 } from 'node:net';
import type { Kysely } from 'kysely';
import { AppError, WHITELIST_TEXTS, type CryptoAsset } from '@florin/contracts';
import type { DB } from '../../db/schema.js';
import type { EmailedCodes } from '../../security/emailed-codes.js';
import type { FlorinDestination } from '../crypto/withdrawals.js';
import type { Notifier } from '../notifications/service.js';
import type { WhitelistCustomer, WhitelistRepository } from './repository.js';

/*
 * What the whitelist flows (wallets.ts, wallet-lookups.ts, ips.ts) share: their dependencies and
 * the checks every change starts with. service.ts composes them into the module's one service.
 */

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

export type WhitelistServiceDeps = {
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
};

export const isIdText = (id: string) => /^\d{1,18}$/.test(id);

export const twoFactorRequired = () =>
  new AppError('VALIDATION_FAILED', WHITELIST_TEXTS.twoFactorRequired, {
    passcode: [WHITELIST_TEXTS.twoFactorRequired],
  });

export async function requireCustomer(
  deps: WhitelistServiceDeps,
  userId: number,
): Promise<WhitelistCustomer> {
  const customer = await deps.repository.findCustomer(userId);
  if (!customer) throw new AppError('UNAUTHENTICATED');
  return customer;
}

export async function requirePasscode(
  deps: WhitelistServiceDeps,
  userId: number,
  passcode: string,
): Promise<void> {
  if (!(await deps.verifyAuthenticatorCode(userId, passcode)))
    throw new AppError('INVALID_PASSCODE', WHITELIST_TEXTS.wrongPasscode, {
      passcode: [WHITELIST_TEXTS.wrongPasscode],
    });
}
