import { bech32 } from '@scure/base';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { HDKey } from '@scure/bip32';
import { encodeCashAddr } from './cashaddr.js';
import { hash160, parseExtendedPublicKey, receivePublicKey } from './keys.js';
import { toChecksumAddress } from './validate.js';

export type DerivedCoin = 'BTC' | 'LTC' | 'BCH' | 'ETH';
export type Network = 'mainnet' | 'testnet';

/** Human-readable parts and prefixes per network. */
const BECH32_PREFIX: Record<'BTC' | 'LTC', Record<Network, string>> = {
  BTC: { mainnet: 'bc', testnet: 'tb' },
  LTC: { mainnet: 'ltc', testnet: 'tltc' },
};
export const CASHADDR_PREFIX: Record<Network, string> = { mainnet: 'bitcoincash', testnet: 'bchtest' };

/**
 * The derivation path each account key must come from (the cold-storage
 * wallet exports the key at the account level; the server adds /0/index).
 */
export const ACCOUNT_PATHS: Record<DerivedCoin, Record<Network, string>> = {
  BTC: { mainnet: "m/84'/0'/0'", testnet: "m/84'/1'/0'" },
  LTC: { mainnet: "m/84'/2'/0'", testnet: "m/84'/1'/0'" },
  BCH: { mainnet: "m/44'/145'/0'", testnet: "m/44'/1'/0'" },
  ETH: { mainnet: "m/44'/60'/0'", testnet: "m/44'/60'/0'" },
};

/** The address a compressed secp256k1 public key has on `coin`. */
export function addressOfPublicKey(coin: DerivedCoin, network: Network, publicKey: Uint8Array): string {
  switch (coin) {
    case 'BTC':
    case 'LTC':
      // Native segwit v0 (BIP84 / BIP173): witness program = HASH160 of the public key.
      return bech32.encode(BECH32_PREFIX[coin][network], [0, ...bech32.toWords(hash160(publicKey))]);
    case 'BCH':
      return encodeCashAddr(CASHADDR_PREFIX[network], 'p2pkh', hash160(publicKey));
    case 'ETH': {
      const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
      const body = keccak_256(uncompressed.subarray(1)).subarray(12);
      return toChecksumAddress(`0x${Buffer.from(body).toString('hex')}`);
    }
  }
}

export type AddressDeriver = { coin: DerivedCoin; addressAt(index: number): string };

/** Derives `coin` deposit addresses from its account-level extended public key. */
export function createAddressDeriver(
  coin: DerivedCoin,
  network: Network,
  extendedKey: string,
): AddressDeriver {
  const account: HDKey = parseExtendedPublicKey(extendedKey);
  return {
    coin,
    addressAt(index) {
      if (!Number.isInteger(index) || index < 0 || index >= 0x80000000)
        throw new RangeError('a derivation index is a non-hardened 31-bit integer');
      return addressOfPublicKey(coin, network, receivePublicKey(account, index));
    },
  };
}

/**
 * Embedded development keys: the account keys of the BIP39 test mnemonic
 * "abandon abandon … about" (BIP84's own vector for BTC). Their private keys
 * are public knowledge, so they are for the simulated chain only: in
 * production a coin without its configured key takes no deposits.
 */
export const TEST_ACCOUNT_KEYS: Record<DerivedCoin, string> = {
  // BIP84 test vector, account 0 (github.com/bitcoin/bips/blob/master/bip-0084.mediawiki).
  BTC: 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
  LTC: 'xpub6CjGURuDpczf6uNrCCwfhVizn5J3hsWcvZ2m6GAdmAjZnoWJPrx6TFPjGSftc2o5fvox6ubQjSXmjjaHZjwYMH7SGFpHHb9Jg24zBf66mbE',
  BCH: 'xpub6ByHsPNSQXTWZ7PLESMY2FufyYWtLXagSUpMQq7Un96SiThZH2iJB1X7pwviH1WtKVeDP6K8d6xxFzzoaFzF3s8BKCZx8oEDdDkNnp4owAZ',
  ETH: 'xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt',
};

/** The test mnemonic's m/44'/144'/0'/0/0: the embedded XRP house address (simulated chain only). */
export const TEST_XRP_HOUSE_ADDRESS = 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3';
