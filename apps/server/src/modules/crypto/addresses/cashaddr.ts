/**
 * Bitcoin Cash's CashAddr format (the spec at
 * github.com/bitcoincashorg/bitcoincash.org/blob/master/spec/cashaddr.md):
 * a prefix, a version byte (type and hash size), the hash, and a 40-bit BCH
 * checksum over the prefix's low 5 bits of each character, a zero, and the
 * payload. Written here because no small audited library covers it.
 */

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATORS = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n] as const;

export type CashAddrType = 'p2pkh' | 'p2sh';

function polymod(values: readonly number[]): bigint {
  let checksum = 1n;
  for (const value of values) {
    const top = checksum >> 35n;
    checksum = ((checksum & 0x07ffffffffn) << 5n) ^ BigInt(value);
    GENERATORS.forEach((generator, bit) => {
      if ((top >> BigInt(bit)) & 1n) checksum ^= generator;
    });
  }
  return checksum ^ 1n;
}

function prefixValues(prefix: string): number[] {
  return [...prefix].map((char) => char.charCodeAt(0) & 0x1f);
}

/** Regroups bits (8 → 5 with padding to encode, 5 → 8 without to decode); null when padding is not zero. */
function convertBits(data: readonly number[], from: number, to: number, pad: boolean): number[] | null {
  let accumulator = 0;
  let bits = 0;
  const result: number[] = [];
  const max = (1 << to) - 1;
  for (const value of data) {
    accumulator = (accumulator << from) | value;
    bits += from;
    while (bits >= to) {
      bits -= to;
      result.push((accumulator >> bits) & max);
    }
  }
  if (pad) {
    if (bits > 0) result.push((accumulator << (to - bits)) & max);
  } else if (bits >= from || ((accumulator << (to - bits)) & max) !== 0) {
    return null;
  }
  return result;
}

const SIZE_CODES: Record<number, number> = { 20: 0, 24: 1, 28: 2, 32: 3, 40: 4, 48: 5, 56: 6, 64: 7 };

export function encodeCashAddr(prefix: string, type: CashAddrType, hash: Uint8Array): string {
  const sizeCode = SIZE_CODES[hash.length];
  if (sizeCode === undefined) throw new Error(`a CashAddr hash cannot be ${hash.length} bytes`);
  const version = ((type === 'p2sh' ? 1 : 0) << 3) | sizeCode;
  const payload = convertBits([version, ...hash], 8, 5, true) ?? [];
  const checksum = polymod([...prefixValues(prefix), 0, ...payload, 0, 0, 0, 0, 0, 0, 0, 0]);
  const checksumValues = Array.from({ length: 8 }, (_, index) =>
    Number((checksum >> BigInt(5 * (7 - index))) & 0x1fn),
  );
  return `${prefix}:${[...payload, ...checksumValues].map((value) => CHARSET[value]).join('')}`;
}

/**
 * Decodes a CashAddr with or without its prefix (`defaultPrefix` is assumed
 * when it is missing); null for anything mistyped: mixed case, a foreign
 * character, a wrong checksum, or a size that does not match the version.
 */
export function decodeCashAddr(
  text: string,
  defaultPrefix: string,
): { prefix: string; type: CashAddrType; hash: Uint8Array } | null {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return null;
  const lower = text.toLowerCase();
  const [prefix, body] = lower.includes(':')
    ? (lower.split(':', 2) as [string, string])
    : [defaultPrefix, lower];
  if (!body || body.length < 8 + 34 || !/^[a-z]+$/.test(prefix)) return null;
  const values: number[] = [];
  for (const char of body) {
    const value = CHARSET.indexOf(char);
    if (value < 0) return null;
    values.push(value);
  }
  if (polymod([...prefixValues(prefix), 0, ...values]) !== 0n) return null;
  const bytes = convertBits(values.slice(0, -8), 5, 8, false);
  if (!bytes || bytes.length === 0) return null;
  const [version, ...hash] = bytes as [number, ...number[]];
  if (version & 0x80) return null;
  const typeBits = (version >> 3) & 0x0f;
  if (typeBits > 1) return null;
  const size = Object.entries(SIZE_CODES).find(([, code]) => code === (version & 0x07))?.[0];
  if (Number(size) !== hash.length) return null;
  return { prefix, type: typeBits === 1 ? 'p2sh' : 'p2pkh', hash: Uint8Array.from(hash) };
}
