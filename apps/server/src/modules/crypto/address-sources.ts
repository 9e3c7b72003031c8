import type { CryptoAsset } from '@florin/contracts';
import type { Config } from '../../config.js';
import {
  createAddressDeriver,
  TEST_ACCOUNT_KEYS,
  TEST_XRP_HOUSE_ADDRESS,
  type AddressDeriver,
  type DerivedCoin,
  type Network,
} from './addresses/derive.js';
import { isValidAddress } from './addresses/validate.js';

/** Where a coin's deposit addresses come from: derived per customer, or the house address with a tag. */
export type AddressSource =
  { kind: 'derived'; deriver: AddressDeriver } | { kind: 'tag'; houseAddress: string };

export type AddressSources = { network: Network; sources: Partial<Record<CryptoAsset, AddressSource>> };

const DERIVED: Record<DerivedCoin, 'XPUB_BTC' | 'XPUB_LTC' | 'XPUB_BCH' | 'XPUB_ETH'> = {
  BTC: 'XPUB_BTC',
  LTC: 'XPUB_LTC',
  BCH: 'XPUB_BCH',
  ETH: 'XPUB_ETH',
};

/**
 * The configured keys, or outside production the embedded test keys. In
 * production a coin without its key has no source, and the customer reads
 * the spec's 'contact support' text. A malformed key stops the start.
 */
export function addressSourcesFromConfig(config: Config): AddressSources {
  const network = config.CRYPTO_NETWORK;
  const sources: AddressSources['sources'] = {};
  const useTestKeys = !config.isProduction;
  for (const coin of Object.keys(DERIVED) as DerivedCoin[]) {
    const variable = DERIVED[coin];
    const key = config[variable] ?? (useTestKeys ? TEST_ACCOUNT_KEYS[coin] : undefined);
    if (!key) continue;
    try {
      sources[coin] = { kind: 'derived', deriver: createAddressDeriver(coin, network, key) };
    } catch (error) {
      throw new Error(`${variable}: ${(error as Error).message}`, { cause: error });
    }
  }
  const house = config.XRP_DEPOSIT_ADDRESS ?? (useTestKeys ? TEST_XRP_HOUSE_ADDRESS : undefined);
  if (house) {
    if (!isValidAddress('XRP', house)) throw new Error('XRP_DEPOSIT_ADDRESS: not a valid XRP address');
    sources.XRP = { kind: 'tag', houseAddress: house };
  }
  return { network, sources };
}

/** XRP's shared house address, where the tag tells customers apart; null when XRP takes no deposits. */
export function xrpHouseAddressOf(addresses: AddressSources): string | null {
  const source = addresses.sources.XRP;
  return source?.kind === 'tag' ? source.houseAddress : null;
}

/**
 * A customer's destination tag from their sequence number: 100000 + n with a
 * Luhn check digit, so a tag mistyped by one digit (or two swapped) belongs
 * to nobody and lands in suspense instead of on someone else's balance.
 */
export function destinationTagOf(sequence: number): string {
  const body = String(100_000 + sequence);
  return body + luhnDigit(body);
}

function luhnDigit(body: string): string {
  let sum = 0;
  [...body].reverse().forEach((char, index) => {
    let digit = Number(char);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  });
  return String((10 - (sum % 10)) % 10);
}
