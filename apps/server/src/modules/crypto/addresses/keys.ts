import { HDKey } from '@scure/bip32';
import { createBase58check } from '@scure/base';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';

/** Base58 with a 4-byte double-SHA-256 checksum (Bitcoin's alphabet). */
export const base58check = createBase58check(sha256);

export function hash160(bytes: Uint8Array): Uint8Array {
  return ripemd160(sha256(bytes));
}

/** The version bytes of the extended *public* keys wallets export (xpub, ypub, zpub, Ltub, Mtub and testnet kin). */
const PUBLIC_VERSIONS = new Set([
  0x0488b21e, // xpub
  0x049d7cb2, // ypub
  0x04b24746, // zpub
  0x043587cf, // tpub
  0x044a5262, // upub
  0x045f1cf6, // vpub
  0x019da462, // Ltub
  0x01b26ef6, // Mtub
]);
const XPUB_VERSION = 0x0488b21e;

export class ExtendedKeyError extends Error {}

/**
 * Reads an account-level extended public key in any of the usual prefixes.
 * Refuses a private key outright: the server must never hold one for deposit
 * addresses (issue 8).
 */
export function parseExtendedPublicKey(text: string): HDKey {
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(text.trim());
  } catch {
    throw new ExtendedKeyError('not a base58check extended key');
  }
  if (bytes.length !== 78) throw new ExtendedKeyError('an extended key is 78 bytes');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(0);
  // Byte 45 starts the key: 0x00 means a private key, 0x02/0x03 a compressed public key.
  if (!PUBLIC_VERSIONS.has(version) || (bytes[45] !== 0x02 && bytes[45] !== 0x03))
    throw new ExtendedKeyError('only extended public keys are accepted');
  const normalised = Uint8Array.from(bytes);
  new DataView(normalised.buffer).setUint32(0, XPUB_VERSION);
  return HDKey.fromExtendedKey(base58check.encode(normalised));
}

/** The public key at receive-chain index `index` below an account key (…/0/index). */
export function receivePublicKey(account: HDKey, index: number): Uint8Array {
  const key = account.deriveChild(0).deriveChild(index).publicKey;
  if (!key) throw new ExtendedKeyError('derivation gave no public key');
  return key;
}
