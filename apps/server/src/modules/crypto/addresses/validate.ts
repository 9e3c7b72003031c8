import { base58xrp, bech32, bech32m } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { CryptoAsset } from '@florin/contracts';
import { decodeCashAddr } from './cashaddr.js';
import { base58check } from './keys.js';

type Network = 'mainnet' | 'testnet';

/** EIP-55: a hex letter is upper case when the matching nibble of keccak256(lower-case hex) is 8 or more. */
export function toChecksumAddress(address: string): string {
  const hex = address.toLowerCase().replace(/^0x/, '');
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(hex))).toString('hex');
  let result = '0x';
  for (let index = 0; index < hex.length; index += 1) {
    const char = hex[index]!;
    result += parseInt(hash[index]!, 16) >= 8 ? char.toUpperCase() : char;
  }
  return result;
}

function isValidEthereum(text: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return false;
  const body = text.slice(2);
  // All one case carries no checksum (EIP-55 keeps such addresses valid); mixed case must match it.
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return toChecksumAddress(text) === text;
}

/** BIP173 / BIP350: version 0 with bech32 and a 20- or 32-byte program; versions 1–16 with bech32m. */
function isValidSegwit(text: string, hrp: string): boolean {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return false;
  const lower = text.toLowerCase();
  if (!lower.startsWith(`${hrp}1`)) return false;
  const decoded = bech32.decodeUnsafe(lower, 90) ?? undefined;
  const decodedM = decoded ? undefined : (bech32m.decodeUnsafe(lower, 90) ?? undefined);
  const result = decoded ?? decodedM;
  if (!result || result.prefix !== hrp || result.words.length === 0) return false;
  const [version, ...words] = result.words as [number, ...number[]];
  if (version > 16) return false;
  if ((version === 0) !== Boolean(decoded)) return false;
  const program = bech32.fromWordsUnsafe(words);
  if (!program) return false;
  if (version === 0) return program.length === 20 || program.length === 32;
  return program.length >= 2 && program.length <= 40;
}

function base58Version(text: string): number | null {
  try {
    const bytes = base58check.decode(text);
    return bytes.length === 21 ? bytes[0]! : null;
  } catch {
    return null;
  }
}

/** Legacy base58check versions accepted per coin and network: P2PKH, P2SH. */
const BASE58_VERSIONS: Record<'BTC' | 'LTC', Record<Network, readonly number[]>> = {
  BTC: { mainnet: [0x00, 0x05], testnet: [0x6f, 0xc4] },
  // LTC: L… (0x30), M… (0x32) and the older 3… (0x05); testnet m/n (0x6f), Q (0x3a), 2 (0xc4).
  LTC: { mainnet: [0x30, 0x32, 0x05], testnet: [0x6f, 0x3a, 0xc4] },
};
const SEGWIT_HRP: Record<'BTC' | 'LTC', Record<Network, string>> = {
  BTC: { mainnet: 'bc', testnet: 'tb' },
  LTC: { mainnet: 'ltc', testnet: 'tltc' },
};

/** XRP classic address: base58 with Ripple's alphabet, version 0, 20-byte account id, double-SHA-256 checksum. */
function isValidXrp(text: string): boolean {
  if (!/^r[1-9A-HJ-NP-Za-km-z]{24,34}$/.test(text)) return false;
  let bytes: Uint8Array;
  try {
    bytes = base58xrp.decode(text);
  } catch {
    return false;
  }
  if (bytes.length !== 25 || bytes[0] !== 0x00) return false;
  const checksum = sha256(sha256(bytes.subarray(0, 21))).subarray(0, 4);
  return checksum.every((byte, index) => byte === bytes[21 + index]);
}

/**
 * Whether `address` is a well-formed address of `asset` on `network`, checked
 * by its checksum, so a mistyped address is refused before anything else.
 * BCH takes CashAddr only (with or without its prefix): its legacy form is
 * the same as Bitcoin's, and money sent to the wrong chain is lost.
 */
export function isValidAddress(asset: CryptoAsset, address: string, network: Network = 'mainnet'): boolean {
  const text = address.trim();
  if (text.length === 0 || text.length > 120) return false;
  switch (asset) {
    case 'BTC':
    case 'LTC': {
      if (isValidSegwit(text, SEGWIT_HRP[asset][network])) return true;
      const version = base58Version(text);
      return version !== null && BASE58_VERSIONS[asset][network].includes(version);
    }
    case 'BCH': {
      const prefix = network === 'mainnet' ? 'bitcoincash' : 'bchtest';
      const decoded = decodeCashAddr(text, prefix);
      return decoded !== null && decoded.prefix === prefix && decoded.hash.length === 20;
    }
    case 'ETH':
      return isValidEthereum(text);
    case 'XRP':
      return isValidXrp(text);
  }
}

/** An XRP destination tag: a whole number that fits 32 bits. */
export function isValidDestinationTag(tag: string): boolean {
  return /^\d{1,10}$/.test(tag) && Number(tag) <= 0xffffffff;
}

const SEGWIT_PREFIXES = ['bc1', 'tb1', 'ltc1', 'tltc1'];

/**
 * One spelling per address, so a duplicate is found whatever case the
 * customer typed: EIP-55 for ETH, lower case for bech32 and CashAddr (with its
 * prefix). Base58 (legacy BTC/LTC, XRP) is case-sensitive and kept as given.
 */
export function normalizeAddress(asset: CryptoAsset, address: string, network: Network): string {
  const text = address.trim();
  switch (asset) {
    case 'ETH':
      return toChecksumAddress(text);
    case 'BCH': {
      const lower = text.toLowerCase();
      return lower.includes(':') ? lower : `${network === 'mainnet' ? 'bitcoincash' : 'bchtest'}:${lower}`;
    }
    case 'BTC':
    case 'LTC':
      return SEGWIT_PREFIXES.some((prefix) => text.toLowerCase().startsWith(prefix))
        ? text.toLowerCase()
        : text;
    case 'XRP':
      return text;
  }
}
