import { parseAmount } from '@florin/domain';
import { describe, expect, it } from 'vitest';
import { termDepositDecimals, termDepositInterest } from './term-deposits.js';

describe('term deposit interest', () => {
  it('is rate % of the amount, floored', () => {
    // 0.00100001 BTC × 0.25 % = 0.0000025000250 BTC: 250 satoshi.
    expect(termDepositInterest(parseAmount('0.00100001', 'BTC'), '0.25', 'btc')).toBe(250n);
    expect(termDepositInterest(parseAmount('2', 'BTC'), '1.2500', 'btc')).toBe(parseAmount('0.025', 'BTC'));
  });

  it('carries no more decimals than a deposit of the coin may: 8 for ether, none for xrp', () => {
    expect(termDepositDecimals('eth')).toBe(8);
    expect(termDepositDecimals('xrp')).toBe(0);
    // 0.12345678 ETH × 0.25 % = 0.00030864195 ETH, of which only 0.00030864 can ever be withdrawn.
    expect(termDepositInterest(parseAmount('0.12345678', 'ETH'), '0.25', 'eth')).toBe(
      parseAmount('0.00030864', 'ETH'),
    );
    // 20 XRP × 0.25 % = 0.05 XRP, which could be neither withdrawn nor traded: nothing; 1,000 XRP earn 2.
    expect(termDepositInterest(parseAmount('20', 'XRP'), '0.25', 'xrp')).toBe(0n);
    expect(termDepositInterest(parseAmount('1000', 'XRP'), '0.25', 'xrp')).toBe(parseAmount('2', 'XRP'));
  });
});
