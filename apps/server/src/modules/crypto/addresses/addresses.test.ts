import { HDKey } from '@scure/bip32';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { destinationTagOf } from '../address-sources.js';
import { decodeCashAddr, encodeCashAddr } from './cashaddr.js';
import { ACCOUNT_PATHS, createAddressDeriver, TEST_ACCOUNT_KEYS, TEST_XRP_HOUSE_ADDRESS } from './derive.js';
import { base58check, ExtendedKeyError, parseExtendedPublicKey } from './keys.js';
import { isValidAddress, isValidDestinationTag, toChecksumAddress } from './validate.js';

/**
 * Every coin's derivation checked against published vectors, and every
 * coin's validation against valid and mistyped addresses. The BIP39 test
 * mnemonic "abandon ×11 about" is the common ground of the vectors: BIP84
 * publishes its zpub and addresses; the other coins' addresses for it are the
 * ones wallets and Ian Coleman's BIP39 tool list, and the tests below also
 * re-derive each embedded account key from the mnemonic itself.
 */

const MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/** BIP39 seed: PBKDF2-HMAC-SHA512(mnemonic, "mnemonic", 2048, 64). Tests only. */
function seedOf(mnemonic: string): Uint8Array {
  const encode = (text: string) => new TextEncoder().encode(text.normalize('NFKD'));
  return pbkdf2(sha512, encode(mnemonic), encode('mnemonic'), { c: 2048, dkLen: 64 });
}

describe('deriving deposit addresses from account public keys', () => {
  it('BTC: the BIP84 test vector (zpub → bc1q…), github.com/bitcoin/bips/blob/master/bip-0084.mediawiki', () => {
    const zpub =
      'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
    const btc = createAddressDeriver('BTC', 'mainnet', zpub);
    // m/84'/0'/0'/0/0 and m/84'/0'/0'/0/1 in BIP84's "Test vectors".
    expect(btc.addressAt(0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(btc.addressAt(1)).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
    expect(TEST_ACCOUNT_KEYS.BTC).toBe(zpub);
  });

  it('the embedded account keys are the test mnemonic’s keys at each coin’s account path', () => {
    const root = HDKey.fromMasterSeed(seedOf(MNEMONIC));
    for (const coin of ['BTC', 'LTC', 'BCH', 'ETH'] as const) {
      const expected = root.derive(ACCOUNT_PATHS[coin].mainnet).publicExtendedKey;
      expect(parseExtendedPublicKey(TEST_ACCOUNT_KEYS[coin]).publicExtendedKey, coin).toBe(expected);
    }
  });

  it('ETH: EIP-55 addresses of the test mnemonic at m/44’/60’/0’/0/i (the well-known 0x9858…Eda94)', () => {
    const eth = createAddressDeriver('ETH', 'mainnet', TEST_ACCOUNT_KEYS.ETH);
    expect(eth.addressAt(0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect(eth.addressAt(1)).toBe('0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0');
  });

  it('LTC: native segwit ltc1 of the test mnemonic at m/84’/2’/0’/0/0', () => {
    const ltc = createAddressDeriver('LTC', 'mainnet', TEST_ACCOUNT_KEYS.LTC);
    expect(ltc.addressAt(0)).toBe('ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh');
  });

  it('BCH: CashAddr P2PKH of the test mnemonic at m/44’/145’/0’/0/0', () => {
    const bch = createAddressDeriver('BCH', 'mainnet', TEST_ACCOUNT_KEYS.BCH);
    expect(bch.addressAt(0)).toBe('bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6');
    expect(createAddressDeriver('BCH', 'testnet', TEST_ACCOUNT_KEYS.BCH).addressAt(0)).toMatch(/^bchtest:q/);
  });

  it('XRP: the embedded house address is the test mnemonic’s m/44’/144’/0’/0/0, and tags carry a check digit', () => {
    expect(TEST_XRP_HOUSE_ADDRESS).toBe('rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3');
    expect(isValidAddress('XRP', TEST_XRP_HOUSE_ADDRESS)).toBe(true);
    const tags = [0, 1, 2, 41, 999].map(destinationTagOf);
    expect(tags[0]).toBe('1000009');
    expect(new Set(tags).size).toBe(tags.length);
    for (const tag of tags) expect(isValidDestinationTag(tag)).toBe(true);
    // One digit mistyped gives a tag that belongs to nobody.
    const issued = new Set(Array.from({ length: 2_000 }, (_, index) => destinationTagOf(index)));
    expect(issued.has('1000008')).toBe(false);
  });

  it('never takes a private key, nor anything that is not an extended key', () => {
    const root = HDKey.fromMasterSeed(seedOf(MNEMONIC));
    const xprv = root.derive("m/84'/0'/0'").privateExtendedKey;
    expect(() => parseExtendedPublicKey(xprv)).toThrow(ExtendedKeyError);
    expect(() => parseExtendedPublicKey('xpub-not-a-key')).toThrow(ExtendedKeyError);
    const mistyped = TEST_ACCOUNT_KEYS.ETH.slice(0, -1) + (TEST_ACCOUNT_KEYS.ETH.endsWith('t') ? 'u' : 't');
    expect(() => parseExtendedPublicKey(mistyped)).toThrow(ExtendedKeyError);
  });
});

describe('CashAddr (github.com/bitcoincashorg/bitcoincash.org/blob/master/spec/cashaddr.md)', () => {
  // The spec's "Examples of address translation": legacy base58 → CashAddr.
  const translations = [
    ['1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a'],
    ['1KXrWXciRDZUpQwQmuM1DbwsKDLYAYsVLR', 'bitcoincash:qr95sy3j9xwd2ap32xkykttr4cvcu7as4y0qverfuy'],
    ['16w1D5WRVKJuZUsSRzdLp9w3YGcgoxDXb', 'bitcoincash:qqq3728yw0y47sqn6l2na30mcw6zm78dzqre909m2r'],
    ['3CWFddi6m4ndiGyKqzYvsFYagqDLPVMTzC', 'bitcoincash:ppm2qsznhks23z7629mms6s4cwef74vcwvn0h829pq'],
    ['3LDsS579y7sruadqu11beEJoTjdFiFCdX4', 'bitcoincash:pr95sy3j9xwd2ap32xkykttr4cvcu7as4yc93ky28e'],
    ['31nwvkZwyPdgzjBJZXfDmSWsC4ZLKpYyUw', 'bitcoincash:pqq3728yw0y47sqn6l2na30mcw6zm78dzq5ucqzc37'],
  ] as const;

  it.each(translations)('%s is %s', (legacy, cashaddr) => {
    const bytes = base58check.decode(legacy);
    const type = bytes[0] === 0x05 ? 'p2sh' : 'p2pkh';
    expect(encodeCashAddr('bitcoincash', type, bytes.subarray(1))).toBe(cashaddr);
    expect(decodeCashAddr(cashaddr, 'bitcoincash')).toEqual({
      prefix: 'bitcoincash',
      type,
      hash: bytes.subarray(1),
    });
  });

  it('encodes the spec’s 20-byte payload vector', () => {
    const hash = Uint8Array.from(Buffer.from('F5BF48B397DAE70BE82B3CCA4793F8EB2B6CDAC9', 'hex'));
    expect(encodeCashAddr('bitcoincash', 'p2pkh', hash)).toBe(
      'bitcoincash:qr6m7j9njldwwzlg9v7v53unlr4jkmx6eylep8ekg2',
    );
  });
});

describe('checking addresses per coin (a mistyped one is refused)', () => {
  const cases: [Parameters<typeof isValidAddress>[0], string, boolean][] = [
    // BTC: BIP173/BIP350 vectors and base58check
    ['BTC', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', true],
    ['BTC', 'BC1QCR8TE4KR609GCAWUTMRZA0J4XV80JY8Z306FYU', true],
    ['BTC', 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', true],
    ['BTC', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', true],
    ['BTC', '1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu', true],
    ['BTC', '3CWFddi6m4ndiGyKqzYvsFYagqDLPVMTzC', true],
    ['BTC', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyv', false],
    ['BTC', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fYu', false],
    ['BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', false],
    ['BTC', '1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggv', false],
    ['BTC', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', false],
    ['BTC', 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh', false],
    ['BTC', '', false],
    // LTC
    ['LTC', 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh', true],
    ['LTC', 'LUWPbpM43E2p7ZSh8cyTBEkvpHmr3cB8Ez', true],
    ['LTC', 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wk', false],
    ['LTC', 'LUWPbpM43E2p7ZSh8cyTBEkvpHmr3cB8Ey', false],
    ['LTC', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', false],
    ['LTC', '1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu', false],
    // BCH: CashAddr only, with or without the prefix
    ['BCH', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', true],
    ['BCH', 'qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', true],
    ['BCH', 'BITCOINCASH:QPM2QSZNHKS23Z7629MMS6S4CWEF74VCWVY22GDX6A', true],
    ['BCH', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6b', false],
    ['BCH', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvY22gdx6a', false],
    ['BCH', 'bchtest:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a', false],
    ['BCH', '1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu', false],
    // ETH: EIP-55's own examples; one case flipped breaks the checksum
    ['ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', true],
    ['ETH', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', true],
    ['ETH', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', true],
    ['ETH', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb', true],
    ['ETH', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', true],
    ['ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', false],
    ['ETH', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', false],
    ['ETH', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', false],
    // XRP: Ripple's base58 alphabet and checksum
    ['XRP', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', true],
    ['XRP', 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3', true],
    ['XRP', 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v4', false],
    ['XRP', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyT', false],
    ['XRP', '1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu', false],
  ];

  it.each(cases)('%s %s → %s', (asset, address, expected) => {
    expect(isValidAddress(asset, address)).toBe(expected);
  });

  it('checks testnet addresses on testnet', () => {
    expect(isValidAddress('BTC', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'testnet')).toBe(true);
    expect(isValidAddress('BTC', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'testnet')).toBe(false);
  });

  it('writes EIP-55 checksums', () => {
    expect(toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
  });

  it('takes XRP destination tags that fit 32 bits', () => {
    expect(isValidDestinationTag('4294967295')).toBe(true);
    expect(isValidDestinationTag('4294967296')).toBe(false);
    expect(isValidDestinationTag('12a')).toBe(false);
  });
});
