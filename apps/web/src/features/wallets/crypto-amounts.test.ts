import { CRYPTO_WITHDRAW_TEXTS } from '@florin/contracts';
import { describe, expect, it } from 'vitest';
import {
  formatCoinAmount,
  balanceAfter,
  checkCryptoWithdraw,
  cleanCryptoAmountInput,
  cleanTagInput,
  receiveAmount,
  type CryptoWithdrawDraft,
  type CryptoWithdrawRules,
} from './crypto-amounts';

const BTC: CryptoWithdrawRules = {
  coin: 'btc',
  minimum: '0.01000000',
  fee: '0.00050000',
  available: '1.50000000',
};
const XRP: CryptoWithdrawRules = {
  coin: 'xrp',
  minimum: '20.000000',
  fee: '1.000000',
  available: '100.000000',
};

function draft(overrides: Partial<CryptoWithdrawDraft> = {}): CryptoWithdrawDraft {
  return {
    coin: 'btc',
    amount: '0.5',
    wallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    beneficiary_type: 'self',
    destination_type: 'private_wallet',
    ...overrides,
  };
}

describe('what the amount field accepts', () => {
  it('keeps digits and the first decimal point only', () => {
    expect(cleanCryptoAmountInput('1a.2.3,4 ', 'btc')).toBe('1.234');
  });
  it('takes no decimal point for xrp', () => {
    expect(cleanCryptoAmountInput('25.5', 'xrp')).toBe('255');
  });
  it('keeps a destination tag to 10 digits', () => {
    expect(cleanTagInput('12-34 567890123')).toBe('1234567890');
  });
});

describe('the sums under the form', () => {
  it('gives what arrives, the amount less the fee', () => {
    expect(receiveAmount('0.5', BTC)).toBe('0.49950000');
    expect(receiveAmount('21', XRP)).toBe('20.000000');
  });
  it('gives nothing to receive while the amount does not cover the fee or is not an amount', () => {
    expect(receiveAmount('0.0005', BTC)).toBeUndefined();
    expect(receiveAmount('', BTC)).toBeUndefined();
    expect(receiveAmount('0.123456789', BTC)).toBeUndefined();
  });
  it('takes the whole amount, fee included, off the balance', () => {
    expect(balanceAfter('0.5', BTC)).toBe('1.00000000');
    expect(balanceAfter('', BTC)).toBe('1.50000000');
    expect(balanceAfter('2', BTC)).toBe('-0.50000000');
  });
});

describe('the checks before anything is sent', () => {
  it('stops a customer who is not live before anything else', () => {
    expect(checkCryptoWithdraw(draft({ amount: '' }), BTC, false)).toEqual({
      form: CRYPTO_WITHDRAW_TEXTS.accountNotLive,
    });
  });
  it('passes a withdrawal within the balance and above the minimum', () => {
    expect(checkCryptoWithdraw(draft(), BTC, true)).toEqual({});
    expect(checkCryptoWithdraw(draft({ amount: '1.5' }), BTC, true)).toEqual({});
  });
  it('asks for an amount and an address, in the spec’s words', () => {
    expect(checkCryptoWithdraw(draft({ amount: '', wallet: '' }), BTC, true)).toEqual({
      amount: 'Please Enter Amount.',
      wallet: 'Please provide a valid wallet to send your withdrawal.',
    });
  });
  it('refuses an amount under the coin minimum, then one over the balance', () => {
    expect(checkCryptoWithdraw(draft({ amount: '0.009' }), BTC, true).amount).toBe(
      'Minimum BTC withdrawal amount is 0.01',
    );
    expect(checkCryptoWithdraw(draft({ amount: '1.50000001' }), BTC, true).amount).toBe(
      'The requested amount (fees applied) is greater than your current balance.',
    );
  });
  it('allows at most 8 decimals, and none for xrp', () => {
    expect(checkCryptoWithdraw(draft({ amount: '0.123456789' }), BTC, true).amount).toBe(
      CRYPTO_WITHDRAW_TEXTS.amountDecimals,
    );
    expect(
      checkCryptoWithdraw(draft({ coin: 'xrp', amount: '25.5', wallet: 'rHb9' }), XRP, true).amount,
    ).toBe(CRYPTO_WITHDRAW_TEXTS.xrpWholeNumbers);
  });
  it('refuses a destination tag that is not a number', () => {
    expect(
      checkCryptoWithdraw(draft({ coin: 'xrp', amount: '25', wallet: 'rHb9', xrp_tag: '12a' }), XRP, true)
        .xrp_tag,
    ).toBe(CRYPTO_WITHDRAW_TEXTS.tagInvalid);
  });
  it('asks the Travel Rule questions, and the names they lead to', () => {
    expect(
      checkCryptoWithdraw(draft({ beneficiary_type: null, destination_type: null, wallet: '' }), BTC, true),
    ).toEqual({
      beneficiary_type: 'Please tell us who owns this wallet.',
      destination_type: 'Please tell us where the wallet is held.',
      wallet: CRYPTO_WITHDRAW_TEXTS.emptyAddress,
    });
    expect(
      checkCryptoWithdraw(draft({ beneficiary_type: 'person', destination_type: 'exchange' }), BTC, true),
    ).toEqual({
      beneficiary_name: CRYPTO_WITHDRAW_TEXTS.beneficiaryNameRequired,
      exchange_name: CRYPTO_WITHDRAW_TEXTS.exchangeNameRequired,
    });
    expect(checkCryptoWithdraw(draft({ beneficiary_type: 'business' }), BTC, true)).toEqual({
      beneficiary_name: CRYPTO_WITHDRAW_TEXTS.businessNameRequired,
    });
  });
  it('takes a saved address instead of a typed one', () => {
    expect(checkCryptoWithdraw(draft({ wallet: null, whitelisted_wallet_id: 7 }), BTC, true)).toEqual({});
  });
});

describe('coin amounts on screen', () => {
  it('cuts to the screens’ 5 decimals, but shows every decimal of a withdrawal being approved', () => {
    expect(formatCoinAmount('0.12345678', 'BTC')).toBe('0.12345 BTC');
    expect(formatCoinAmount('0.12345678', 'BTC', { exact: true })).toBe('0.12345678 BTC');
    expect(formatCoinAmount('0.50000000', 'BTC', { exact: true })).toBe('0.50000 BTC');
    expect(formatCoinAmount(undefined, 'BTC')).toBe('—');
  });
});
